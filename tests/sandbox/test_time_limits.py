"""CPU-time limits, the time bank, the wall-clock guard, and freezing between turns."""

from __future__ import annotations

import dataclasses
import time

import pytest

from engine.players import FaultKind
from tests.sandbox.conftest import FAST, cpu_seconds, expect_fault


def test_infinite_loop_at_import_is_a_timeout(sandbox):
    player = sandbox("loop_at_import.py", limits=dataclasses.replace(FAST, startup_timeout_s=0.5))
    began = time.monotonic()
    fault = expect_fault(player, FaultKind.TIMEOUT, lambda: player.start({}))
    assert "to load" in fault.detail
    assert time.monotonic() - began < 6  # generous: CI machines are busy


def test_infinite_loop_in_a_move_is_a_timeout(sandbox):
    player = sandbox("loop_in_move.py")
    player.start({})
    began = time.monotonic()
    fault = expect_fault(player, FaultKind.TIMEOUT, lambda: player.act({}))
    # The loop ran the move limit plus the whole bank of CPU, then was stopped.
    assert "CPU" in fault.detail
    assert time.monotonic() - began < 5.0  # 0.5 s of CPU, on a possibly busy machine
    # Every later call reports the same fault.
    expect_fault(player, FaultKind.TIMEOUT, lambda: player.act({}))


def test_sleeping_past_the_move_and_its_bank_is_a_wall_clock_timeout(sandbox):
    limits = dataclasses.replace(FAST, move_wall_s=0.5, wall_bank_s=0.5)
    player = sandbox("sleep_past_deadline.py", limits=limits)
    player.start({})
    began = time.monotonic()
    fault = expect_fault(player, FaultKind.TIMEOUT, lambda: player.act({}))
    elapsed = time.monotonic() - began
    assert "wall-clock bank spent" in fault.detail
    allowance = limits.move_wall_s + limits.wall_bank_s
    assert allowance <= elapsed < allowance + 3.0


@pytest.mark.slow
def test_time_bank_covers_overruns_until_it_is_spent(sandbox):
    # 0.2 s of CPU per move against a 0.1 s limit: each move draws 0.1 s from a 0.35 s bank.
    limits = dataclasses.replace(FAST, move_timeout_s=0.1, time_bank_s=0.35)
    player = sandbox("slightly_slow.py", limits=limits)
    player.start({"burn_s": 0.2})
    banks = []
    for _ in range(3):
        assert player.act({}) == {"burned": 0.2}
        banks.append(player.time_bank_s)
    assert banks[0] > banks[1] > banks[2] > 0
    assert abs(banks[0] - 0.25) < 0.03
    fault = expect_fault(player, FaultKind.TIMEOUT, lambda: player.act({}))
    assert "time bank" in fault.detail


def test_fast_moves_never_touch_the_bank(sandbox):
    player = sandbox("echo_bot.py")
    player.start({})
    for _ in range(50):
        player.act({"n": 1})
    assert player.time_bank_s == FAST.time_bank_s


def test_bot_is_frozen_between_turns(sandbox):
    # A background thread spins forever; it may only run while it is the bot's turn.
    player = sandbox("background_spinner.py")
    player.start({})
    bot_pid = player.process_ids[1]
    first = player.act({})["counter"]
    before = cpu_seconds(bot_pid)
    time.sleep(0.4)
    frozen_cpu = cpu_seconds(bot_pid) - before
    assert frozen_cpu < 0.01, f"the bot computed {frozen_cpu:.3f} s while not its turn"
    with open(f"/proc/{bot_pid}/stat") as handle:
        assert handle.read().rsplit(")", 1)[1].split()[0] == "T"  # stopped
    second = player.act({})["counter"]
    assert second >= first
