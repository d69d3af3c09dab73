"""The third-party packages bots may import (``engine.botpackages``), installed for the
sandbox's interpreter.

Bots run under Debian's ``/usr/bin/python3.11`` with ``-I -S`` (see ``sandbox.runtime``), not
under the worker's virtualenv, so a package a bot may import must be built for *that*
interpreter and live in a directory the jail can show it read-only. This module keeps that
directory: one per interpreter and per version of the pinned list, beside the Python
installation that runs the engine::

    <sys.prefix>/bot-packages/python3.11-<digest of the pins>/

so the repo's ``.venv`` (``make``), the Docker image's Python and an author's own venv (the
kit: ``python -m engine packages --install``) each have their own, and a change of the pins
makes a new directory instead of mixing versions. ``ARENA_SANDBOX_PACKAGES_DIR`` names
another.

:func:`install` runs pip (the engine's own, with ``--python`` pointing at the sandbox's
interpreter, so that interpreter needs no pip of its own) into a scratch directory and moves
it into place once complete: a half-finished install is never shown to a bot. Files are
world-readable and the directories traversable, since bots run as an unprivileged uid.

Nothing is written into the jail's view at run time: the directory is bound read-only, the
interpreter writes no bytecode (``-B``; pip compiled it at install time), and a bot that does
not import a package pays nothing for it (one more read-only bind and one more ``sys.path``
entry, searched only after the standard library and the bot's own files).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from engine.botpackages import BOT_PACKAGES, requirements

__all__ = ["default_dir", "install", "missing", "packages_digest"]

#: Written last by :func:`install`: a directory without it is not a finished install.
MARKER = "BOT-PACKAGES"


def packages_digest() -> str:
    """A short digest of the pinned list: a new list gets a new directory."""
    return hashlib.sha256("\n".join(requirements()).encode()).hexdigest()[:12]


def default_dir(python: str) -> Path:
    """Where the packages for interpreter ``python`` live by default."""
    name = Path(os.path.realpath(python)).name  # python3.11: its wheels' tags
    return Path(sys.prefix) / "bot-packages" / f"{name}-{packages_digest()}"


def missing(directory: str | os.PathLike[str]) -> str | None:
    """None when ``directory`` holds a finished install of the pinned list, else one line."""
    path = Path(directory)
    marker = path / MARKER
    wanted = "\n".join(requirements())
    try:
        if marker.read_text(encoding="utf-8").strip() == wanted:
            return None
    except OSError:
        pass
    return (
        f"the packages bots may import ({', '.join(requirements())}) are not installed at "
        f"{path}: run `python -m engine packages --install` (make run and make test do it)"
    )


def install(python: str, target: str | os.PathLike[str] | None = None) -> Path:
    """Install the pinned packages for ``python`` into ``target`` (default
    :func:`default_dir`) unless they are there already; returns the directory.

    pip reads its usual settings (``PIP_INDEX_URL``, ``PIP_FIND_LINKS``, ``PIP_NO_INDEX``),
    so an offline host can install from a local wheel directory. Raises RuntimeError with
    pip's last lines when it fails.
    """
    directory = Path(target) if target is not None else default_dir(python)
    if not BOT_PACKAGES or missing(directory) is None:
        return directory
    directory.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".{directory.name}-", dir=directory.parent))
    try:
        command = [
            sys.executable,
            "-m",
            "pip",
            "--python",
            os.path.realpath(python),
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--no-warn-script-location",
            "--only-binary=:all:",
            "--target",
            str(scratch),
            *requirements(),
        ]
        done = subprocess.run(command, capture_output=True, text=True, timeout=900, check=False)
        if done.returncode != 0:
            tail = (done.stderr or done.stdout).strip()[-800:]
            raise RuntimeError(f"installing {', '.join(requirements())} failed: {tail}")
        shutil.rmtree(scratch / "bin", ignore_errors=True)  # console scripts: not for bots
        (scratch / MARKER).write_text("\n".join(requirements()) + "\n", encoding="utf-8")
        _readable(scratch)
        if directory.exists():  # an unfinished or older install under the same name
            shutil.rmtree(directory)
        scratch.rename(directory)
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    return directory


def _readable(root: Path) -> None:
    """Directories 755 and files 644: the bot's uid reads them, nobody but root writes."""
    for folder, _, names in os.walk(root):
        os.chmod(folder, 0o755)  # noqa: S103 - world-readable on purpose: bots read it
        for name in names:
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                os.chmod(path, 0o644)
