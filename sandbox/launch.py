"""Starting one jail, up to the moment it waits for its bot.

:func:`launch` does everything a jail needs before any bot code can run in it: the jail's
own directory (``sandbox.staging``; with the bot's files already in it when they are
known), its cgroup, bubblewrap and the interpreter, and the ``init`` message that makes the
bootstrap install the exec-deny filter, clear the environment and apply the rlimits. The
:class:`Jail` it returns then waits, every layer in place, for ``load``: the player reads
the bootstrap's ``prepared`` (the only platform message, written before any bot code
exists), copies the bot's files in if they are not there yet, and sends ``load``.

A jail comes from :func:`launch` directly when a bot starts (a cold start), or from a
``sandbox.pool.JailPool`` that launched it before its bot was chosen. Either way it is
made for one bot: nothing in it outlives that bot (process, namespaces, ``/tmp``, cgroup
and directory all go with it), and no jail is ever given a second bot.

Which jails are interchangeable is said by :class:`JailSpec`: the sandbox settings and
every limit that is built into the jail itself (its ``/tmp`` size, cgroup, rlimits and
message cap). The time limits are the host's to enforce and differ freely between bots of
the same spec.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sandbox.availability import drop_command, run_as, seccomp_programs
from sandbox.cgroups import BotCgroup, CgroupError, cgroup_support
from sandbox.config import SandboxConfig
from sandbox.errors import SandboxError, SandboxUnavailable
from sandbox.jail import BOT_DIR, JailFds, bootstrap_command, bwrap_command, jail_python_paths
from sandbox.limits import SPAWN_GRACE_S, Limits
from sandbox.process import BotProcess, SpawnRequest, spawn
from sandbox.protocol import ProtocolViolation, decode, encode
from sandbox.runtime import PythonRuntime, discover_runtime
from sandbox.seccomp_filter import SeccompPrograms
from sandbox.staging import StagedBot, jail_dir, stage_bot

__all__ = ["JAIL_LIMITS", "Jail", "JailSpec", "launch", "platform_failure"]

log = logging.getLogger("sandbox")

#: The limits a jail is built with (the others are enforced by the host, per decision).
JAIL_LIMITS = (
    "tmp_bytes",
    "cgroup_memory_bytes",
    "max_processes",
    "memory_bytes",
    "cpu_total_s",
    "max_open_files",
    "max_file_bytes",
    "message_bytes",
    "output_bytes",
)
_warned: set[str] = set()


def _warn_once(message: str) -> None:
    if message not in _warned:
        _warned.add(message)
        log.warning("%s", message)


@dataclass(frozen=True, slots=True)
class JailSpec:
    """What a jail is made of besides its bot: jails of equal specs are interchangeable."""

    config: SandboxConfig
    limits: tuple[tuple[str, float], ...]

    @classmethod
    def of(cls, config: SandboxConfig, limits: Limits) -> JailSpec:
        return cls(config, tuple((name, getattr(limits, name)) for name in JAIL_LIMITS))


@dataclass(eq=False)
class Jail:
    """One started jail waiting for its bot (see the module docstring)."""

    spec: JailSpec
    process: BotProcess
    cgroup: BotCgroup | None
    staged: StagedBot
    #: The gid the staged files belong to (a root worker), or None (this process's uid).
    group: int | None
    #: Whether the bot's files are in ``staged.bot_dir`` already (a cold start).
    has_files: bool
    #: Monotonic time by which the bootstrap must have said ``prepared``.
    prepared_deadline: float
    #: Monotonic timestamps of each step of the launch (``sandbox.player`` adds its own).
    marks: dict[str, float] = field(default_factory=dict)
    #: Whether the bootstrap's ``prepared`` has been read (and checked).
    prepared: bool = False

    @property
    def bot_dir(self) -> str:
        """Where the bot's files are, as the bootstrap sees them."""
        return str(self.staged.bot_dir) if self.spec.config.unsafe else BOT_DIR

    def poll_prepared(self) -> str | None:
        """Read the bootstrap's start message if it has come, without waiting.

        None while it has not (the jail lives and has time left); "" once the jail is
        prepared; otherwise why the jail failed (a platform failure: no bot code has run in
        it). The only platform message there is, read before any bot exists in the jail.
        """
        if self.prepared:
            return ""
        process = self.process
        try:
            process.reader.fill()
            line = process.reader.pop()
        except ProtocolViolation:
            return "garbled start message"
        if line is None:
            if process.reader.eof or process.wait_exit(0.0):
                return "the jail exited before the bot was loaded"
            if time.monotonic() > self.prepared_deadline:
                return "the interpreter did not start in time"
            return None
        try:
            message = decode(line)
        except ProtocolViolation:
            return "garbled start message"
        if message.get("t") == "error":
            return f"the bootstrap failed: {str(message.get('reason'))[:300]}"
        if message.get("t") != "prepared":
            return f"unexpected first message {message.get('t')!r}"
        if process.reader.pending:
            return "the bootstrap wrote more than its start message"
        clock = message.get("clock")
        if isinstance(clock, list) and len(clock) == 2 and all(type(t) is float for t in clock):
            self.marks["interpreter"], self.marks["init_received"] = clock
        self.marks["prepared"] = time.monotonic()
        self.prepared = True
        return ""

    def await_prepared(self, name: str | None = None) -> None:
        """Wait for :meth:`poll_prepared` until the jail's deadline; SandboxError if it
        fails (with the player's ``name``)."""
        while True:
            problem = self.poll_prepared()
            if problem == "":
                return
            if problem is not None:
                if problem.startswith("the jail exited"):
                    status = self.process.collect_exit()
                    problem += f" (status {status})"
                platform_failure(self.process, problem, name)
            remaining = self.prepared_deadline - time.monotonic()
            self.process.poll_events(min(max(remaining, 0.0), 0.5))

    def alive(self) -> bool:
        """Whether the jail's process still runs (a spare may be killed while it waits)."""
        return not self.process.closed and not self.process.wait_exit(0.0)

    def close(self) -> None:
        """Kill and reap the process, remove the cgroup and the directory. Never raises."""
        try:
            self.process.close()
        finally:
            if self.cgroup is not None and not self.cgroup.remove():
                log.warning("sandbox: could not remove cgroup %s", list(self.cgroup.dirs.values()))
            self.staged.remove()


