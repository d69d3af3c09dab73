"""What a new bot author downloads: the engine's wheel and a starter kit per game.

The wheel is the repo's installable part (``engine`` and ``sandbox``, see pyproject.toml). A
starter kit is a zip of everything to begin with: the game's starter bot, its rules, a README
saying how to install and run, a test harness, the wheel itself and, under ``wheels/``, the
wheels of everything the engine needs (fastjsonschema, rich, trueskillthroughtime and
theirs), so that::

    pip install --no-index --find-links wheels bluff_arena_engine-*.whl
    python -m engine play my_bot.py random

works from the kit's folder with no network at all.

Why ship the dependencies rather than make the engine need none for local play: the local
runner must judge a bot as the arena does, and the arena checks every action with
fastjsonschema against the game's schema, so a kit without it would accept moves the arena
refuses; rich draws the runner's tables and trueskillthroughtime rates its tournaments as
the ladder does. They are pure-Python wheels (any OS, any CPU), about 1.6 MB together, of
the very versions this arena runs (read from its own environment).

numpy, which bots may import (``engine.botpackages``), is **not** in the kit: its wheel is
built for one operating system, CPU and Python version, and the site cannot tell which of
them the author's machine is, so the README says to take it from PyPI at the pinned version.

**When they are built.** Never inside a request: building takes pip (the engine's wheel
from the sources, seconds; the dependencies' wheels from pip's cache or the package index,
up to a minute), longer than a request may wait. :func:`downloads_build` builds all of them
(``manage.py arena_kits``): the Docker image runs it at build time (``docker/Dockerfile``,
into a read-only ``ARENA_DOWNLOADS_DIR`` of the image) and ``make run`` (``arena_up``) in the
background as it starts. The wheel is built from a copy of its sources in a scratch folder
beside the downloads, never in the source tree, which may be read-only (the image's
``/app``) and must not collect ``build/`` and ``*.egg-info``. A request finds what was built
for the sources it runs, or gets :class:`KitNotReady` (503, with ``Retry-After``) saying so,
and why the last build failed if it did.

Files unzip as ``-rw-r--r--``: zip entries carry their Unix mode, and a ``writestr`` entry
defaults to ``0600``, which left the kit's README unreadable to anyone but its unzipper.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.metadata
import io
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import tomllib
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings

from engine.botpackages import requirements, summary
from engine.registry import GAMES, get_game

__all__ = [
    "RETRY_AFTER_S",
    "KitError",
    "KitNotReady",
    "dependency_wheels",
    "dependency_wheels_build",
    "downloads_build",
    "downloads_dir",
    "engine_dependencies",
    "engine_wheel",
    "engine_wheel_build",
    "kit_games",
    "sources_digest",
    "starter_kit",
    "starter_kit_file",
    "starter_kit_name",
]

ROOT = Path(__file__).resolve().parents[2]
#: What the wheel is built from: these folders and files of the repository, copied as they
#: are (setup.py puts the viewer's files into the wheel as engine/_viewer).
SOURCE_DIRS = ("engine", "sandbox", "arena/static/arena/viewer", "arena/static/arena/games")
SOURCE_FILES = (
    "pyproject.toml",
    "setup.py",
    "README.md",
    "arena/static/arena/arena.css",
    "arena/templates/arena/matches/viewer.html",
)
#: What a request that finds no kit built is told to wait before it asks again.
RETRY_AFTER_S = 60
#: Mode of every file in a kit: world-readable, as files a person unzips are.
FILE_MODE = 0o644
_FAILED = ".last-build-failed"


class KitError(RuntimeError):
    """The downloads could not be built (a platform problem, reported as such)."""


class KitNotReady(KitError):
    """Nothing is built for the running sources yet: a 503 for a while, not a failure."""

    retry_after = RETRY_AFTER_S


def downloads_dir() -> Path:
    """Where the downloads are built and read: ``ARENA_DOWNLOADS_DIR``, else
    ``DATA_DIR/downloads``."""
    configured = getattr(settings, "ARENA_DOWNLOADS_DIR", None)
    return Path(configured) if configured else Path(settings.DATA_DIR) / "downloads"


def kit_games() -> list[str]:
    """The games that have a starter kit: every hosted game with a starter bot."""
    return [name for name, game in GAMES.items() if "starter" in game.builtin_bots()]


# --- what the wheel is built from -------------------------------------------------------------


def _source_files() -> Iterator[Path]:
    """The wheel's sources, relative to the repository, in a stable order."""
    for name in SOURCE_FILES:
        if (ROOT / name).is_file():
            yield Path(name)
    for folder in SOURCE_DIRS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                yield path.relative_to(ROOT)


