"""Reading a bot from what its author gives us: one ``.py`` file or a ``.zip`` with ``bot.py``.

The same checks guard the local runner and the arena's uploads, so an author sees the same
clear message in both places. Each check raises :class:`BotFileError` with a stable
``code`` (for the API) and one line naming the file and the problem (for people). Nothing
here runs the bot's code: it is parsed, never imported.
"""

from __future__ import annotations

import io
import lzma
import stat
import tempfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from engine.botpackages import allowed_names
from engine.sourcecheck import check_sources

__all__ = [
    "ENTRY_FILE",
    "BotFileError",
    "BotPackage",
    "UploadLimits",
    "read_bot",
    "read_bot_path",
    "unpack_bot",
]

ENTRY_FILE = "bot.py"
ENTRY_POINT = "act"


class BotFileError(ValueError):
    """A bot file that cannot be accepted; ``str(error)`` is one line for its author."""

    def __init__(self, code: str, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.line = line  # the line of bot.py (or of the zip's file) at fault, if known


@dataclass(frozen=True, slots=True)
class UploadLimits:
    max_bytes: int = 1024 * 1024  # the file as uploaded
    max_files: int = 200  # entries in a zip
    max_unpacked_bytes: int = 10 * 1024 * 1024  # all files of a zip, unpacked


@dataclass(frozen=True, slots=True)
class BotPackage:
    """A checked bot: its files by relative path, ``bot.py`` among them."""

    filename: str
    files: dict[str, bytes]

    @property
    def source(self) -> str:
        return self.files[ENTRY_FILE].decode("utf-8-sig")  # a byte-order mark is not text

    def write_to(self, directory: str | Path) -> Path:
        """Write the files under ``directory``; returns the path of ``bot.py``."""
        root = Path(directory)
        for name, data in self.files.items():
            target = root / name
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "xb") as out:  # never over another file of the bot
                out.write(data)
        return root / ENTRY_FILE


def read_bot(
    filename: str,
    data: bytes,
    limits: UploadLimits | None = None,
    *,
    label: str | None = None,
    importable: frozenset[str] = frozenset(),
) -> BotPackage:
    """Check an uploaded bot and return its files, or raise BotFileError.

    Messages name the file by ``label`` (default: the file name without its directory).
    The check ends by unpacking the files into a scratch directory with the very function
    the arena and the local runner unpack with (:meth:`BotPackage.write_to`), so whatever
    is accepted here is known to unpack there.

    Its sources may import the standard library, the packages every bot may import
    (:mod:`engine.botpackages`: numpy, here and in the local runner alike), their own modules
    and ``importable`` (the packages an operator made importable in the sandbox); anything
    else is refused with its line (``forbidden_import``), since it could only fail when the
    bot starts.
    """
    package, name, is_zip = _read_files(filename, data, limits, label)
    problem = check_sources(
        package.files,
        entry=ENTRY_FILE,
        entry_point=ENTRY_POINT,
        importable=importable | allowed_names(),
    )
    if problem is not None:
        where = f"{name}: {problem.path}" if is_zip else name
        raise BotFileError(problem.code, f"{where}: {problem.message}", problem.line)
    with tempfile.TemporaryDirectory(prefix="arena-unpack-check-") as scratch:
        _write_checked(package, Path(scratch), name)
    return package


def unpack_bot(filename: str, data: bytes, directory: str | Path) -> Path:
    """Unpack an accepted bot's files into ``directory`` (``bot.py`` at its root).

    The same structural checks and the same writer as :func:`read_bot`, without compiling
    the sources again (they were checked when the file was accepted, and a stored file is
    known by its checksum). Raises BotFileError when the files cannot be written.
    """
    package, name, _ = _read_files(filename, data, UploadLimits(max_bytes=len(data)), None)
    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)
    _write_checked(package, root, name)
    return root


def read_bot_path(path: str | Path, limits: UploadLimits | None = None) -> BotPackage:
    """Check a bot file on disk (``.py`` or ``.zip``)."""
    path = Path(path)
    if not path.exists():
        raise BotFileError("not_found", f"{path}: no such file")
    if path.is_dir():
        raise BotFileError("bad_type", f"{path}: is a directory; give the bot's .py or .zip file")
    return read_bot(path.name, path.read_bytes(), limits, label=str(path))


def _read_files(
    filename: str, data: bytes, limits: UploadLimits | None, label: str | None
) -> tuple[BotPackage, str, bool]:
    """The files of a ``.py`` or ``.zip`` upload after the checks that need no compiler."""
    limits = limits or UploadLimits()
    base = PurePosixPath(filename.replace("\\", "/")).name or "upload"
    name = label or base
    if len(data) > limits.max_bytes:
        raise BotFileError(
            "too_large",
            f"{name}: {len(data):,} bytes is over the {limits.max_bytes:,}-byte limit",
        )
    suffix = PurePosixPath(base).suffix.lower()
    if suffix == ".py":
        files = {ENTRY_FILE: data}
    elif suffix == ".zip":
        files = _unzip(name, data, limits)
    else:
        raise BotFileError(
            "bad_type", f"{name}: a bot is a .py file or a .zip with bot.py at its root"
        )
    return BotPackage(filename=base, files=files), name, suffix == ".zip"


