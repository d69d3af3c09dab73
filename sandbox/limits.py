"""What one sandboxed bot may use during one match.

Every field carries its unit in its name. The defaults are the arena's production limits;
tests and benchmarks pass smaller ones.

Time has two clocks, each with a per-decision allowance and a per-match bank (like
Kaggle's per-move time plus overage bank): the bot's *CPU* time (all its threads), so a
loaded worker does not make a computing bot lose, and *wall-clock* time, so a bot that
sleeps or blocks instead of computing loses on time too. On top, ``match_wall_s`` caps the
wall-clock time of all of a seat's decisions in one match: with it, the longest a match can
last is known from the limits alone (:meth:`Limits.seat_wall_bound_s`), whatever the game,
and the worker's time limit is set above it, so a slow bot always loses on time before the
worker gives up on the match.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

__all__ = ["Limits"]

KiB = 1024
MiB = 1024 * KiB
#: Wall time allowed for bwrap + interpreter + bootstrap to get ready to load the bot.
SPAWN_GRACE_S = 5.0
#: Wall time ``close()`` may spend killing and reaping a jail, and slack for polling.
CLOSE_GRACE_S = 10.0


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
    #: Wall-clock seconds one decision may take without touching the wall-clock bank. Three
    #: times the CPU limit: on a loaded machine a busy bot gets a fraction of a core.
    move_wall_s: float = 3.0
    #: Wall-clock seconds per match from which a decision's wall-clock overrun is drawn; a
    #: decision that overruns with this bank spent is a timeout ("wall clock").
    wall_bank_s: float = 30.0
    #: Wall-clock seconds all of one seat's decisions may take in one match (start-up not
    #: included); over it is a timeout. Bounds the match whatever the number of moves.
    match_wall_s: float = 240.0
    #: Wall-clock guard of the start-up only (interpreter, import, ``on_match_start``):
    #: ``factor * startup_timeout_s + extra`` seconds.
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
        for name in _FIELD_NAMES:  # every player makes one: no dataclasses.fields() call
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise TypeError(f"Limits.{name} must be a number, not {value!r}")
            if value < 0 or (value == 0 and name not in {"time_bank_s", "wall_bank_s"}):
                raise ValueError(f"Limits.{name} must be positive, not {value!r}")
        if self.message_bytes < 1024:
            raise ValueError("Limits.message_bytes must be at least 1024")

    def time_limits(self) -> dict[str, float]:
        """The time limits bots are told (``info["limits"]``) and replays record."""
        return {
            "move_timeout_s": self.move_timeout_s,
            "time_bank_s": self.time_bank_s,
            "move_wall_s": self.move_wall_s,
            "wall_bank_s": self.wall_bank_s,
            "match_wall_s": self.match_wall_s,
        }

    @property
    def startup_wall_s(self) -> float:
        """Wall-clock seconds start-up (interpreter, import, on_match_start) may take."""
        return self.startup_timeout_s * self.wall_guard_factor + self.wall_guard_extra_s

    def seat_wall_bound_s(self) -> float:
        """The most wall-clock time one sandboxed seat can hold a match, in seconds.

        Start-up (plus the jail's own start grace), every decision of the match
        (``match_wall_s``, which no seat can exceed by more than one polling slice), and
        closing the jail. A match of N sandboxed seats ends, with a result, within N times
        this plus the engine's own (millisecond) work: the worker's time limit must be
        above that, or a slow bot would void matches instead of losing them.
        """
        return self.startup_wall_s + SPAWN_GRACE_S + self.match_wall_s + CLOSE_GRACE_S


_FIELD_NAMES = tuple(field.name for field in fields(Limits))
