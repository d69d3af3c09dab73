"""One cgroup per sandboxed player, for memory and task limits over the whole jail.

rlimits are per process and do not see the bot's private /tmp (a tmpfs, i.e. memory); only
a cgroup bounds everything the jail holds, and its ``oom_kill`` counter tells a memory kill
apart from any other SIGKILL. Both cgroup v2 and the v1 ``memory`` + ``pids`` controllers
are supported (this repository's CI machine runs v1).

Per-bot cgroups live under a parent, by default ``arena-sandbox`` below the worker's own
cgroup in each hierarchy, so the worker's own limits still cover its bots. They are named
``<worker pid>-<n>-<random>``: a worker that died without cleaning up leaves groups whose
pid is gone, and the next worker removes them.

When the host does not let us create or fill cgroups (no permission, no delegation, v2
"no internal processes" rule), :func:`cgroup_support` returns the reason instead and the
sandbox runs with rlimits only (``ARENA_SANDBOX_CGROUP=required`` makes that an error).
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import posixpath
import secrets
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = ["BotCgroup", "CgroupError", "CgroupSupport", "cgroup_support"]

V1_CONTROLLERS = ("memory", "pids")
V2_CONTROLLERS = ("memory", "pids")


class CgroupError(OSError):
    """A cgroup could not be created, configured or joined."""


@dataclass(frozen=True, slots=True)
class CgroupSupport:
    """Where per-bot cgroups go: ``parents`` maps a controller ("" for v2) to a directory."""

    version: int
    parents: tuple[tuple[str, Path], ...]


_support_cache: dict[str, CgroupSupport | str] = {}
_lock = threading.Lock()
_names = itertools.count()
#: Parent directories this process created; removed at exit if empty, so no empty
#: ``arena-sandbox`` directory keeps a worker's own cgroup from being removed later.
_created_parents: list[Path] = []


@atexit.register
def _remove_created_parents() -> None:
    for parent in reversed(_created_parents):
        with contextlib.suppress(OSError):  # another worker still uses it, or it is gone
            parent.rmdir()


def cgroup_support(root: str) -> CgroupSupport | str:
    """The usable cgroup setup for parent path ``root``, or a one-line reason there is none.

    Cached per process; the first call also removes groups left by dead workers.
    """
    with _lock:
        if root not in _support_cache:
            try:
                support = _detect(root)
                for _, parent in support.parents:
                    _sweep_stale(parent)
                _support_cache[root] = support
            except (OSError, ValueError) as exc:
                _support_cache[root] = f"cgroups unavailable ({_describe(exc)})"
        return _support_cache[root]


def _describe(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        where = f": {exc.filename}" if exc.filename else ""
        return f"{exc.strerror}{where}"
    return str(exc)


def _mounts() -> list[tuple[str, str, str, set[str]]]:
    """(mount point, mount root, fstype, super options) of every cgroup file system."""
    found = []
    with open("/proc/self/mountinfo") as handle:
        for line in handle:
            left, _, right = line.partition(" - ")
            fields, tail = left.split(), right.split()
            if len(fields) >= 5 and tail and tail[0] in {"cgroup", "cgroup2"}:
                options = set(tail[2].split(",")) if len(tail) > 2 else set()
                found.append((fields[4], fields[3], tail[0], options))
    return found


def _own_paths() -> dict[str, str]:
    """This process's cgroup path per v1 controller, and under key "" for v2."""
    paths: dict[str, str] = {}
    with open("/proc/self/cgroup") as handle:
        for line in handle:
            parts = line.rstrip("\n").split(":", 2)
            if len(parts) != 3:
                continue
            _, controllers, path = parts
            if not controllers:
                paths[""] = path
            for controller in controllers.split(","):
                paths[controller] = path
    return paths


def _directory(mount: str, mount_root: str, own: str, root: str) -> Path:
    # Inside a container the mount may expose a subtree: strip its root from our path.
    if mount_root != "/" and (own == mount_root or own.startswith(mount_root + "/")):
        own = own[len(mount_root) :] or "/"
    # An absolute root wins; ".." cannot climb above the hierarchy's root.
    path = posixpath.normpath(posixpath.join(own, root))
    return Path(mount.rstrip("/") + path)


def _detect(root: str) -> CgroupSupport:
    mounts, own = _mounts(), _own_paths()
    for mount, mount_root, fstype, _ in mounts:
        if fstype != "cgroup2" or "" not in own:
            continue
        available = (Path(mount) / "cgroup.controllers").read_text().split()
        if all(c in available for c in V2_CONTROLLERS):
            parent = _directory(mount, mount_root, own[""], root)
            _make_parent(parent, v2_mount=Path(mount))
            return CgroupSupport(version=2, parents=(("", parent),))
    parents = []
    for controller in V1_CONTROLLERS:
        match = [m for m in mounts if m[2] == "cgroup" and controller in m[3]]
        if not match or controller not in own:
            raise ValueError(f"no cgroup v2 with memory+pids and no v1 {controller} hierarchy")
        mount, mount_root, _, _ = match[0]
        parent = _directory(mount, mount_root, own[controller], root)
        _make_parent(parent)
        parents.append((controller, parent))
    return CgroupSupport(version=1, parents=tuple(parents))