def _write_checked(package: BotPackage, directory: Path, name: str) -> None:
    try:
        package.write_to(directory)
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise BotFileError(
            "cannot_unpack", f"{name}: its files cannot be unpacked ({reason})"
        ) from None


#: Longest name of one file or folder in a zip, in UTF-8 bytes (Linux's NAME_MAX).
MAX_NAME_BYTES = 255
#: Longest path of a file in a zip, in UTF-8 bytes, and deepest folder nesting.
MAX_PATH_BYTES = 1024
MAX_DEPTH = 16
_ZIP_READ_ERRORS = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    RuntimeError,  # encrypted entries
    NotImplementedError,  # unsupported compression
    OSError,  # bz2's corrupt streams
    EOFError,  # truncated streams
    ValueError,
    zlib.error,  # corrupt deflate streams
    lzma.LZMAError,  # corrupt LZMA streams
)


def _unzip(name: str, data: bytes, limits: UploadLimits) -> dict[str, bytes]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except _ZIP_READ_ERRORS as exc:
        raise BotFileError("bad_zip", f"{name}: is not a readable zip file ({exc})") from None
    if len(infos) > limits.max_files:
        raise BotFileError(
            "too_many_files",
            f"{name}: {len(infos)} entries is over the {limits.max_files} limit",
        )
    files: dict[str, bytes] = {}
    folders: set[str] = set()
    seen: dict[str, str] = {}  # case-folded path -> path as given
    budget = limits.max_unpacked_bytes
    for info in infos:
        path = info.filename.replace("\\", "/")
        if path.startswith("__MACOSX/"):
            continue  # resource forks macOS's Archive Utility adds
        parts = _safe_parts(name, path)
        mode = info.external_attr >> 16
        if stat.S_ISLNK(mode):
            raise BotFileError("symlink", f"{name}: entry {path!r} is a symbolic link")
        if info.is_dir():
            continue
        clean = "/".join(parts)
        _claim_path(name, clean, parts, files, folders, seen)
        if info.file_size > budget:
            raise BotFileError(
                "zip_bomb",
                f"{name}: unpacks to more than {limits.max_unpacked_bytes:,} bytes",
            )
        try:
            with archive.open(info) as handle:
                content = handle.read(budget + 1)  # the header may lie about the size
        except _ZIP_READ_ERRORS as exc:
            raise BotFileError("bad_zip", f"{name}: cannot read {path!r} ({exc})") from None
        if len(content) > budget:
            raise BotFileError(
                "zip_bomb",
                f"{name}: unpacks to more than {limits.max_unpacked_bytes:,} bytes",
            )
        budget -= len(content)
        files[clean] = content
    if ENTRY_FILE not in files:
        nested = sorted(p for p in files if PurePosixPath(p).name == ENTRY_FILE)
        hint = f" (found {nested[0]}; zip the files, not their folder)" if nested else ""
        raise BotFileError("no_bot_py", f"{name}: has no bot.py at its root{hint}")
    return files


def _safe_parts(name: str, path: str) -> list[str]:
    """The components of a zip entry's path, refused unless they unpack on any host."""
    if path.startswith("/") or ".." in path.split("/") or path.split("/")[0].endswith(":"):
        raise BotFileError("unsafe_path", f"{name}: entry {path!r} points outside the zip")
    if any(ord(char) < 32 or ord(char) == 127 for char in path):
        raise BotFileError(
            "bad_name", f"{name}: entry {path!r} has a control character in its name"
        )
    try:
        encoded = path.encode("utf-8")
    except UnicodeEncodeError:
        raise BotFileError("bad_name", f"{name}: entry {path!r} has an unreadable name") from None
    parts = [part for part in path.split("/") if part not in ("", ".")]
    if not parts:
        raise BotFileError("bad_name", f"{name}: an entry has an empty name")
    long = next((part for part in parts if len(part.encode("utf-8")) > MAX_NAME_BYTES), None)
    if long is not None:
        raise BotFileError(
            "name_too_long",
            f"{name}: entry {path[:60]!r}... has a name over {MAX_NAME_BYTES} bytes",
        )
    if len(encoded) > MAX_PATH_BYTES or len(parts) > MAX_DEPTH:
        raise BotFileError(
            "path_too_long",
            f"{name}: entry {path[:60]!r}... is nested deeper than {MAX_DEPTH} folders "
            f"or longer than {MAX_PATH_BYTES} bytes",
        )
    return parts


def _claim_path(
    name: str,
    clean: str,
    parts: list[str],
    files: dict[str, bytes],
    folders: set[str],
    seen: dict[str, str],
) -> None:
    """Refuse a file that another entry already names, or that a folder needs to be.

    Names differing only in case are refused too: they would overwrite each other when the
    author unpacks the bot on macOS or Windows.
    """
    folded = clean.casefold()
    if folded in seen:
        raise BotFileError(
            "duplicate_name", f"{name}: entries {seen[folded]!r} and {clean!r} name the same file"
        )
    prefixes = ["/".join(parts[:depth]) for depth in range(1, len(parts))]
    clash = next((prefix for prefix in prefixes if prefix.casefold() in seen), None)
    if clash is not None or folded in folders:
        other = clash if clash is not None else clean
        raise BotFileError(
            "path_conflict", f"{name}: {other!r} is both a file and a folder in the zip"
        )
    seen[folded] = clean
    folders.update(prefix.casefold() for prefix in prefixes)