def sources_digest() -> str:
    """A digest of the wheel's sources: a changed source is a new wheel (and new kits)."""
    digest = hashlib.sha256()
    for relative in _source_files():
        digest.update(str(relative).encode() + b"\0")
        digest.update((ROOT / relative).read_bytes())
    return digest.hexdigest()[:16]


def _pins() -> list[str]:
    return [f"{name}=={version}" for name, version in engine_dependencies().items()]


def _pins_digest(pins: list[str]) -> str:
    return hashlib.sha256("\n".join(pins).encode()).hexdigest()[:16]


@contextmanager
def _locked() -> Iterator[Path]:
    """The downloads folder, held by one builder at a time (processes and threads)."""
    root = downloads_dir()
    root.mkdir(parents=True, exist_ok=True)
    with (root / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield root


def _not_ready(what: str) -> KitNotReady:
    reason = ""
    failed = downloads_dir() / _FAILED
    if failed.is_file():
        reason = f" The last build failed: {failed.read_text(errors='replace').strip()[-600:]}"
    return KitNotReady(
        f"{what} is not built on this server yet (`python manage.py arena_kits` builds it; "
        f"`make run` does as it starts): try again in a minute.{reason}"
    )


# --- the engine's wheel -----------------------------------------------------------------------


def _wheel_dir(digest: str | None = None) -> Path:
    return downloads_dir() / "engine" / (digest or sources_digest())


def engine_wheel() -> Path:
    """The engine's wheel for the running sources, as :func:`engine_wheel_build` left it;
    :class:`KitNotReady` when it is not built (this never builds: requests call it)."""
    built = sorted(_wheel_dir().glob("*.whl"))
    if not built:
        raise _not_ready("The engine's wheel")
    return built[-1]


def engine_wheel_build() -> Path:
    """Build the engine's wheel for the current sources unless it is there; returns it.

    pip builds from a copy of the sources in a scratch folder under the downloads, so the
    source tree is only read (setuptools writes ``build/`` and ``*.egg-info`` where it
    builds), with the setuptools this environment has (``--no-build-isolation``: no index).
    """
    digest = sources_digest()
    target = _wheel_dir(digest)
    with _locked() as root:
        built = sorted(target.glob("*.whl"))
        if built:
            return built[-1]
        scratch = Path(tempfile.mkdtemp(prefix=".engine-src-", dir=root))
        try:
            for relative in _source_files():
                (scratch / relative).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(ROOT / relative, scratch / relative)
            out = scratch / "dist"
            command = [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                str(scratch),
                "--no-deps",
                "--no-build-isolation",
                "--quiet",
                "--disable-pip-version-check",
                "--wheel-dir",
                str(out),
            ]
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=300, cwd=scratch, check=False
            )
            wheels = sorted(out.glob("*.whl"))
            if done.returncode != 0 or not wheels:
                tail = (done.stderr or done.stdout).strip()[-500:]
                raise KitError(f"building the engine's wheel failed: {tail}")
            target.mkdir(parents=True, exist_ok=True)
            os.chmod(wheels[-1], FILE_MODE)
            wheels[-1].replace(target / wheels[-1].name)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    return sorted(target.glob("*.whl"))[-1]


# --- what the engine needs --------------------------------------------------------------------


def engine_dependencies() -> dict[str, str]:
    """The engine's runtime dependencies and theirs, as installed here: name -> version.

    Read from pyproject.toml and this environment's package metadata, so the kit carries the
    versions the arena itself runs. A requirement not installed here (one whose marker does
    not apply to this Python) is left out.
    """
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    found: dict[str, str] = {}
    pending = list(project.get("dependencies", []))
    while pending:
        requirement = pending.pop()
        marker = requirement.split(";", 1)[1] if ";" in requirement else ""
        if "extra" in marker:
            continue
        name = re.split(r"[\s;<>=!~\[(]", requirement, maxsplit=1)[0]
        key = name.lower().replace("_", "-")
        if not name or key in found:
            continue
        try:
            found[key] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        pending += importlib.metadata.requires(name) or []
    return dict(sorted(found.items()))


def _dependency_dir(pins: list[str]) -> Path:
    return downloads_dir() / "wheels" / _pins_digest(pins)


def dependency_wheels() -> list[Path]:
    """Wheels of :func:`engine_dependencies` as :func:`dependency_wheels_build` left them;
    :class:`KitNotReady` when they are not built (this never runs pip)."""
    target = _dependency_dir(_pins())
    if not (target / ".complete").is_file():
        raise _not_ready("The starter kit (the wheels the engine needs)")
    return sorted(target.glob("*.whl"))


