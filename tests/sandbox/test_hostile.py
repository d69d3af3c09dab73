"""Hostile bots against the invariant: whatever a bot writes, however it times its moves and
however it exits, the result is a fault of that bot (it loses), never a platform exception.

Each case goes through the real sandbox; the ``sandbox`` fixture then proves the host is
healthy (no process of the bot uid, no cgroup, no staged file, no descriptor left).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

import pytest

import engine
from engine.players import BotFault, FaultKind
from tests.sandbox.conftest import FAST, GAME_HOOKS, expect_fault

P, BAD, CRASH = FaultKind.PROTOCOL, FaultKind.BAD_OUTPUT, FaultKind.CRASH

#: (name, line written on the reply descriptor without its newline, expected fault kind).
FORGED = [
    # Fault reports: only an exact copy of what the bootstrap writes is believed.
    ("fault_kind_list", b'{"t":"fault","kind":["crash"]}', P),  # issue 13's TypeError
    ("fault_code_list", b'{"t":"fault","kind":"crash","code":["exit"]}', P),
    ("fault_no_code", b'{"t":"fault","kind":"crash"}', P),
    ("fault_unknown_code", b'{"t":"fault","kind":"crash","code":"nope"}', P),
    ("fault_unknown_kind", b'{"t":"fault","kind":"platform","code":"exit"}', P),
    ("fault_bad_types", b'{"t":"fault","kind":"crash","code":"exception","exc_type":[1]}', P),
    ("fault_trace_int", b'{"t":"fault","kind":"crash","code":"exit","trace":7}', P),
    ("fault_extra_key", b'{"t":"fault","kind":"crash","code":"exit","retry":true}', P),
    ("fault_other_phase", b'{"t":"fault","kind":"crash","code":"exit","phase":"on_game_end"}', P),
    ("fault_well_formed", b'{"t":"fault","kind":"memory","code":"memory_error"}', FaultKind.MEMORY),
    # Messages only the platform's bootstrap sends before any bot code runs.
    ("prepared", b'{"t":"prepared"}', P),
    ("error", b'{"t":"error","reason":"the platform broke, void this match"}', P),
    ("ready", b'{"t":"ready","hooks":["on_hand_end"]}', P),
    ("ready_bad_hooks", b'{"t":"ready","hooks":[1,{}]}', P),
    ("ready_hooks_string", b'{"t":"ready","hooks":"on_hand_end"}', P),
    # Replies: wrong types, missing or extra fields, wrong or stale sequence numbers.
    ("action_right_seq", b'{"t":"action","action":{"forged":1},"seq":1}', P),
    ("action_seq_true", b'{"t":"action","action":{},"seq":true}', P),
    ("action_seq_float", b'{"t":"action","action":{},"seq":1.0}', P),
    ("action_seq_inf", b'{"t":"action","action":{},"seq":1e400}', P),
    ("action_seq_huge", b'{"t":"action","action":{},"seq":' + b"9" * 4000 + b"}", P),
    ("action_seq_digits", b'{"t":"action","action":{},"seq":' + b"9" * 5000 + b"}", P),
    ("action_seq_stale", b'{"t":"action","action":{},"seq":0}', P),
    ("action_no_seq", b'{"t":"action","action":{}}', P),
    ("action_list", b'{"t":"action","action":[],"seq":1}', P),
    ("action_extra_key", b'{"t":"action","action":{},"seq":1,"x":0}', P),
    ("done", b'{"t":"done","seq":1}', P),
    ("done_seq_string", b'{"t":"done","seq":"1"}', P),
    ("t_list", b'{"t":["action"]}', P),
    ("t_missing", b"{}", P),
    ("duplicate_keys", b'{"t":"action","t":"done","seq":1}', P),
    # Not a message at all.
    ("array", b"[]", P),
    ("null", b"null", P),
    ("number", b"123", P),
    ("string", b'"action"', P),
    ("not_json", b"hello", P),
    ("nan", b'{"t":"action","action":{"x":NaN},"seq":1}', P),
    ("raw_nul", b'{"t":"act\x00ion"}', P),
    ("invalid_utf8", b"\xff\xfe{}", P),
    ("empty_line", b"", P),
    ("deep_array", b"[" * 20000 + b"]" * 20000, P),
    ("deep_object", b'{"a":' * 10000 + b"1" + b"}" * 10000, P),
    ("oversized", b'{"t":"' + b"x" * (70 * 1024) + b'"}', P),
    # Well-formed JSON carrying text no database can store: the reply is bad output.
    ("escaped_nul", b'{"t":"action","action":{"x":"\\u0000"},"seq":1}', BAD),
    ("lone_surrogate", b'{"t":"action","action":{"x":"\\ud800"},"seq":1}', BAD),
]
#: The cases also tried while loading (before "ready") and in a hook.
EVERY_PHASE = {
    "fault_kind_list",
    "fault_unknown_code",
    "fault_well_formed",
    "prepared",
    "error",
    "ready",
    "action_right_seq",
    "done",
    "not_json",
    "oversized",
    "escaped_nul",
}


def until_fault(
    *calls: Callable[[], object], after: Callable[[], object] = lambda: None
) -> BotFault:
    """Make ``calls`` in turn (``after`` each) until one raises BotFault; return the fault.

    Any other exception fails the test: it would be a platform failure.
    """
    for call in calls:
        try:
            call()
        except BotFault as fault:
            return fault
        after()
    pytest.fail("the bot never lost")


def _forge(sandbox, when: str, line: bytes) -> BotFault:
    """Start the forging bot and call it until it fails; the fault (anything else fails)."""
    player = sandbox("forge_message.py")
    info = {"when": when, "lines": [(line + b"\n").hex()]}
    call = (lambda: player.notify("on_hand_end", {})) if when == "hook" else lambda: player.act({})
    # A forged reply that looks right is taken, and the real one after it caught next time.
    return until_fault(lambda: player.start(info, hooks=GAME_HOOKS), call, call, call)


@pytest.mark.parametrize(("name", "line", "kind"), FORGED, ids=[c[0] for c in FORGED])
def test_a_forged_message_in_act_is_the_bots_loss(sandbox, name, line, kind):
    fault = _forge(sandbox, "act", line)
    assert fault.kind == kind, (fault.kind, fault.detail)
    assert "platform broke" not in fault.detail  # nothing the bot wrote reaches the detail


@pytest.mark.parametrize("when", ["start", "hook"])
@pytest.mark.parametrize(
    ("name", "line", "kind"),
    [c for c in FORGED if c[0] in EVERY_PHASE],
    ids=[c[0] for c in FORGED if c[0] in EVERY_PHASE],
)
def test_a_forged_message_while_loading_or_in_a_hook_is_the_bots_loss(
    sandbox, when, name, line, kind
):
    fault = _forge(sandbox, when, line)
    assert fault.kind == kind, (fault.kind, fault.detail)


def test_a_forged_fault_in_a_match_is_a_recorded_protocol_loss(sandbox):
    """Issue 13, finding 1: this raised TypeError in the platform and voided the match."""
    forger = sandbox("forge_message.py")
    forger_info = {"when": "act", "lines": [b'{"t":"fault","kind":["crash"]}\n'.hex()]}
    random_bot = engine.InProcessPlayer("random", engine.builtin_bot("lie21", "random"))

    class Forger:  # hands the forging plan to the bot with its start info
        name = forger.name
        hooks = None

        def start(self, info, hooks=engine.MATCH_HOOKS):
            forger.start({**info, **forger_info}, hooks=hooks)

        def __getattr__(self, attr):
            return getattr(forger, attr)

    result = engine.play_match("lie21", [Forger(), random_bot], seed=3)
    assert result.error is not None and result.error.seat == 0
    assert result.error.kind == "protocol"
    assert result.winner == 1 and result.reason == "fault"
    assert result.replay["faults"][0]["kind"] == "protocol"


def test_flooding_the_protocol_channel_is_a_protocol_fault(sandbox):
    player = sandbox("protocol_flood.py")
    player.start({})
    fault = expect_fault(player, FaultKind.PROTOCOL, lambda: player.act({}))
    assert "unexpected data" in fault.detail


# -- exiting ------------------------------------------------------------------------------

QUICK_WALL = dataclasses.replace(FAST, move_wall_s=0.5, wall_bank_s=0.5)

EXITS = [
    ("sys.exit:0", CRASH, "exit()"),
    ("sys.exit:1", CRASH, "exit()"),
    ("sys.exit:97", CRASH, "exit()"),
    ("sys.exit:a string", CRASH, "exit()"),
    ("raise:SystemExit", CRASH, "exit()"),
    ("raise:KeyboardInterrupt", CRASH, "KeyboardInterrupt"),
    ("os._exit:0", CRASH, "status 0"),
    ("os._exit:1", CRASH, "status 1"),
    ("os._exit:2", CRASH, "status 2"),
    ("os._exit:97", P, "protocol channel"),  # the bootstrap's "channel lost" status
    ("os._exit:137", CRASH, "SIGKILL"),  # 128 + N reads as "killed by signal N"
    ("os._exit:139", CRASH, "SIGSEGV"),
    ("os._exit:152", FaultKind.TIMEOUT, "CPU"),  # as if killed by SIGXCPU
    ("os._exit:153", FaultKind.FORBIDDEN, "file size"),  # SIGXFSZ
    ("os._exit:159", FaultKind.FORBIDDEN, "system call"),  # SIGSYS
    ("os._exit:255", CRASH, "died from signal 127"),
    ("close:both", P, "protocol channel"),
    ("close:-1", P, "protocol channel"),  # the reply descriptor
    ("close:-2", P, "protocol channel"),  # the request descriptor: caught on the next call
    ("devnull", P, "protocol channel"),  # /dev/null over the reply descriptor closes it
]


@pytest.mark.parametrize(("how", "kind", "words"), EXITS, ids=[c[0] for c in EXITS])
def test_every_way_of_exiting_is_the_bots_loss(sandbox, how, kind, words):
    player = sandbox("exits.py", limits=QUICK_WALL)
    player.start({"how": how})
    fault = until_fault(*[lambda: player.act({})] * 2)
    assert fault.kind == kind, (fault.kind, fault.detail)
    assert words in fault.detail


def test_closing_stdout_and_stderr_harms_only_the_bot(sandbox):
    player = sandbox("close_output.py")
    player.start({})
    for _ in range(3):  # no output channel: the host neither hangs nor minds
        assert player.act({}) == {"still": "playing"}
    fault = expect_fault(player, CRASH, lambda: player.act({"print": True}))
    assert "OSError" in fault.detail  # printing to its own closed stdout raises in the bot


# -- timing ------------------------------------------------------------------------------


def test_computing_just_under_the_move_limit_never_touches_the_bank(sandbox):
    player = sandbox("slightly_slow.py", limits=dataclasses.replace(FAST, move_timeout_s=0.3))
    player.start({"burn_s": 0.2})
    for _ in range(4):
        assert player.act({}) == {"burned": 0.2}
    assert player.time_bank_s == FAST.time_bank_s


@pytest.mark.slow
def test_sleeping_just_under_the_move_wall_limit_loses_on_the_match_wall_cap(sandbox):
    """Issue 13, finding 2: under every per-call limit, such a bot held the worker until
    the task's time limit voided the match; now it loses on time, with a result."""
    limits = dataclasses.replace(FAST, move_wall_s=0.4, wall_bank_s=0.3, match_wall_s=1.5)
    player = sandbox("sleepy.py", limits=limits)
    player.start({"sleep_s": 0.3})
    began = time.monotonic()
    banks = []
    fault = until_fault(
        *[lambda: player.act({})] * 8, after=lambda: banks.append(player.wall_bank_s)
    )
    assert banks and set(banks) == {limits.wall_bank_s}  # each move under its own limit
    assert fault.kind == FaultKind.TIMEOUT
    assert "1.5 s of wall-clock time for the match" in fault.detail
    assert time.monotonic() - began < limits.match_wall_s + 2.0