def launch(
    config: SandboxConfig, limits: Limits, *, bot_path: str | os.PathLike[str] | None = None
) -> Jail:
    """Start a jail of ``JailSpec.of(config, limits)``; with ``bot_path``, its files are
    copied in first (a cold start: BotFault if they are missing or too large).

    Raises SandboxError or SandboxUnavailable when the platform cannot start it.
    """
    marks = {"begin": time.monotonic()}
    ids = None if config.unsafe else run_as(config)
    group = ids[1] if ids else None
    if bot_path is not None:
        staged = stage_bot(bot_path, config.work_dir, group)
    else:
        staged = jail_dir(config.work_dir, group)
    marks["staged"] = time.monotonic()
    cgroup: BotCgroup | None = None
    process: BotProcess | None = None
    try:
        cgroup = _make_cgroup(config, limits)
        marks["cgroup"] = time.monotonic()
        runtime = None if config.unsafe else discover_runtime(config.python)
        programs = None if config.unsafe else seccomp_programs(config)
        packages = config.packages_installed  # read once: the bind and sys.path agree
        argv_for = _command_for(config, limits, runtime, str(staged.bot_dir), packages)
        request = SpawnRequest(
            unsafe=config.unsafe,
            run_as=ids,
            seccomp_program=programs.jail if programs else None,
            message_bytes=limits.message_bytes,
            output_bytes=limits.output_bytes,
            drop_command=() if config.unsafe else drop_command(config),
        )
        process, cgroup_problem = spawn(request, argv_for, cgroup, marks)
        if cgroup_problem is not None:
            _drop_cgroup(config, cgroup, cgroup_problem)
            cgroup = None
        init = _init_message(config, limits, programs, packages, jailed=runtime is not None)
        prepared_deadline = time.monotonic() + limits.startup_wall_s + SPAWN_GRACE_S
        if not process.write(encode(init), prepared_deadline):
            platform_failure(process, "the jail did not accept its start message")
        marks["init_sent"] = time.monotonic()
    except BaseException:
        if process is not None:
            process.close()
        if cgroup is not None:
            cgroup.remove()
        staged.remove()
        raise
    return Jail(
        spec=JailSpec.of(config, limits),
        process=process,
        cgroup=cgroup,
        staged=staged,
        group=group,
        has_files=bot_path is not None,
        prepared_deadline=prepared_deadline,
        marks=marks,
    )