def dependency_wheels_build() -> list[Path]:
    """Build the wheels of :func:`engine_dependencies` with pip unless they are there.

    pip takes them from its cache or the package index (``PIP_FIND_LINKS`` and friends
    apply); a host that can reach neither gets :class:`KitError` saying so.
    """
    pins = _pins()
    target = _dependency_dir(pins)
    done_marker = target / ".complete"
    with _locked():
        if done_marker.is_file():
            return sorted(target.glob("*.whl"))
        target.mkdir(parents=True, exist_ok=True)
        command = [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--quiet",
            "--disable-pip-version-check",
            "--wheel-dir",
            str(target),
            *pins,
        ]
        built = subprocess.run(
            command, capture_output=True, text=True, timeout=600, cwd=target, check=False
        )
        if built.returncode != 0 or len(list(target.glob("*.whl"))) < len(pins):
            tail = (built.stderr or built.stdout).strip()[-500:]
            raise KitError(f"building the engine's dependency wheels failed: {tail}")
        for wheel in target.glob("*.whl"):
            os.chmod(wheel, FILE_MODE)
        done_marker.write_text("\n".join(pins) + "\n")
    return sorted(target.glob("*.whl"))


# --- the kits -------------------------------------------------------------------------------


def starter_kit_name(game: str) -> str:
    return f"{get_game(game).name}-starter-kit.zip"


_README = """# {title}: starter kit

{summary}

## Set up (once)

    python3 -m venv .venv && . .venv/bin/activate
    pip install --no-index --find-links wheels {wheel}

`{wheel}` is the engine (the arena's own rules, match runner, sandbox and replay viewer);
`wheels/` holds what it needs, so this works offline.

Bots may import the standard library and {packages}, nothing else (the local runner refuses
any other import, as the site does). **numpy is not in this kit**: its wheel differs from
one operating system, CPU and Python to the next, so it comes from PyPI (this needs the
network, once). For a bot that imports it, in this venv:

    pip install {pins}                  # for --in-process runs and test_my_bot.py
    python -m engine packages --install # for sandboxed runs (installs it for the sandbox's Python)

A bot that does not import numpy needs neither.

## Play your bot locally

    python -m engine play my_bot.py random --game {game} --matches 10 --in-process
    python -m engine play my_bot.py random --game {game} --matches 10   # sandboxed, as on the site
    python -m engine tournament my_bot.py {rivals} --game {game}

What your bot prints, and its traceback if it fails, are shown on stderr labelled with the
match, game and step (`--quiet` hides them there). `--replay-dir replays/` keeps every
replay, with what your bot printed beside it (`*.logs.json`, yours alone: never uploaded);
`python -m engine replay replays/<file>` prints one as text, and with `--html match.html`
writes it as one page with the site's own viewer, your bot's output and any fault beside the
step they belong to (open it in a browser; `F` jumps to a fault). The site's replay page
opens the replay files too. Sandboxed runs need Linux with
bubblewrap (`apt install bubblewrap`); elsewhere use `--in-process` (your code only).

## Check it before you upload

    python test_my_bot.py      # or: pytest test_my_bot.py

## The rules and the bot API

`rules.md` is the game as the arena plays it, with every observation field and the action
format. Built-in bots to practise against: {bots}.

## Upload

On the site: **Upload**, choose {title}, drop `my_bot.py` (or a zip with `bot.py` and your
helper modules). It is validated in the sandbox and then plays the ladder.
"""

_HARNESS = '''"""Plays a few matches of my_bot.py against the built-in random bot and fails
loudly if the bot crashes, times out or plays an illegal move.

Run: python test_my_bot.py (or pytest).
"""

from pathlib import Path

from engine import InProcessPlayer, builtin_bot, play_match

GAME = "{game}"
BOT = Path(__file__).with_name("my_bot.py")


def test_my_bot_plays_whole_matches_without_a_fault():
    rules = __import__("engine").get_game(GAME)
    for seed in range(5):
        players = [InProcessPlayer("my_bot", BOT)] + [
            InProcessPlayer(f"random{{n}}", builtin_bot(GAME, "random"))
            for n in range(1, rules.min_players)
        ]
        result = play_match(GAME, players, seed=seed, collect_logs=True)
        for fault in result.faults:
            raise AssertionError(
                f"seat {{fault.seat}} failed in game {{fault.game}}: {{fault.kind}}: "
                f"{{fault.detail}}\\n{{fault.private}}"
            )
        print(f"match {{seed}}: placings {{list(result.placings)}}")


if __name__ == "__main__":
    test_my_bot_plays_whole_matches_without_a_fault()
    print("my_bot.py played 5 matches without a fault")
'''


def _member(name: str, compress: int = zipfile.ZIP_DEFLATED) -> zipfile.ZipInfo:
    """A zip entry that unzips as a regular ``-rw-r--r--`` file."""
    info = zipfile.ZipInfo(name, date_time=time.localtime()[:6])
    info.external_attr = (stat.S_IFREG | FILE_MODE) << 16
    info.compress_type = compress
    return info