def test_sleeping_just_over_the_move_wall_limit_drains_the_wall_bank(sandbox):
    limits = dataclasses.replace(FAST, move_wall_s=0.2, wall_bank_s=0.5)
    player = sandbox("sleepy.py", limits=limits)
    player.start({"sleep_s": 0.35})
    banks = []
    fault = until_fault(
        *[lambda: player.act({})] * 8, after=lambda: banks.append(player.wall_bank_s)
    )
    assert banks and banks == sorted(banks, reverse=True) and banks[0] < 0.5
    assert fault.kind == FaultKind.TIMEOUT
    assert "wall-clock bank spent" in fault.detail


def test_sleeping_in_hooks_counts_too(sandbox):
    limits = dataclasses.replace(FAST, move_wall_s=0.4, wall_bank_s=0.1, match_wall_s=1.0)
    player = sandbox("sleepy.py", limits=limits)
    player.start({"sleep_s": 0.3}, hooks=GAME_HOOKS)
    fault = until_fault(*[lambda: player.notify("on_hand_end", {})] * 8)
    assert fault.kind == FaultKind.TIMEOUT
    assert "on_hand_end()" in fault.detail


@pytest.mark.slow
def test_a_slow_bot_loses_a_whole_match_on_time_within_its_bound(sandbox):
    limits = dataclasses.replace(FAST, move_wall_s=0.3, wall_bank_s=0.2, match_wall_s=2.0)
    sleeper = sandbox("sleepy.py", limits=limits)
    random_bot = engine.InProcessPlayer("random", engine.builtin_bot("lie21", "random"))
    began = time.monotonic()
    result = engine.play_match("lie21", [sleeper, random_bot], seed=5)
    elapsed = time.monotonic() - began
    assert result.error is not None and result.error.seat == 0
    assert result.error.kind == "timeout" and "wall-clock" in result.error.detail
    assert result.winner == 1
    assert elapsed < limits.seat_wall_bound_s()  # the bound a worker's time limit covers
