"""A private, read-only copy of one bot's files for one run.

Why copy instead of mounting the upload in place: the jail must see this bot's files and
nothing next to them; the bot's unprivileged uid must be able to read them whatever the
upload's owner and mode; and the copy is a snapshot nobody can change during the match.

Every jail gets its own directory, made with the jail (:func:`jail_dir`) and shown to it
read-only at ``/bot``. A jail started before its bot is chosen (``sandbox.pool``) gets it
empty; the bot's files are copied in once, when the bot is chosen and before the jail is
told to load it (:func:`stage_into`): a directory that is not empty is refused, so no jail
ever holds a second bot's files. The copy is per jail, never a hard link to a shared
file: a shared inode would tell a bot, through its link count, how many other jails of
its version run on the worker.

Only regular files and directories are copied. Symbolic links (a hostile archive could
point one at the project's settings or another bot), devices and sockets are skipped, and
every file is opened without following links. A single ``.py`` file becomes ``bot.py``.

Copies are named ``arena-sandbox-<worker pid>-<random>``; a worker killed in mid-match
cannot remove its own, so the first copy a worker makes also removes those of dead workers.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from engine.players import BotFault, FaultKind
from sandbox.cgroups import pid_alive

__all__ = ["MAX_BOT_BYTES", "MAX_BOT_FILES", "StagedBot", "jail_dir", "stage_bot", "stage_into"]

ENTRY_FILE = "bot.py"
#: Caps on what is copied (the upload checks allow far less; this guards the host's disk).
MAX_BOT_FILES = 2000
MAX_BOT_BYTES = 64 * 1024 * 1024
_PREFIX = "arena-sandbox-"
_swept: set[str] = set()
_sweep_lock = threading.Lock()


@dataclass(frozen=True, slots=True)
class StagedBot:
    """The per-run directory (``root``) and the bot's files in it (``bot_dir``)."""

    root: Path
    bot_dir: Path

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def stage_bot(bot_path: str | os.PathLike[str], work_dir: str, group: int | None) -> StagedBot:
    """Copy the bot into a new directory under ``work_dir`` (:func:`jail_dir` and
    :func:`stage_into` in one). Raises BotFault when the bot has no ``bot.py`` or is too
    large."""
    staged = jail_dir(work_dir, group)
    try:
        stage_into(staged, bot_path, group)
    except BaseException:
        staged.remove()
        raise
    return staged


def jail_dir(work_dir: str, group: int | None) -> StagedBot:
    """A new, empty directory for one jail's ``/bot`` under ``work_dir``.

    With ``group`` (the worker runs as root), it is ``root:group`` and group-readable so
    only root and the bot's gid can read it; otherwise it belongs to this process's uid.
    """
    parent = work_dir or tempfile.gettempdir()
    _sweep_stale(parent)
    root = Path(tempfile.mkdtemp(prefix=f"{_PREFIX}{os.getpid()}-", dir=parent))
    staged = StagedBot(root=root, bot_dir=root / "bot")
    try:
        staged.bot_dir.mkdir()
        _set_permissions(staged, group)
    except BaseException:
        staged.remove()
        raise
    return staged


def stage_into(staged: StagedBot, bot_path: str | os.PathLike[str], group: int | None) -> None:
    """Copy the bot's files into the (empty) ``staged.bot_dir``, with the permissions of
    :func:`jail_dir`. Raises BotFault when the bot has no ``bot.py`` or is too large, and
    RuntimeError when the directory already holds files (a jail serves one bot once)."""
    if any(staged.bot_dir.iterdir()):
        raise RuntimeError(f"{staged.bot_dir} already holds a bot's files")
    source = Path(bot_path)
    try:
        info = source.lstat()
    except OSError:
        raise BotFault(FaultKind.CRASH, "the bot's files are missing") from None
    if stat.S_ISREG(info.st_mode):
        _copy_file(source, staged.bot_dir / ENTRY_FILE)
    elif stat.S_ISDIR(info.st_mode):
        entry = source / ENTRY_FILE
        if not entry.is_file() or entry.is_symlink():
            raise BotFault(FaultKind.CRASH, "the bot has no bot.py at its root")
        _copy_tree(source, staged.bot_dir)
    else:
        raise BotFault(FaultKind.CRASH, "the bot is neither a .py file nor a directory")
    _set_permissions(staged, group)


def _sweep_stale(parent: str) -> None:
    """Remove copies left in ``parent`` by workers that no longer run (once per process)."""
    with _sweep_lock:
        if parent in _swept:
            return
        _swept.add(parent)
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return
    for entry in entries:
        owner = entry.name[len(_PREFIX) :].split("-", 1)[0]
        if entry.name.startswith(_PREFIX) and owner.isdigit() and not pid_alive(int(owner)):
            shutil.rmtree(entry.path, ignore_errors=True)


def _copy_file(source: Path, target: Path) -> int:
    fd = os.open(source, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        with os.fdopen(fd, "rb", closefd=False) as reader, open(target, "xb") as writer:
            copied = 0
            while chunk := reader.read(1024 * 1024):
                copied += len(chunk)
                if copied > MAX_BOT_BYTES:
                    raise _too_large()
                writer.write(chunk)
            return copied
    finally:
        os.close(fd)


def _too_large() -> BotFault:
    return BotFault(
        FaultKind.CRASH,
        f"the bot's files exceed {MAX_BOT_BYTES // (1024 * 1024)} MiB or {MAX_BOT_FILES} files",
    )


def _copy_tree(source: Path, target: Path) -> None:
    files, total = 0, 0
    pending = [(source, target)]
    while pending:
        src_dir, dst_dir = pending.pop()
        with os.scandir(src_dir) as entries:
            for entry in entries:
                if entry.is_symlink():
                    continue
                if entry.is_dir(follow_symlinks=False):
                    (dst_dir / entry.name).mkdir()
                    pending.append((Path(entry.path), dst_dir / entry.name))
                elif entry.is_file(follow_symlinks=False):
                    files += 1
                    if files > MAX_BOT_FILES:
                        raise _too_large()
                    total += _copy_file(Path(entry.path), dst_dir / entry.name)
                    if total > MAX_BOT_BYTES:
                        raise _too_large()


def _set_permissions(staged: StagedBot, group: int | None) -> None:
    dir_mode, file_mode = (0o750, 0o640) if group is not None else (0o700, 0o600)
    for directory, _, names in os.walk(staged.root):
        if group is not None:
            os.chown(directory, 0, group)
        os.chmod(directory, dir_mode)
        for name in names:
            path = os.path.join(directory, name)
            if group is not None:
                os.chown(path, 0, group)
            os.chmod(path, file_mode)