def starter_kit(
    game: str, wheel: Path | None = None, dependencies: list[Path] | None = None
) -> bytes:
    """The starter kit of ``game`` as zip bytes (see the module docstring), from the built
    wheels (default: :func:`engine_wheel` and :func:`dependency_wheels`)."""
    rules = get_game(game)
    bots = rules.builtin_bots()
    wheel = wheel or engine_wheel()
    dependencies = dependency_wheels() if dependencies is None else dependencies
    folder = f"{rules.name}-starter"
    others = sorted(name for name in bots if name != "starter")
    readme = _README.format(
        title=rules.title,
        summary=rules.summary,
        game=rules.name,
        wheel=wheel.name,
        bots=", ".join(others),
        rivals=" ".join(others),
        packages=summary().removeprefix("the standard library and "),
        pins=" ".join(requirements()),
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as kit:
        kit.writestr(_member(f"{folder}/README.md"), readme)
        kit.writestr(_member(f"{folder}/my_bot.py"), bots["starter"].read_bytes())
        kit.writestr(_member(f"{folder}/test_my_bot.py"), _HARNESS.format(game=rules.name))
        docs = rules.docs_path()
        if docs.is_file():
            kit.writestr(_member(f"{folder}/rules.md"), docs.read_bytes())
        # Wheels are zips already: stored, not compressed twice.
        stored = zipfile.ZIP_STORED
        kit.writestr(_member(f"{folder}/{wheel.name}", stored), wheel.read_bytes())
        for dependency in dependencies:
            name = f"{folder}/wheels/{dependency.name}"
            kit.writestr(_member(name, stored), dependency.read_bytes())
    return buffer.getvalue()


def _kit_path(game: str) -> Path:
    """Where the kit of ``game`` for the running sources, dependencies and rules lives."""
    rules = get_game(game)
    digest = hashlib.sha256(f"{sources_digest()}:{_pins_digest(_pins())}:{game}".encode())
    docs = rules.docs_path()  # the rules may live outside the wheel's sources (docs/games/)
    if docs.is_file():
        digest.update(docs.read_bytes())
    return downloads_dir() / "kits" / digest.hexdigest()[:16] / starter_kit_name(game)


def _kit_write(game: str, target: Path, wheel: Path, dependencies: list[Path]) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    scratch = target.with_suffix(f".{os.getpid()}.part")
    scratch.write_bytes(starter_kit(game, wheel, dependencies))
    os.chmod(scratch, FILE_MODE)
    scratch.replace(target)  # atomic: a reader never sees half a zip
    return target


def starter_kit_file(game: str) -> Path:
    """The starter kit of ``game`` as a file, for the request that serves it.

    Read as :func:`downloads_build` left it; where the wheels are built but this kit is not
    (a new version of the game's rules), it is zipped now, which needs no pip and no
    network. Nothing built: :class:`KitNotReady`.
    """
    target = _kit_path(game)
    if target.is_file():
        return target
    wheel, dependencies = engine_wheel(), dependency_wheels()
    try:
        return _kit_write(game, target, wheel, dependencies)
    except OSError as exc:  # a read-only downloads folder without this kit
        raise _not_ready(f"The {get_game(game).title} starter kit") from exc


def downloads_build(*, say: Callable[[str], None] = lambda line: None) -> list[Path]:
    """Build everything authors download for the running sources: the engine's wheel, the
    wheels it needs and every game's kit (``manage.py arena_kits``). Idempotent: what is
    built already is kept. A failure is kept too (:class:`KitNotReady` quotes it) and raised.
    """
    failed = downloads_dir() / _FAILED
    try:
        wheel = engine_wheel_build()
        say(f"engine wheel: {wheel.name} ({wheel.stat().st_size:,} bytes)")
        dependencies = dependency_wheels_build()
        say(f"the wheels it needs: {', '.join(path.name for path in dependencies)}")
        built = [wheel]
        with _locked():
            for game in kit_games():
                target = _kit_path(game)
                if not target.is_file():
                    _kit_write(game, target, wheel, dependencies)
                say(f"{game} starter kit: {target} ({target.stat().st_size:,} bytes)")
                built.append(target)
    except (KitError, OSError, subprocess.SubprocessError) as exc:
        try:
            failed.parent.mkdir(parents=True, exist_ok=True)
            failed.write_text(f"{exc}\n")
        except OSError:
            pass
        if isinstance(exc, KitError):
            raise
        raise KitError(f"building the downloads failed: {exc}") from exc
    failed.unlink(missing_ok=True)
    return built
