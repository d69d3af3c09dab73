"""Checking a bot's Python source without trusting the compiler with the caller's process.

Compiling hostile source is itself an attack: ``x = ------...-1`` with 200,000 minus signs
or a 600 KB ``1+1+...+1`` makes CPython's compiler raise ``RecursionError`` or
``MemoryError`` (or, on other builds, overflow the C stack) after most of a second of CPU.
In the web process that is a denial of service. So :func:`check_sources` runs the check in
a child interpreter (:mod:`engine.compilecheck`, run as a script with ``-I -S``) under an
address-space and CPU-time limit, and turns every way the child can fail into a
:class:`SourceProblem`.

The child only parses and compiles; it never executes the bot's code. Its answer is one
dict on stdout. Standard library only, like the rest of ``engine``.
"""

from __future__ import annotations

import marshal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from engine import compilecheck
from engine.botpackages import BOT_PACKAGES
from engine.compilecheck import CHECK_CPU_S, CHECK_MEMORY_BYTES, TOO_COMPLEX, defines

__all__ = [
    "CHECK_CPU_S",
    "CHECK_MEMORY_BYTES",
    "SourceProblem",
    "check_sources",
    "defines",
    "packages_named",
]

_WALL_S = 3 * CHECK_CPU_S
_CHILD = str(Path(compilecheck.__file__))


@dataclass(frozen=True, slots=True)
class SourceProblem:
    """Why a file's source cannot be accepted: a stable ``code`` and one line of text."""

    path: str
    code: str  # "not_utf8", "syntax_error", "too_complex", "no_entry_point", "forbidden_import"
    message: str
    line: int | None = None  # where in ``path``, when the problem has a line


def check_sources(
    files: dict[str, bytes],
    *,
    entry: str,
    entry_point: str,
    importable: frozenset[str] = frozenset(),
) -> SourceProblem | None:
    """The first problem with the ``.py`` files of ``files`` (by path), or None.

    ``entry`` (``bot.py``) must bind ``entry_point`` (``act``) at top level. The files may
    import the standard library, their own modules (found in ``files``) and ``importable``,
    which a refused import names (:func:`packages_named`).
    """
    sources = _decoded(files)
    if isinstance(sources, SourceProblem):
        return sources
    own = {PurePosixPath(path).parts[0].removesuffix(".py") for path in files}
    request = marshal.dumps(
        {
            "sources": sources,
            "entry": entry,
            "entry_point": entry_point,
            "importable": sorted(own | set(importable)),
            "packages": packages_named(importable),
        }
    )
    try:
        child = subprocess.run(
            [sys.executable, "-I", "-S", _CHILD],
            input=request,
            capture_output=True,
            timeout=_WALL_S,
            env={},
            check=False,
        )
    except subprocess.TimeoutExpired:
        return _too_complex(entry, "took too long to compile")
    return _child_problem(child, entry)


def _decoded(files: dict[str, bytes]) -> dict[str, str] | SourceProblem:
    """The ``.py`` files' text, or the first that is not UTF-8 (checked before any child)."""
    sources: dict[str, str] = {}
    for path, content in files.items():
        if not path.endswith(".py"):
            continue
        try:  # a leading byte-order mark (Notepad writes one) is UTF-8 too; Python reads it
            sources[path] = content.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            return SourceProblem(path, "not_utf8", f"is not UTF-8 text (byte {exc.start})")
    return sources


def _child_problem(child: subprocess.CompletedProcess[bytes], entry: str) -> SourceProblem | None:
    """The checker child's answer as a problem (None: the sources are fine).

    A child that died without answering was killed by a limit (the source is too
    complex) or failed on its own, which is the platform's bug: RuntimeError.
    """
    try:
        answer = marshal.loads(child.stdout)  # noqa: S302 - written by compilecheck
        if not isinstance(answer, dict):
            raise ValueError("not an answer")
    except (EOFError, ValueError, TypeError):
        if child.returncode < 0 or b"MemoryError" in child.stderr:
            # Killed by RLIMIT_CPU (SIGXCPU) or the C stack (SIGSEGV), or out of memory
            # before it could answer: the source is beyond what the arena compiles.
            return SourceProblem(entry, "too_complex", TOO_COMPLEX)
        # Anything else is the checker's own failure, not the bot's: say so loudly.
        tail = child.stderr.decode("utf-8", "replace")[-500:]
        raise RuntimeError(
            f"the source checker failed (status {child.returncode}): {tail}"
        ) from None
    if answer.get("ok"):
        return None
    line = answer.get("line")
    return SourceProblem(
        str(answer["path"]),
        str(answer["code"]),
        str(answer["message"]),
        line if isinstance(line, int) and line > 0 else None,
    )


def packages_named(importable: frozenset[str]) -> str:
    """What a bot may import besides the standard library, for a refusal: "numpy 2.4.6"
    (a pinned package with its version; one an operator added, by name)."""
    return ", ".join(
        f"{name} {BOT_PACKAGES[name]}" if name in BOT_PACKAGES else name
        for name in sorted(importable)
    )


def _too_complex(entry: str, text: str) -> SourceProblem:
    return SourceProblem(entry, "too_complex", f"{text} (simplify or split it)")
