"""Turning what happened in the jail into a ``BotFault`` with a platform-written detail.

The public ``detail`` goes into replays, so it is always assembled here from fixed phrases
and numbers the host measured; nothing the bot wrote (its messages, exception text, output)
ever reaches it. The bot's traceback and output tail go into ``private`` for its owner.
"""

from __future__ import annotations

import builtins
import re
import signal
from collections.abc import Mapping
from typing import Any

from engine.players import BotFault, FaultKind
from sandbox.limits import Limits
from sandbox.protocol import EXIT_PROTOCOL_LOST, printable

__all__ = ["exit_fault", "phase_text", "reported_fault"]

#: A hook's name as games declare them (``on_match_start``, ``on_game_end``, a game's own).
_HOOK_NAME = re.compile(r"on_[a-z][a-z0-9_]{0,40}")
#: Names of built-in exception classes: the only exception names a detail may repeat.
_BUILTIN_EXCEPTIONS = frozenset(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
)


def phase_text(phase: str) -> str:
    """'in act()', 'while loading', 'in on_game_end()' ... ("" for anything else).

    The phase is always the host's word for what it asked (never the bot's), and a hook
    name is shown only in the shape games give hooks.
    """
    if phase == "import":
        return "while loading"
    if phase == "act" or _HOOK_NAME.fullmatch(phase):
        return f"in {phase}()"
    return ""


def _mib(count: int) -> str:
    return f"{count / (1024 * 1024):g} MiB"


def _kib(count: int) -> str:
    return f"{count / 1024:g} KiB"


#: The keys a fault report may carry, and the type of each.
_FAULT_KEYS: dict[str, type] = {
    "t": str,
    "kind": str,
    "code": str,
    "phase": str,
    "trace": str,
    "exc_type": str,
}


def reported_fault(
    report: Mapping[str, Any],
    phase: str,
    limits: Limits,
    output_tail: str,
    source_name: str = "bot.py",
) -> BotFault:
    """The fault for a ``{"t": "fault"}`` message the bootstrap (or the bot) sent.

    The message comes from the bot's own process, so it is a claim, checked like any other
    input: a report whose keys, types, kind/code pair or phase are not exactly what the
    bootstrap writes is a :attr:`FaultKind.PROTOCOL` fault, never an exception here. A
    well-formed report can only ever make the bot that sent it lose, so it is believed.
    ``source_name`` is the entry file as its author named it (``my_bot.py``), which the
    messages name, as tracebacks do.
    """
    malformed = BotFault(
        FaultKind.PROTOCOL,
        f"the bot sent a malformed fault report {phase_text(phase)}".strip(),
        private=output_tail,
    )
    if not _is_well_formed(report, phase):
        return malformed
    kind, code = report["kind"], report["code"]
    where = phase_text(report.get("phase", phase))
    messages = _report_messages(where, limits, source_name)
    if (kind, code) in messages:
        fault_kind, detail = messages[(kind, code)]
    elif (kind, code) == ("crash", "exception"):
        name = report.get("exc_type")
        raised = f"raised {name}" if name in _BUILTIN_EXCEPTIONS else "raised an exception"
        fault_kind, detail = FaultKind.CRASH, f"the bot {raised} {where}"
    else:
        return malformed
    trace = report.get("trace", "")
    private = printable(trace) if trace else output_tail
    return BotFault(fault_kind, detail.strip(), private=private)


def _is_well_formed(report: Mapping[str, Any], phase: str) -> bool:
    """Whether a fault report has exactly the bootstrap's keys and types, for this phase.

    A failed import may report ``on_match_start``: the bootstrap runs that hook as part of
    loading.
    """
    if report.get("t") != "fault" or not {"kind", "code"} <= report.keys():
        return False
    for key, value in report.items():
        if key not in _FAULT_KEYS or type(value) is not _FAULT_KEYS[key]:
            return False
    claimed = report.get("phase", phase)
    return claimed == phase or (phase == "import" and claimed == "on_match_start")