def _make_parent(parent: Path, v2_mount: Path | None = None) -> None:
    """Create ``parent``; on v2 also enable memory+pids for its children (top-down)."""
    missing_dirs = [p for p in [parent, *parent.parents] if not p.exists()]
    parent.mkdir(parents=True, exist_ok=True)
    _created_parents.extend(reversed(missing_dirs))
    if v2_mount is not None:
        chain = [parent]
        while chain[-1] != v2_mount:
            chain.append(chain[-1].parent)
        for directory in reversed(chain):  # a controller must be enabled in every ancestor
            control = directory / "cgroup.subtree_control"
            enabled = control.read_text().split()
            missing = [c for c in V2_CONTROLLERS if c not in enabled]
            if missing:
                control.write_text(" ".join("+" + c for c in missing))
    _probe_writable(parent)


def _probe_writable(parent: Path) -> None:
    probe = parent / f"probe-{os.getpid()}-{secrets.token_hex(3)}"
    probe.mkdir()
    probe.rmdir()


def _sweep_stale(parent: Path) -> None:
    for child in parent.iterdir():
        owner = child.name.split("-", 1)[0]
        if not child.is_dir() or not owner.isdigit() or pid_alive(int(owner)):
            continue
        try:
            _kill_listed(child)
            child.rmdir()
        except OSError:
            pass  # still busy or not ours to remove: try again next time


def pid_alive(pid: int) -> bool:
    """Whether a process ``pid`` exists: how leftovers of a dead worker are recognised."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _write(path: Path, value: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, value.encode())
    finally:
        os.close(fd)


def _procs(directory: Path) -> list[int]:
    try:
        return [int(p) for p in (directory / "cgroup.procs").read_text().split()]
    except (OSError, ValueError):
        return []


def _kill_listed(directory: Path) -> None:
    for pid in _procs(directory):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


class BotCgroup:
    """The cgroup(s) of one sandboxed player: create, join, read OOM kills, kill, remove."""

    def __init__(self, support: CgroupSupport, *, memory_bytes: int, max_tasks: int) -> None:
        self.version = support.version
        name = f"{os.getpid()}-{next(_names)}-{secrets.token_hex(3)}"
        self.dirs = {controller: parent / name for controller, parent in support.parents}
        self._removed = False
        try:
            for directory in self.dirs.values():
                try:
                    directory.mkdir()
                except FileNotFoundError:  # another worker removed the empty parent at exit
                    with _lock:
                        _make_parent(directory.parent, v2_mount=self._v2_mount(support))
                    directory.mkdir()
            if self.version == 2:
                directory = self.dirs[""]
                _write(directory / "memory.max", str(memory_bytes))
                self._try_write(directory / "memory.swap.max", "0")
                self._try_write(directory / "memory.oom.group", "1")
                _write(directory / "pids.max", str(max_tasks))
            else:
                memory = self.dirs["memory"]
                _write(memory / "memory.limit_in_bytes", str(memory_bytes))
                self._try_write(memory / "memory.memsw.limit_in_bytes", str(memory_bytes))
                _write(self.dirs["pids"] / "pids.max", str(max_tasks))
        except OSError as exc:
            self.remove()
            raise CgroupError(exc.errno, f"cannot set up cgroup: {_describe(exc)}") from None

    @staticmethod
    def _v2_mount(support: CgroupSupport) -> Path | None:
        if support.version != 2:
            return None
        for mount, _, fstype, _ in _mounts():
            if fstype == "cgroup2" and str(support.parents[0][1]).startswith(mount):
                return Path(mount)
        return None

    @staticmethod
    def _try_write(path: Path, value: str) -> None:
        with contextlib.suppress(OSError):  # optional knob (no swap accounting, old kernel)
            _write(path, value)

    def attach(self, pid: int) -> None:
        """Move process ``pid`` (not yet running bot code) into the group."""
        try:
            for directory in self.dirs.values():
                _write(directory / "cgroup.procs", str(pid))
        except OSError as exc:
            raise CgroupError(exc.errno, f"cannot join cgroup: {_describe(exc)}") from None

    def oom_kills(self) -> int:
        """How many processes the kernel killed in this group for lack of memory."""
        if self.version == 2:
            path, key = self.dirs[""] / "memory.events", "oom_kill"
        else:
            path, key = self.dirs["memory"] / "memory.oom_control", "oom_kill"
        try:
            for line in path.read_text().splitlines():
                name, _, value = line.partition(" ")
                if name == key:
                    return int(value)
        except (OSError, ValueError):
            pass
        return 0

    def pids(self) -> set[int]:
        """Host pids of every process still in the group."""
        found: set[int] = set()
        for directory in self.dirs.values():
            found.update(_procs(directory))
        return found

    def kill(self) -> None:
        """SIGKILL everything in the group (``cgroup.kill`` where the kernel has it)."""
        if self._removed:
            return
        if self.version == 2:
            try:
                _write(self.dirs[""] / "cgroup.kill", "1")
                return
            except OSError:
                pass
        for directory in self.dirs.values():
            _kill_listed(directory)

    def remove(self, timeout_s: float = 2.0) -> bool:
        """Kill what is left and remove the group; True when it is gone. Never raises."""
        if self._removed:
            return True
        deadline = time.monotonic() + timeout_s
        pending = list(self.dirs.values())
        while True:
            with contextlib.suppress(OSError):
                self.kill()
            for directory in list(pending):
                try:
                    directory.rmdir()
                except FileNotFoundError:
                    pass
                except OSError:
                    continue  # EBUSY while the last task exits
                pending.remove(directory)
            if not pending:
                self._removed = True
                return True
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)
