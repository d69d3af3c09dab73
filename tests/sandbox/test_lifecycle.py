"""Starting, playing, closing: the Player protocol and cleanup in every state."""

from __future__ import annotations

import os
import signal

import pytest

from engine.players import BotFault, FaultKind, Player
from sandbox import SandboxConfig, SandboxedPlayer
from tests.sandbox.conftest import BOTS, GAME_HOOKS, process_alive, skip_without_cgroup


def test_sandboxed_player_satisfies_the_player_protocol(sandbox):
    assert isinstance(sandbox("echo_bot.py"), Player)


def test_a_well_behaved_bot_plays_many_moves(sandbox):
    player = sandbox("echo_bot.py")
    player.start({"seed": 1})
    for n in range(200):
        assert player.act({"n": n})["moves"] == n + 1


def test_close_is_idempotent_and_safe_in_every_state(sandbox):
    never_started = sandbox("echo_bot.py")
    never_started.close()
    never_started.close()
    assert never_started.output() == ""

    running = sandbox("echo_bot.py")
    running.start({})
    pids = running.process_ids
    running.close()
    running.close()
    assert not any(process_alive(pid) for pid in pids)
    with pytest.raises(RuntimeError):
        running.act({})


def test_bot_in_its_cgroup_while_running_and_gone_after(sandbox):
    player = sandbox("echo_bot.py")
    player.start({})
    if not player.cgroup_paths:
        skip_without_cgroup()
    bot_pid = player.process_ids[1]
    for path in player.cgroup_paths:
        with open(os.path.join(path, "cgroup.procs")) as handle:
            assert handle.read().split() == [str(bot_pid)]
    paths = player.cgroup_paths
    player.close()
    assert not any(os.path.exists(p) for p in paths)


def test_a_bot_killed_from_outside_is_a_crash(sandbox):
    player = sandbox("echo_bot.py")
    player.start({})
    os.kill(player.process_ids[1], signal.SIGKILL)
    with pytest.raises(BotFault) as info:
        player.act({})
    assert info.value.kind == FaultKind.CRASH
    assert "SIGKILL" in info.value.detail


def test_starting_twice_is_a_programming_error(sandbox):
    player = sandbox("echo_bot.py")
    player.start({})
    with pytest.raises(RuntimeError):
        player.start({})


def test_unsafe_mode_runs_the_bot_and_warns_every_time(config, capfd):
    unsafe = SandboxConfig(mode="unsafe", work_dir=config.work_dir)
    for _ in range(2):
        with SandboxedPlayer("dev", BOTS / "echo_bot.py", config=unsafe) as player:
            player.start({})
            assert player.act({"n": 1})["moves"] == 1
    assert capfd.readouterr().err.count("WARNING: ARENA_SANDBOX_MODE=unsafe") == 2


def test_garbage_collected_player_leaves_no_process(config):
    import gc

    player = SandboxedPlayer("lost", BOTS / "echo_bot.py", config=config)
    player.start({})
    pids = player.process_ids
    del player
    gc.collect()
    assert not any(process_alive(pid) for pid in pids)


def test_messages_bigger_than_a_pipe_reach_a_frozen_bot(sandbox):
    player = sandbox("echo_bot.py")
    player.start({"blob": "x" * 30_000}, hooks=GAME_HOOKS)
    player.notify("on_hand_end", {"blob": "y" * 500_000})  # 8 pipe buffers
    assert player.act({"n": "z" * 30_000})["echo"] == {"n": "z" * 30_000}


def test_cgroup_paths_follow_the_workers_own_cgroup():
    from sandbox.cgroups import _directory

    own = "/system.slice/arena-worker.service/worker"
    mount = "/sys/fs/cgroup"
    assert str(_directory(mount, "/", own, "arena-sandbox")) == f"{mount}{own}/arena-sandbox"
    assert str(_directory(mount, "/", own, "../bots")) == (
        "/sys/fs/cgroup/system.slice/arena-worker.service/bots"
    )
    assert str(_directory(mount, "/", own, "/arena")) == "/sys/fs/cgroup/arena"
    # Inside a container whose cgroup mount shows only its own subtree.
    assert str(_directory(mount, "/docker/abc", "/docker/abc", "bots")) == ("/sys/fs/cgroup/bots")
    assert str(_directory(mount, "/", "/", "../../up")) == "/sys/fs/cgroup/up"  # clamped


def _dead_pid() -> int:
    import subprocess

    child = subprocess.Popen(["/usr/bin/python3.11", "-I", "-S", "-c", "pass"])
    child.wait()
    return child.pid


def test_copies_left_by_a_killed_worker_are_removed(tmp_path):
    from sandbox.staging import _sweep_stale

    dead, alive = tmp_path / f"arena-sandbox-{_dead_pid()}-abc", tmp_path / "arena-sandbox-1-abc"
    other = tmp_path / "unrelated"
    for path in (dead, alive, other):
        (path / "bot").mkdir(parents=True)
    _sweep_stale(str(tmp_path))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["arena-sandbox-1-abc", "unrelated"]


def test_cgroups_left_by_a_killed_worker_are_removed(config):
    from sandbox.cgroups import _sweep_stale, cgroup_support

    support = cgroup_support(config.cgroup_root)
    if isinstance(support, str):
        skip_without_cgroup(support)
    stale = [parent / f"{_dead_pid()}-0-abcdef" for _, parent in support.parents]
    for path in stale:
        path.mkdir()
    for _, parent in support.parents:
        _sweep_stale(parent)
    assert not any(path.exists() for path in stale)