def _report_messages(
    where: str, limits: Limits, source_name: str
) -> dict[tuple[str, str], tuple[FaultKind, str]]:
    """The fault and public detail for each (kind, code) the bootstrap reports.

    Every detail is a fixed phrase plus the host's own numbers, never the bot's words.
    """
    return {
        ("crash", "no_act"): (FaultKind.CRASH, f"{source_name} defines no act() function"),
        ("crash", "exit"): (FaultKind.CRASH, f"the bot called exit() {where}"),
        ("memory", "memory_error"): (
            FaultKind.MEMORY,
            f"the bot ran out of memory {where} (limit {_mib(limits.memory_bytes)})",
        ),
        ("forbidden", "permission"): (
            FaultKind.FORBIDDEN,
            f"the bot attempted an operation the sandbox forbids {where}",
        ),
        ("forbidden", "disk_limit"): (
            FaultKind.FORBIDDEN,
            f"the bot exceeded its file size or disk space limit {where}",
        ),
        ("forbidden", "fd_limit"): (
            FaultKind.FORBIDDEN,
            f"the bot exceeded its limit of {limits.max_open_files} open files {where}",
        ),
        ("forbidden", "thread_limit"): (
            FaultKind.FORBIDDEN,
            f"the bot exceeded its limit of {limits.max_processes} threads {where}",
        ),
        ("bad_output", "not_object"): (
            FaultKind.BAD_OUTPUT,
            "act() returned something that is not a JSON object (a dict)",
        ),
        ("bad_output", "not_json"): (
            FaultKind.BAD_OUTPUT,
            "act() returned a value that cannot be encoded as JSON",
        ),
        ("bad_output", "too_big"): (
            FaultKind.BAD_OUTPUT,
            f"act() returned a reply over the {_kib(limits.message_bytes)} message limit",
        ),
    }


def exit_fault(
    returncode: int | None,
    phase: str,
    *,
    oom_killed: bool,
    cpu_used_s: float,
    limits: Limits,
    output_tail: str,
) -> BotFault:
    """The fault for a bot process that ended without reporting why.

    ``returncode`` is bwrap's (the bot's exit status, or 128 + the signal that killed it).
    """
    where = phase_text(phase)
    if oom_killed:
        kind, detail = (
            FaultKind.MEMORY,
            f"the bot was killed for exceeding its memory limit "
            f"({_mib(limits.cgroup_memory_bytes)}) {where}",
        )
    elif returncode is None:
        kind, detail = FaultKind.CRASH, f"the bot process stopped responding {where}"
    elif returncode == EXIT_PROTOCOL_LOST:
        kind, detail = (
            FaultKind.PROTOCOL,
            f"the bot closed or replaced its protocol channel {where}",
        )
    else:
        kind, detail = _status_fault(returncode, where, cpu_used_s, limits)
    return BotFault(kind, detail.strip(), private=output_tail)


def _status_fault(
    returncode: int, where: str, cpu_used_s: float, limits: Limits
) -> tuple[FaultKind, str]:
    """The fault and detail for an exit status: a killing signal's meaning, else a crash.

    A SIGKILL once the match's CPU is spent is the host's own timeout kill, not a crash.
    """
    signum = returncode - 128 if returncode > 128 else -returncode if returncode < 0 else 0
    if signum == signal.SIGXCPU or (signum == signal.SIGKILL and cpu_used_s >= limits.cpu_total_s):
        return (
            FaultKind.TIMEOUT,
            f"the bot used up its {limits.cpu_total_s:g} s of CPU for the match",
        )
    if signum == signal.SIGSYS:
        return FaultKind.FORBIDDEN, f"the bot made a system call the sandbox forbids {where}"
    if signum == signal.SIGXFSZ:
        return FaultKind.FORBIDDEN, f"the bot exceeded its file size limit {where}"
    if signum:
        try:
            name = signal.Signals(signum).name
        except ValueError:
            name = f"signal {signum}"
        return FaultKind.CRASH, f"the bot process died from {name} {where}"
    return FaultKind.CRASH, f"the bot process exited unexpectedly (status {returncode}) {where}"
