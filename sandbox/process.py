"""Starting, measuring, freezing and reaping one jailed bot process.

Launch order (bubblewrap mode): bwrap is started as the unprivileged bot uid with an empty
environment. A root worker execs it through util-linux's ``setpriv``, which drops to that
uid, rather than having ``subprocess`` change uid in the child: a child that changes uid
must be a full ``fork()`` of the worker, whose page tables cost milliseconds to copy, where
without it ``subprocess`` uses ``vfork()``. bwrap reports the jail's host pid on
``--info-fd`` and then waits on ``--block-fd`` with all mounts done but before exec'ing
anything. While it waits, the host takes a pidfd on that process, so later signals can
never hit a recycled pid. Released, it execs the interpreter while the host moves it into
the bot's cgroup (a slow operation on cgroup v1, overlapped this way with the
interpreter's start). The bootstrap waits for the host's init message before it does
anything, and the host sends it only once the move is done: no code of the bot ever runs
outside its cgroup.

The bot's CPU time is read from the kernel's per-process CPU clock (all threads, in ns),
which the bot cannot influence. Between its turns the bot is stopped with SIGSTOP: every
thread of it stops, so it cannot compute on its opponent's time. Fork is refused by the
seccomp filter, so that one process is the whole bot.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass

from sandbox.cgroups import BotCgroup
from sandbox.errors import SandboxError
from sandbox.output import OutputCapture
from sandbox.protocol import LineReader

__all__ = ["BotProcess", "SpawnRequest", "spawn"]

_INFO_TIMEOUT_S = 10.0


@dataclass(frozen=True, slots=True)
class SpawnRequest:
    """How to start one jail (the command itself comes from ``argv_for`` in :func:`spawn`)."""

    unsafe: bool
    run_as: tuple[int, int] | None  # host (uid, gid) to drop to, when running as root
    seccomp_program: bytes | None
    message_bytes: int
    output_bytes: int
    #: A command that drops to ``run_as`` and execs the rest (``setpriv ... --``); without
    #: it, ``subprocess`` changes uid in a forked child.
    drop_command: tuple[str, ...] = ()


class BotProcess:
    """A running jail. Not thread-safe; one player drives it."""

    def __init__(
        self,
        popen: subprocess.Popen[bytes],
        pid: int,
        to_bot: int,
        from_bot: int,
        output_fd: int,
        request: SpawnRequest,
    ) -> None:
        self.popen = popen
        self.pid = pid
        self.to_bot = to_bot
        self.reader = LineReader(from_bot, request.message_bytes)
        self.output = OutputCapture(output_fd, request.output_bytes)
        self._group = request.unsafe  # unsafe mode: signal the whole process group
        self._clock = ((~pid) << 3) | 2  # CPUCLOCK_SCHED of the whole thread group
        self._last_cpu_s = 0.0
        self.pidfd = os.pidfd_open(pid)
        self.exited = False
        self.returncode: int | None = None
        self.closed = False
        for fd in (to_bot, from_bot, output_fd):
            os.set_blocking(fd, False)
        self.poller = select.poll()
        self.poller.register(from_bot, select.POLLIN)
        self.poller.register(output_fd, select.POLLIN)
        self.poller.register(self.pidfd, select.POLLIN)

    # -- measuring and signalling -------------------------------------------------------

    # The calls below run on every decision: plain try/except, not contextlib.suppress
    # (which builds a context manager each time).

    def cpu_seconds(self) -> float:
        """CPU time of the bot process so far (all threads); the last value once it is gone."""
        try:  # noqa: SIM105 - see above
            self._last_cpu_s = time.clock_gettime(self._clock)
        except OSError:  # gone: keep the last reading
            pass
        return self._last_cpu_s

    def _signal(self, signum: int) -> None:
        try:
            if self._group:
                os.killpg(self.pid, signum)
            else:
                signal.pidfd_send_signal(self.pidfd, signum)
        except OSError:  # gone already
            pass

    def freeze(self) -> None:
        self._signal(signal.SIGSTOP)

    def thaw(self) -> None:
        self._signal(signal.SIGCONT)

    def kill(self) -> None:
        self._signal(signal.SIGKILL)

    # -- events -------------------------------------------------------------------------

    def poll_events(self, timeout_s: float) -> None:
        """Wait up to ``timeout_s`` for a reply, output or the bot's death, and take it in."""
        for fd, _ in self.poller.poll(max(timeout_s, 0.0) * 1000.0):
            if fd == self.output.fd:
                self.output.drain()
                if self.output.eof:
                    self.poller.unregister(fd)
            elif fd == self.reader.fd:
                self.reader.fill()
                if self.reader.eof:
                    self.poller.unregister(fd)
            elif fd == self.pidfd:
                self.exited = True
                self.poller.unregister(fd)

    def spin(self, budget_s: float) -> bool:
        """Busy-read the reply pipe for up to ``budget_s``; True if something came.

        Most replies take well under 100 us; catching them without sleeping saves the
        host's wake-up latency (~50 us on a VM), which is most of a round trip.
        """
        fill, clock = self.reader.fill, time.perf_counter
        end = clock() + budget_s
        while clock() < end:
            if fill():
                return True
        return False

    def collect_exit(self, timeout_s: float = 2.0) -> int | None:
        """After the bot died: bwrap's exit status (128 + signal, or the bot's status)."""
        if self.returncode is None:
            try:
                self.returncode = self.popen.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                return None
        self.exited = True
        while not self.reader.eof and self.reader.fill():  # what it wrote before it died
            pass
        self.output.drain()
        return self.returncode

    def wait_exit(self, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` for the bot to die; True if it has."""
        if not self.exited:
            self.exited = bool(_wait(self.pidfd, select.POLLIN, timeout_s))
        return self.exited

    def write(self, data: bytes, deadline: float) -> bool:
        """Write all of ``data`` to the bot before ``deadline`` (monotonic); False if not.

        The bot is usually frozen while the host writes; a message bigger than the pipe's
        buffer thaws it so that it can read the rest.
        """
        view = memoryview(data)
        thawed = False
        while view:
            try:
                written = os.write(self.to_bot, view)
            except BlockingIOError:
                written = 0
            except OSError:
                return False
            view = view[written:]
            if view:
                if not thawed:
                    self.thaw()
                    thawed = True
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self.exited:
                    return False
                self.output.drain()
                if _wait(self.to_bot, select.POLLOUT, min(remaining, 0.05), also=self.pidfd):
                    self.exited = _wait(self.pidfd, select.POLLIN, 0.0)
        return True

    # -- the end ------------------------------------------------------------------------

    def close(self) -> None:
        """Kill the bot and bwrap, reap them, keep the last output, close every descriptor."""
        if self.closed:
            return
        self.closed = True
        self.kill()
        # Let bwrap reap the bot and exit on its own (killing bwrap first would leave the
        # bot's zombie to the host's init); kill bwrap too only if it does not.
        self.wait_exit(2.0)
        try:
            self.returncode = self.popen.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                self.popen.kill()
            # If it is stuck in the kernel, the cgroup removal retries the kill.
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.returncode = self.popen.wait(timeout=3.0)
        deadline = time.monotonic() + 1.0
        while not self.output.eof and time.monotonic() < deadline:
            self.output.drain()
            if not self.output.eof:
                _wait(self.output.fd, select.POLLIN, 0.05)
        for fd in (self.to_bot, self.reader.fd, self.output.fd, self.pidfd):
            with contextlib.suppress(OSError):
                os.close(fd)


def spawn(
    request: SpawnRequest,
    argv_for: Callable[..., list[str]],
    cgroup: BotCgroup | None,
    marks: dict[str, float] | None = None,
) -> tuple[BotProcess, str | None]:
    """Start the jail; returns the process and, if joining the cgroup failed, why.

    ``argv_for(to_bot, from_bot, seccomp, info, block)`` returns the command (bwrap mode)
    or ``argv_for(to_bot, from_bot)`` (unsafe mode). ``marks`` receives the monotonic time
    of each step (``spawned``, ``pid``, ``released``, ``attached``).
    """
    marks = {} if marks is None else marks
    popen, ends = _start_jail(request, argv_for, marks)
    process = _take_process(popen, ends, request, marks)
    try:
        return process, _release_into_cgroup(process, ends.block_w, cgroup, marks)
    except BaseException:
        process.close()
        raise
    finally:
        _close_quietly(ends.bwrap_fds)


@dataclass(frozen=True, slots=True)
class _HostEnds:
    """The host's ends of a starting jail's pipes, kept together so every failure closes all."""

    to_bot_w: int
    from_bot_r: int
    out_r: int
    info_r: int | None  # bwrap's --info-fd (bwrap mode only)
    block_w: int | None  # bwrap's --block-fd (bwrap mode only)

    @property
    def bwrap_fds(self) -> list[int]:
        """The ends used only while starting: closed once the jail is released."""
        return [fd for fd in (self.info_r, self.block_w) if fd is not None]


def _start_jail(
    request: SpawnRequest, argv_for: Callable[..., list[str]], marks: dict[str, float]
) -> tuple[subprocess.Popen[bytes], _HostEnds]:
    """Open the pipes and start the command; on any failure close every end and re-raise.

    In bwrap mode the seccomp program goes down its own pipe, which bwrap reads to EOF.
    """
    to_bot_r, to_bot_w = os.pipe()
    from_bot_r, from_bot_w = os.pipe()
    out_r, out_w = os.pipe()
    child_fds = [to_bot_r, from_bot_w]
    host_fds: list[int] = []
    info_r = block_w = None
    try:
        if request.unsafe:
            argv = argv_for(to_bot_r, from_bot_w)
        else:
            info_r, info_w = os.pipe()
            block_r, block_w = os.pipe()
            seccomp_r, seccomp_w = os.pipe()
            child_fds += [info_w, block_r, seccomp_r]
            host_fds += [info_r, block_w]
            try:  # ~1 KiB: fits in the pipe, bwrap reads it to EOF
                _write_all(seccomp_w, request.seccomp_program or b"")
            finally:
                os.close(seccomp_w)
            argv = argv_for(to_bot_r, from_bot_w, seccomp_r, info_w, block_r)
        popen = _popen(request, argv, out_w, child_fds)
    except BaseException:
        _close_quietly([*child_fds, *host_fds, to_bot_w, from_bot_r, out_r, out_w])
        raise
    marks["spawned"] = time.monotonic()
    for fd in [*child_fds, out_w]:
        os.close(fd)
    return popen, _HostEnds(to_bot_w, from_bot_r, out_r, info_r, block_w)


def _popen(
    request: SpawnRequest, argv: list[str], out_fd: int, child_fds: list[int]
) -> subprocess.Popen[bytes]:
    """Run ``argv`` with an empty environment in a new session, as the bot's ids if root.

    With a ``drop_command`` the command drops the ids itself (so Popen can vfork);
    otherwise Popen changes them in a forked child.
    """
    # Popen's defaults (None), unless Popen itself drops to the bot's ids (no helper)
    user: int | None = None
    group: int | None = None
    extra_groups: list[int] | None = None
    if request.run_as is not None and request.drop_command:
        argv = [*request.drop_command, *argv]
    elif request.run_as is not None:
        user, group = request.run_as
        extra_groups = []
    return subprocess.Popen(
        argv,
        env={},
        stdin=subprocess.DEVNULL,
        stdout=out_fd,
        stderr=out_fd,
        pass_fds=child_fds,
        close_fds=True,
        start_new_session=True,
        user=user,
        group=group,
        extra_groups=extra_groups,
    )


def _take_process(
    popen: subprocess.Popen[bytes],
    ends: _HostEnds,
    request: SpawnRequest,
    marks: dict[str, float],
) -> BotProcess:
    """Learn the jail's pid and take a pidfd on it; on failure kill it and close every end.

    In bwrap mode the jail is still blocked before exec here, so the pidfd can never
    name a recycled pid.
    """
    try:
        if request.unsafe:
            pid = popen.pid
        else:
            assert ends.info_r is not None
            pid = _read_child_pid(ends.info_r, popen, ends.out_r)
        marks["pid"] = time.monotonic()
        try:
            return BotProcess(popen, pid, ends.to_bot_w, ends.from_bot_r, ends.out_r, request)
        except OSError as exc:  # pidfd_open: the jail is already gone
            raise SandboxError(f"the jail died while starting ({exc})") from None
    except BaseException:
        with contextlib.suppress(OSError):
            popen.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            popen.wait(timeout=5.0)
        _close_quietly([*ends.bwrap_fds, ends.to_bot_w, ends.from_bot_r, ends.out_r])
        raise


def _release_into_cgroup(
    process: BotProcess, block_w: int | None, cgroup: BotCgroup | None, marks: dict[str, float]
) -> str | None:
    """Let bwrap exec the interpreter and move the bot into its cgroup; why the move failed."""
    if block_w is not None:
        os.write(block_w, b"x")  # the pidfd is safe now: let bwrap exec the interpreter
    marks["released"] = time.monotonic()
    cgroup_problem: str | None = None
    if cgroup is not None:
        # A v1 memory-cgroup move waits for an RCU grace period (~10 ms here), so it
        # overlaps the interpreter's start. The bootstrap imports no bot code before the
        # host's init message, which is sent only after this returns.
        try:
            cgroup.attach(process.pid)
        except OSError as exc:
            cgroup_problem = str(exc)
    marks["attached"] = time.monotonic()
    return cgroup_problem


def _close_quietly(fds: list[int]) -> None:
    """Close each descriptor, ignoring those already closed (cleanup after a failure)."""
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)


def _wait(fd: int, events: int, timeout_s: float, also: int | None = None) -> bool:
    """poll() one descriptor (plus ``also`` for POLLIN); select() fails on fds >= 1024."""
    poller = select.poll()
    poller.register(fd, events)
    if also is not None:
        poller.register(also, select.POLLIN)
    return bool(poller.poll(max(timeout_s, 0.0) * 1000.0))


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _read_child_pid(info_fd: int, popen: subprocess.Popen[bytes], out_fd: int) -> int:
    """The jail's host pid from bwrap's ``--info-fd`` JSON; SandboxError if bwrap failed."""
    data = b""
    deadline = time.monotonic() + _INFO_TIMEOUT_S
    while True:
        if not _wait(info_fd, select.POLLIN, deadline - time.monotonic()):
            break
        chunk = os.read(info_fd, 4096)
        if not chunk:
            break
        data += chunk
    try:
        return int(json.loads(data)["child-pid"])
    except (ValueError, KeyError, TypeError):
        pass
    with contextlib.suppress(OSError):
        popen.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        popen.wait(timeout=5.0)
    os.set_blocking(out_fd, False)
    try:
        message = os.read(out_fd, 4096).decode("utf-8", "replace").strip()
    except OSError:
        message = ""
    first = message.splitlines()[0] if message else f"exit status {popen.returncode}"
    raise SandboxError(f"bubblewrap failed to start the jail: {first}")