def _command_for(
    config: SandboxConfig,
    limits: Limits,
    runtime: PythonRuntime | None,
    bot_dir: str,
    packages: bool,
) -> Callable[..., list[str]]:
    """The ``argv_for`` :func:`spawn` calls once it has the pipes: bwrap's command, or
    the bare bootstrap's without a runtime (unsafe mode)."""

    def argv_for(to_bot: int, from_bot: int, *bwrap_fds: int) -> list[str]:
        if runtime is None:
            return bootstrap_command(os.path.realpath(config.python), to_bot, from_bot)
        seccomp, info_fd, block = bwrap_fds
        fds = JailFds(to_bot, from_bot, seccomp, info_fd, block)
        return bwrap_command(config, runtime, limits, fds, bot_dir=bot_dir, packages=packages)

    return argv_for


def _init_message(
    config: SandboxConfig,
    limits: Limits,
    programs: SeccompPrograms | None,
    packages: bool,
    *,
    jailed: bool,
) -> dict[str, Any]:
    """The bootstrap's first message: the exec filter, rlimits and paths it applies itself
    before it reads anything of the bot's."""
    return {
        "op": "init",
        "exec_filter": programs.exec_deny.hex() if programs else None,
        "rlimits": jail_rlimits(limits, unsafe=config.unsafe),
        "extra_paths": jail_python_paths(config, packages=packages, jailed=jailed),
        "message_bytes": limits.message_bytes,
    }


def platform_failure(process: BotProcess | None, what: str, name: str | None = None) -> Any:
    """Raise SandboxError: the jail failed before any bot code ran (with its last word)."""
    said = ""
    if process is not None:
        process.collect_exit(0.5)
        lines = process.output.tail().strip().splitlines()
        said = f" ({lines[-1][:300]})" if lines else ""
    who = f"sandbox for {name!r}: " if name is not None else "sandbox: "
    raise SandboxError(f"{who}{what}{said}")


def jail_rlimits(limits: Limits, *, unsafe: bool) -> dict[str, tuple[int, int]]:
    """The rlimits the bootstrap applies before the bot is loaded."""
    cpu = max(1, int(limits.cpu_total_s + 0.999))
    rlimits = {
        "AS": (limits.memory_bytes, limits.memory_bytes),
        "CPU": (cpu, cpu + 1),  # SIGXCPU first, SIGKILL a second later
        "NOFILE": (limits.max_open_files, limits.max_open_files),
        "FSIZE": (limits.max_file_bytes, limits.max_file_bytes),
        "CORE": (0, 0),
        "MSGQUEUE": (0, 0),
    }
    if not unsafe:
        # Counted per user namespace, i.e. per bot; in unsafe mode it would count every
        # process of the developer's uid.
        rlimits["NPROC"] = (limits.max_processes, limits.max_processes)
    return rlimits


def _make_cgroup(config: SandboxConfig, limits: Limits) -> BotCgroup | None:
    if config.unsafe or config.cgroup == "off":
        return None
    support = cgroup_support(config.cgroup_root)
    if isinstance(support, str):
        if config.cgroup == "required":
            raise SandboxUnavailable(f"{support} and ARENA_SANDBOX_CGROUP=required")
        _warn_once(f"sandbox: {support}; running bots with rlimits only")
        return None
    try:
        return BotCgroup(
            support, memory_bytes=limits.cgroup_memory_bytes, max_tasks=limits.max_processes
        )
    except CgroupError as exc:
        if config.cgroup == "required":
            raise SandboxUnavailable(f"{exc} and ARENA_SANDBOX_CGROUP=required") from None
        _warn_once(f"sandbox: {exc}; running bots with rlimits only")
        return None


def _drop_cgroup(config: SandboxConfig, cgroup: BotCgroup | None, problem: str) -> None:
    if config.cgroup == "required":
        raise SandboxUnavailable(f"{problem} and ARENA_SANDBOX_CGROUP=required")
    _warn_once(f"sandbox: {problem}; running bots with rlimits only")
    if cgroup is not None:
        with contextlib.suppress(OSError):
            cgroup.remove()
