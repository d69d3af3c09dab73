"""What one sandboxed bot may use during one match.

Every field carries its unit in its name. The defaults are the arena's production limits;
tests and benchmarks pass smaller ones. Time limits are measured in the bot's *CPU* time
(all its threads), so a loaded worker does not make a bot lose; wall time is only an outer
guard against a bot that sleeps or blocks instead of computing.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

__all__ = ["Limits"]

KiB = 1024
MiB = 1024 * KiB


@dataclass(frozen=True, slots=True)
class Limits:
    """Resource limits for one sandboxed player (one bot in one match)."""

    #: CPU seconds one decision (an ``act`` or a hook call) may take without touching the bank.
    move_timeout_s: float = 1.0
    #: CPU seconds for the whole match from which a decision's overrun is drawn; a decision
    #: that overruns with the bank spent is a timeout.
    time_bank_s: float = 10.0
    #: CPU seconds for interpreter start, ``import bot`` and ``on_match_start`` together.
    startup_timeout_s: float = 5.0
    #: Wall-clock guard: a call may take ``factor * its CPU allowance + extra`` seconds of
    #: real time before it is a timeout even if it used no CPU (sleeping, blocked). Generous
    #: on purpose: on a loaded machine a busy bot gets a fraction of a core, and it must run
    #: out of CPU time, not of wall time, before it loses.
    wall_guard_factor: float = 3.0
    wall_guard_extra_s: float = 5.0
    #: Hard CPU ceiling for the bot process over the whole match (``RLIMIT_CPU``): a backstop
    #: that holds even if the host stopped watching.
    cpu_total_s: float = 300.0
    #: Address space of the bot process (``RLIMIT_AS``); over it Python raises MemoryError.
    memory_bytes: int = 512 * MiB
    #: Memory of the bot's whole cgroup (resident memory plus its /tmp), where cgroups work.
    cgroup_memory_bytes: int = 640 * MiB
    #: Tasks (threads included) of the bot: ``RLIMIT_NPROC`` in its user namespace and the
    #: cgroup's ``pids.max``. New processes are refused outright by the seccomp filter.
    max_processes: int = 32
    #: Open file descriptors (``RLIMIT_NOFILE``).
    max_open_files: int = 64
    #: Largest file the bot may write (``RLIMIT_FSIZE``).
    max_file_bytes: int = 16 * MiB
    #: Size of the bot's private, memory-backed /tmp.
    tmp_bytes: int = 32 * MiB
    #: Largest protocol message (one JSON line) the bot may send.
    message_bytes: int = 64 * KiB
    #: Bot's own stdout+stderr kept per match; the rest is counted and dropped.
    output_bytes: int = 64 * KiB

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise TypeError(f"Limits.{field.name} must be a number, not {value!r}")
            if value < 0 or (value == 0 and field.name not in {"time_bank_s"}):
                raise ValueError(f"Limits.{field.name} must be positive, not {value!r}")
        if self.message_bytes < 1024:
            raise ValueError("Limits.message_bytes must be at least 1024")
