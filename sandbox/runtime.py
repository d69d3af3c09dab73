"""Which host files make up the Python runtime a bot may see, and nothing more.

The jail's file system starts empty. Into it go, read-only and at their host paths: the
interpreter binary, the directories on its default ``sys.path`` (the standard library and
its C extensions), its shared-library directory and the dynamic loader. Not ``/etc``, not
``/usr/bin`` or ``/usr/local``, not Debian's ``dist-packages``: a bot imports the standard
library and nothing else (unless the operator adds ``extra_python_paths``).

The interpreter is asked once per process for its layout, so any distribution's
interpreter works without hard-coded paths. The same call compiles the in-jail bootstrap
(``sandbox/bootstrap.py``) with that interpreter, so each jail unmarshals ready code instead
of compiling the text again (about 2 ms of CPU per jail on this project's CI machine); the
code object is only valid for that interpreter's version, which is why it is made there.
"""

from __future__ import annotations

import functools
import json
import os
import struct
import subprocess
import threading
from dataclasses import dataclass

from sandbox.errors import SandboxUnavailable

__all__ = ["PythonRuntime", "bootstrap_source", "discover_runtime"]

_PROBE = (
    "import json, marshal, sys, sysconfig; source = sys.stdin.read(); print(json.dumps({"
    "'executable': sys.executable, 'path': sys.path, "
    "'libdir': sysconfig.get_config_var('LIBDIR') or '', "
    "'bootstrap': marshal.dumps(compile(source, '<string>', 'exec', optimize=2)).hex()}))"
)


@dataclass(frozen=True, slots=True)
class PythonRuntime:
    """An interpreter and the read-only binds (host path, jail path) it needs to run."""

    executable: str
    binds: tuple[tuple[str, str], ...]
    #: The bootstrap compiled by this interpreter (``marshal`` format, as hex): its frames
    #: are named ``<string>``, as the text passed with ``-c`` was.
    bootstrap_hex: str = ""


@functools.cache
def bootstrap_source() -> str:
    """The in-jail bootstrap's text (no project file is mounted in the jail)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bootstrap.py")
    with open(path, encoding="utf-8") as handle:
        return handle.read()


_cache: dict[str, PythonRuntime] = {}
_lock = threading.Lock()


def discover_runtime(python: str) -> PythonRuntime:
    """Ask ``python`` for its layout (cached per process); raises SandboxUnavailable."""
    with _lock:
        if python not in _cache:
            _cache[python] = _discover(python)
        return _cache[python]


def _discover(python: str) -> PythonRuntime:
    if not os.path.isfile(python) or not os.access(python, os.X_OK):
        raise SandboxUnavailable(
            f"python interpreter {python} not found: install the Debian package "
            "'python3.11-minimal' or set ARENA_SANDBOX_PYTHON"
        )
    executable = os.path.realpath(python)
    try:
        done = subprocess.run(
            [executable, "-I", "-S", "-c", _PROBE],
            input=bootstrap_source().encode("utf-8"),
            capture_output=True,
            env={},
            timeout=30,
            check=True,
        )
        layout = json.loads(done.stdout)
    except (OSError, subprocess.SubprocessError, ValueError) as exc:
        raise SandboxUnavailable(f"python interpreter {python} does not run: {exc}") from None

    binds: list[tuple[str, str]] = [(executable, executable)]
    dirs = [p for p in layout["path"] if os.path.isdir(p)]
    if layout["libdir"] and os.path.isdir(layout["libdir"]):
        dirs.append(layout["libdir"])
    loader = _elf_interpreter(executable)
    if loader:
        dirs.append(os.path.dirname(os.path.realpath(loader)))
    for path in sorted(set(dirs), key=len):
        if not any(_inside(path, dest) for _, dest in binds[1:]):
            binds.append((os.path.realpath(path), path))
    if loader and not any(_inside(loader, dest) for _, dest in binds[1:]):
        binds.append((os.path.realpath(loader), loader))
    return PythonRuntime(
        executable=executable, binds=tuple(binds), bootstrap_hex=layout["bootstrap"]
    )


def _inside(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip("/") + "/")


def _elf_interpreter(path: str) -> str:
    """The PT_INTERP path (dynamic loader) of an ELF executable, or "" if static/unknown."""
    try:
        with open(path, "rb") as handle:
            header = handle.read(64)
            if header[:4] != b"\x7fELF" or header[4] != 2:  # 64-bit only
                return ""
            endian = "<" if header[5] == 1 else ">"
            (phoff,) = struct.unpack_from(endian + "Q", header, 32)
            phentsize, phnum = struct.unpack_from(endian + "HH", header, 54)
            for index in range(phnum):
                handle.seek(phoff + index * phentsize)
                entry = handle.read(phentsize)
                (kind,) = struct.unpack_from(endian + "I", entry, 0)
                if kind == 3:  # PT_INTERP
                    (offset,) = struct.unpack_from(endian + "Q", entry, 8)
                    (size,) = struct.unpack_from(endian + "Q", entry, 32)
                    handle.seek(offset)
                    return handle.read(size).rstrip(b"\0").decode()
    except (OSError, struct.error, UnicodeDecodeError):
        return ""
    return ""
