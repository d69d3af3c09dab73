"""Memory: the address-space limit inside, the cgroup limit over the whole jail."""

from __future__ import annotations

import dataclasses

from engine.players import BotFault, FaultKind
from sandbox import SandboxedPlayer
from tests.sandbox.conftest import FAST, expect_fault, skip_without_cgroup


def play_until_fault(player: SandboxedPlayer, max_moves: int = 50) -> tuple[int, BotFault]:
    """Moves made before the first fault, and that fault."""
    for moves in range(max_moves):
        try:
            player.act({})
        except BotFault as fault:
            return moves, fault
    raise AssertionError(f"no fault in {max_moves} moves")


def test_memory_bomb_is_a_memory_fault(sandbox):
    player = sandbox("memory_bomb.py")
    player.start({})
    fault = expect_fault(player, FaultKind.MEMORY, lambda: player.act({}))
    assert "MemoryError" in fault.private


def test_gradual_memory_growth_is_a_memory_fault_at_the_address_space_limit(sandbox):
    limits = dataclasses.replace(FAST, memory_bytes=192 * 1024 * 1024, move_timeout_s=2.0)
    player = sandbox("memory_growth.py", limits=limits)
    player.start({})
    moves, fault = play_until_fault(player)
    assert fault.kind == FaultKind.MEMORY, fault
    assert "MemoryError" in fault.private
    assert 2 <= moves < 12  # 16 MiB a move under a 192 MiB address space


def test_memory_growth_past_the_cgroup_limit_is_an_oom_kill(sandbox):
    # Address space generous, cgroup tight: the kernel OOM-kills the bot in its cgroup.
    limits = dataclasses.replace(
        FAST, memory_bytes=2 * 1024**3, cgroup_memory_bytes=96 * 1024 * 1024, move_timeout_s=2.0
    )
    player = sandbox("memory_growth.py", limits=limits)
    player.start({})
    if not player.cgroup_paths:
        skip_without_cgroup()
    moves, fault = play_until_fault(player)
    assert fault.kind == FaultKind.MEMORY, fault
    assert "killed" in fault.detail
    assert moves < 8
