"""Reading a bot from what its author gives us: one ``.py`` file or a ``.zip`` with ``bot.py``.

The same checks guard the local runner and the arena's uploads, so an author sees the same
clear message in both places. Each check raises :class:`BotFileError` with a stable
``code`` (for the API) and one line naming the file and the problem (for people). Nothing
here runs the bot's code: it is parsed, never imported.
"""

from __future__ import annotations

import ast
import io
import stat
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

__all__ = [
    "ENTRY_FILE",
    "BotFileError",
    "BotPackage",
    "UploadLimits",
    "read_bot",
    "read_bot_path",
]

ENTRY_FILE = "bot.py"
ENTRY_POINT = "act"


class BotFileError(ValueError):
    """A bot file that cannot be accepted; ``str(error)`` is one line for its author."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


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
        return self.files[ENTRY_FILE].decode("utf-8")

    def write_to(self, directory: str | Path) -> Path:
        """Write the files under ``directory``; returns the path of ``bot.py``."""
        root = Path(directory)
        for name, data in self.files.items():
            target = root / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        return root / ENTRY_FILE


def read_bot(
    filename: str, data: bytes, limits: UploadLimits | None = None, *, label: str | None = None
) -> BotPackage:
    """Check an uploaded bot and return its files, or raise BotFileError.

    Messages name the file by ``label`` (default: the file name without its directory).
    """
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
    for path, content in files.items():
        if path.endswith(".py"):
            _check_python(name if suffix == ".py" else f"{name}: {path}", content)
    tree = ast.parse(files[ENTRY_FILE])
    if not _defines(tree, ENTRY_POINT):
        where = name if suffix == ".py" else f"{name}: {ENTRY_FILE}"
        raise BotFileError(
            "no_entry_point",
            f"{where}: defines no top-level act(observation) function (see docs/bot-api.md)",
        )
    return BotPackage(filename=base, files=files)


def read_bot_path(path: str | Path, limits: UploadLimits | None = None) -> BotPackage:
    """Check a bot file on disk (``.py`` or ``.zip``)."""
    path = Path(path)
    if not path.exists():
        raise BotFileError("not_found", f"{path}: no such file")
    if path.is_dir():
        raise BotFileError("bad_type", f"{path}: is a directory; give the bot's .py or .zip file")
    return read_bot(path.name, path.read_bytes(), limits, label=str(path))


def _check_python(label: str, content: bytes) -> None:
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BotFileError("not_utf8", f"{label}: is not UTF-8 text (byte {exc.start})") from None
    try:
        compile(text, label, "exec", dont_inherit=True)
    except SyntaxError as exc:
        raise BotFileError(
            "syntax_error", f"{label}: syntax error on line {exc.lineno}: {exc.msg}"
        ) from None
    except ValueError as exc:  # e.g. null bytes
        raise BotFileError("syntax_error", f"{label}: {exc}") from None


def _defines(tree: ast.Module, name: str) -> bool:
    """Whether the module may bind ``name`` at top level (def, assignment or import).

    A quick check that gives an upload its clear message before it is queued. It errs on the
    side of the bot: a definition under ``if``/``try``/``with`` or an ``import *`` counts, and
    the import in the sandbox at validation has the final word.
    """
    return _binds(tree.body, name)


_BLOCKS = (ast.If, ast.Try, ast.TryStar, ast.With, ast.For, ast.While)


def _binds(body: list[ast.stmt], name: str) -> bool:
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node.name == name:
                return True
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            # ``act = None`` or ``act = 3`` binds the name to something that cannot be called.
            if isinstance(node.value, ast.Constant | ast.JoinedStr | ast.List | ast.Dict):
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(_names(target, name) for target in targets):
                return True
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                if alias.name == "*" or (alias.asname or alias.name.split(".")[0]) == name:
                    return True
        elif isinstance(node, _BLOCKS):
            blocks = [node.body, getattr(node, "orelse", []), getattr(node, "finalbody", [])]
            blocks += [handler.body for handler in getattr(node, "handlers", [])]
            if any(_binds(block, name) for block in blocks):
                return True
    return False


def _names(target: ast.expr, name: str) -> bool:
    """Whether an assignment target (possibly a tuple) binds ``name``."""
    if isinstance(target, ast.Name):
        return target.id == name
    if isinstance(target, ast.Tuple | ast.List):
        return any(_names(element, name) for element in target.elts)
    if isinstance(target, ast.Starred):
        return _names(target.value, name)
    return False


def _unzip(name: str, data: bytes, limits: UploadLimits) -> dict[str, bytes]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise BotFileError("bad_zip", f"{name}: is not a readable zip file ({exc})") from None
    if len(infos) > limits.max_files:
        raise BotFileError(
            "too_many_files",
            f"{name}: {len(infos)} entries is over the {limits.max_files} limit",
        )
    files: dict[str, bytes] = {}
    budget = limits.max_unpacked_bytes
    for info in infos:
        path = info.filename.replace("\\", "/")
        if path.startswith("__MACOSX/"):
            continue  # resource forks macOS's Archive Utility adds
        parts = PurePosixPath(path).parts
        if path.startswith("/") or (parts and parts[0].endswith(":")) or ".." in parts:
            raise BotFileError("unsafe_path", f"{name}: entry {path!r} points outside the zip")
        mode = info.external_attr >> 16
        if stat.S_ISLNK(mode):
            raise BotFileError("symlink", f"{name}: entry {path!r} is a symbolic link")
        if info.is_dir():
            continue
        if info.file_size > budget:
            raise BotFileError(
                "zip_bomb",
                f"{name}: unpacks to more than {limits.max_unpacked_bytes:,} bytes",
            )
        try:
            with archive.open(info) as handle:
                content = handle.read(budget + 1)  # the header may lie about the size
        except (zipfile.BadZipFile, RuntimeError, NotImplementedError, OSError) as exc:
            raise BotFileError("bad_zip", f"{name}: cannot read {path!r} ({exc})") from None
        if len(content) > budget:
            raise BotFileError(
                "zip_bomb",
                f"{name}: unpacks to more than {limits.max_unpacked_bytes:,} bytes",
            )
        budget -= len(content)
        files[str(PurePosixPath(*parts))] = content
    if ENTRY_FILE not in files:
        nested = sorted(p for p in files if PurePosixPath(p).name == ENTRY_FILE)
        hint = f" (found {nested[0]}; zip the files, not their folder)" if nested else ""
        raise BotFileError("no_bot_py", f"{name}: has no bot.py at its root{hint}")
    return files
