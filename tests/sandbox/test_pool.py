"""Jails started before their bots are chosen (``sandbox.pool``): each serves one bot once.

A pooled jail is launched with no bot in it; the player that takes it copies its bot's
files in and tells it to load. These tests prove what keeps bots apart: a jail is handed
to one player only, nothing of one bot reaches the next (files, environment, modules,
process), a used jail is never loaded again, and the pool leaves nothing behind.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import shutil
import signal
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.players import BotFault, FaultKind
from sandbox import SandboxConfig, SandboxedPlayer
from sandbox.player import _current_cpu
from sandbox.pool import JailPool, shared_pool
from sandbox.protocol import encode
from sandbox.staging import jail_dir, stage_into
from tests.sandbox.conftest import (
    BOTS,
    FAST,
    IS_ROOT,
    TEST_BOT_UID,
    bot_uid_processes,
    needs_two_cpus,
    process_alive,
)


@dataclasses.dataclass
class Pooled:
    config: SandboxConfig
    pool: JailPool
    work_dir: str
    players: list[SandboxedPlayer]

    def player(self, bot: str, **kwargs: object) -> SandboxedPlayer:
        player = SandboxedPlayer(Path(bot).stem, BOTS / bot, config=self.config, **kwargs)
        self.players.append(player)
        return player

    def filled(self, count: int = 1, limits=FAST) -> list:
        self.pool.fill(limits, count)
        assert self.pool.wait_idle(30)
        return self.pool.waiting()


@pytest.fixture
def pooled(config: SandboxConfig) -> Iterator[Pooled]:
    """A pool of its own (its own work directory, so its own config) per test; afterwards
    nothing of it may be left: no process of the bot uid, no cgroup, no file, no fd."""
    work = tempfile.mkdtemp(prefix="pool-", dir=config.work_dir)
    os.chmod(work, 0o711)
    cfg = dataclasses.replace(config, work_dir=work, prestart=2)
    fds_before = set(os.listdir("/proc/self/fd"))
    state = Pooled(cfg, shared_pool(cfg), work, [])
    yield state
    cgroups = [path for p in state.players for path in p.cgroup_paths]
    for player in state.players:
        player.close()
    state.pool.close()
    assert state.pool.ready_count() == 0
    if IS_ROOT:
        assert bot_uid_processes() == [], "a jail survived the pool's close()"
    assert not [c for c in cgroups if os.path.exists(c)], "a bot cgroup survived"
    assert os.listdir(work) == [], "a jail's directory survived the pool's close()"
    shutil.rmtree(work)
    leaked = set(os.listdir("/proc/self/fd")) - fds_before
    assert not {fd for fd in leaked if os.path.exists(f"/proc/self/fd/{fd}")}, "leaked fds"


def test_a_bot_starts_in_a_jail_launched_before_it_was_chosen(pooled):
    (spare,) = pooled.filled(1)
    assert list(spare.staged.bot_dir.iterdir()) == []  # no bot's files before it is chosen
    player = pooled.player("echo_bot.py", limits=FAST)
    player.start({"seed": 1})
    assert player.process_ids[1] == spare.process.pid
    assert player.act({"n": 1})["moves"] == 1
    marks = player.startup_marks
    assert marks["init_sent"] < marks["start"] < marks["ready"]  # launched before start()
    assert pooled.pool.stats["hits"] == 1


def test_nothing_of_one_bot_reaches_the_next(pooled):
    pooled.filled(2)
    first = pooled.player("leak_probe.py", limits=FAST)
    first.start({})
    assert first.act({"mode": "plant"}) == {"planted": True}
    first_pids, first_cgroups = first.process_ids, first.cgroup_paths
    first_dir = first._staged.root
    first.close()
    second = pooled.player("leak_probe.py", limits=FAST)
    second.start({})
    seen = second.act({"mode": "probe"})
    assert seen["tmp"] == []  # a /tmp of its own
    assert seen["bot"] == ["bot.py"]  # its own files only
    assert seen["env"] == {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    assert (seen["json_patched"], seen["module"]) == (False, False)  # a fresh interpreter
    assert set(second.process_ids).isdisjoint(first_pids)
    assert set(second.cgroup_paths).isdisjoint(first_cgroups)
    assert second._staged.root != first_dir
    assert pooled.pool.wait_idle(30)
    assert not any(process_alive(pid) for pid in first_pids)
    assert not first_dir.exists() and not any(os.path.exists(c) for c in first_cgroups)


def test_a_jail_is_handed_out_once_and_never_returns_to_the_pool(pooled):
    spares = pooled.filled(2)
    # Two spares, then the two launched in their place: a start waits for a launch that
    # is under way or due rather than start another jail cold beside it.
    jails = [pooled.pool.take(FAST) for _ in range(4)]
    assert jails[:2] == spares and None not in jails
    assert len({id(jail) for jail in jails}) == 4
    assert pooled.pool.stats["misses"] == 0
    assert pooled.pool.wait_idle(30)  # the takes asked for replacements
    waiting = pooled.pool.waiting()
    assert waiting and not {id(j) for j in waiting} & {id(j) for j in jails}
    for jail in jails:
        jail.close()
    assert {id(j) for j in pooled.pool.waiting()}.isdisjoint(id(j) for j in jails)


def test_a_jail_loads_one_bot_once(pooled):
    pooled.filled(1)
    player = pooled.player("echo_bot.py", limits=FAST)
    player.start({})
    process = player._process
    load = {"op": "load", "bot_dir": "/bot", "info": {}, "hooks": []}
    os.write(process.to_bot, encode(load))  # a second bot into a used jail: refused
    process.thaw()
    assert process.wait_exit(5.0)
    assert process.collect_exit() == 2  # the bootstrap ended rather than load again
    with pytest.raises(BotFault):
        player.act({})


def test_another_bots_pooled_copy_is_invisible(pooled):
    pooled.filled(2)
    victim = pooled.player("echo_bot.py", limits=FAST)
    victim.start({})
    victim_root = victim._staged.root
    victim_file = victim_root / "bot" / "bot.py"
    assert victim_file.exists()
    spare_dirs = [str(jail.staged.root) for jail in pooled.pool.waiting()]
    attacker = pooled.player("read_files.py", limits=FAST)
    attacker.start({"paths": [str(victim_file), str(victim_root), *spare_dirs]})
    seen = attacker.act({})["seen"]
    assert set(seen.values()) == {"FileNotFoundError"}, seen


def test_a_pooled_staged_copy_is_readable_only_by_root_and_the_bot_group(pooled):
    pooled.filled(1)
    player = pooled.player("echo_bot.py", limits=FAST)
    player.start({})
    root = player._staged.root
    if IS_ROOT:
        info = (root / "bot" / "bot.py").stat()
        assert (info.st_uid, info.st_gid) == (0, TEST_BOT_UID)
        assert info.st_mode & 0o777 == 0o640
        assert (root / "bot").stat().st_gid == TEST_BOT_UID
    assert root.stat().st_mode & 0o007 == 0  # nothing for other users


def test_staging_into_a_jail_that_holds_files_is_refused(work_dir):
    staged = jail_dir(work_dir, None)
    try:
        stage_into(staged, BOTS / "echo_bot.py", None)
        with pytest.raises(RuntimeError, match="already holds"):
            stage_into(staged, BOTS / "leak_probe.py", None)
        assert [p.name for p in staged.bot_dir.iterdir()] == ["bot.py"]
        assert "echoes" in (staged.bot_dir / "bot.py").read_text()
    finally:
        staged.remove()


def test_a_spare_that_died_while_waiting_is_not_used(pooled):
    (spare,) = pooled.filled(1)
    os.kill(spare.process.pid, signal.SIGKILL)
    assert spare.process.wait_exit(5.0)
    player = pooled.player("echo_bot.py", limits=FAST)
    player.start({})
    assert player.process_ids[1] != spare.process.pid
    assert player.act({"n": 1})["moves"] == 1
    assert pooled.pool.wait_idle(30)
    assert not spare.staged.root.exists()  # reaped


def test_a_spare_unused_for_idle_s_is_killed(config):
    work = tempfile.mkdtemp(prefix="pool-idle-", dir=config.work_dir)
    os.chmod(work, 0o711)
    cfg = dataclasses.replace(config, work_dir=work, prestart=1)
    pool = JailPool(cfg, idle_s=0.3)
    try:
        pool.fill(FAST, 1)
        assert pool.wait_idle(30)
        (spare,) = pool.waiting()
        deadline = time.monotonic() + 10
        while pool.ready_count() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert pool.ready_count() == 0
        assert pool.wait_idle(10)
        assert not process_alive(spare.process.pid) and os.listdir(work) == []
    finally:
        pool.close()
        shutil.rmtree(work, ignore_errors=True)


def test_a_pool_that_cannot_launch_leaves_bots_to_start_cold(config, caplog):
    def broken(config, limits):
        raise OSError("no jails today")

    pool = JailPool(dataclasses.replace(config, prestart=1), launcher=broken)
    try:
        with caplog.at_level(logging.WARNING, logger="sandbox"):
            assert pool.take(FAST) is None
            assert pool.wait_idle(10)
            assert pool.take(FAST) is None
        assert "pre-starting a jail failed (no jails today)" in caplog.text
        assert pool.stats["misses"] == 2 and pool.ready_count() == 0
    finally:
        pool.close()


def test_a_closed_pooled_player_keeps_its_output_and_its_jail_is_reaped(pooled):
    pooled.filled(1)
    player = pooled.player("chatty.py", limits=FAST)
    player.start({})
    player.act({})
    pids, cgroups, root = player.process_ids, player.cgroup_paths, player._staged.root
    printed = player.output()
    player.close()
    assert player.output() == printed  # the jail's reaping adds nothing to it
    assert player.process_ids == ()
    assert pooled.pool.wait_idle(30)
    assert not any(process_alive(pid) for pid in pids)
    assert not root.exists() and not any(os.path.exists(c) for c in cgroups)


def test_closing_the_pool_kills_its_spares(pooled):
    spares = pooled.filled(2)
    assert len(spares) == 2
    pooled.pool.close()
    assert not any(process_alive(spare.process.pid) for spare in spares)
    assert pooled.pool.take(FAST) is None  # a closed pool hands out nothing
    assert os.listdir(pooled.work_dir) == []


def test_a_forked_child_gets_a_pool_of_its_own(pooled):
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        try:
            pool = shared_pool(pooled.config)
            ok = pool is not pooled.pool and pool._pid == os.getpid() and pool.waiting() == []
            os.write(write, b"1" if ok else b"0")
        finally:
            os._exit(0)
    os.close(write)
    assert os.read(read, 1) == b"1"
    os.close(read)
    os.waitpid(child, 0)


def test_the_arena_starts_every_bot_of_a_match_from_pre_started_jails(pooled):
    import engine

    pooled.filled(2)
    random_bot = engine.builtin_bot("lie21", "random")
    players = [
        SandboxedPlayer(f"seat{seat}", random_bot, config=pooled.config, limits=FAST)
        for seat in range(2)
    ]
    pooled.players.extend(players)
    result = engine.play_match("lie21", players, seed=5)
    assert result.faults == ()
    assert pooled.pool.stats["hits"] == 2
    assert pooled.pool.wait_idle(30)
    assert len(pooled.pool.waiting()) == 2  # replaced for the next match


@needs_two_cpus
def test_a_pinned_process_launches_its_spares_anywhere_and_plays_them_on_its_cpu(
    pooled, monkeypatch
):
    """A worker's pool process plays on one core; its spares start on any of the worker's
    CPUs (``launch_on``) and each bot is moved to the process's CPU when it is chosen."""
    import sandbox.pool

    allowed = os.sched_getaffinity(0)
    cpu = _current_cpu()
    monkeypatch.setattr(sandbox.pool, "_launch_cpus", frozenset(allowed))
    os.sched_setaffinity(0, {cpu})
    try:
        (spare,) = pooled.filled(1)
        assert os.sched_getaffinity(spare.process.pid) == allowed
        player = pooled.player("echo_bot.py", limits=FAST)
        player.start({})
        assert player.process_ids[1] == spare.process.pid
        assert os.sched_getaffinity(spare.process.pid) == {cpu}
        assert player.act({"n": 1})["moves"] == 1
    finally:
        os.sched_setaffinity(0, allowed)


def test_a_pooled_jail_keeps_the_start_up_limits(pooled):
    pooled.filled(1, limits=dataclasses.replace(FAST, startup_timeout_s=0.5))
    player = pooled.player(
        "loop_at_import.py", limits=dataclasses.replace(FAST, startup_timeout_s=0.5)
    )
    with pytest.raises(BotFault) as info:
        player.start({})
    assert info.value.kind == FaultKind.TIMEOUT and "to load" in info.value.detail


def _own_pool(pooled: Pooled, monkeypatch, launcher=None) -> JailPool:
    """A pool of ``pooled``'s config with ``launcher``, made the one its players use."""
    import sandbox.pool

    pooled.pool.close()
    pool = JailPool(pooled.config, launcher=launcher)
    monkeypatch.setitem(sandbox.pool._pools, pooled.config, pool)
    pooled.pool = pool
    return pool


def test_an_unexpected_error_reading_a_spare_reaps_it_and_spares_the_others(
    pooled, monkeypatch, caplog
):
    """Every pooled jail dies with the pool's thread (bubblewrap's parent-death signal):
    a bug met while reading one spare must cost that spare only, never the bots in play."""
    from sandbox.launch import launch

    launched = []

    def launcher(config, limits):
        jail = launch(config, limits)
        launched.append(jail)
        if len(launched) == 3:  # the third jail's start message cannot be read

            def broken() -> str | None:
                raise RuntimeError("a bug in reading the start message")

            jail.poll_prepared = broken
        return jail

    pool = _own_pool(pooled, monkeypatch, launcher)
    pool.fill(FAST, 2)
    assert pool.wait_idle(30)
    player = pooled.player("echo_bot.py", limits=FAST)
    player.start({})
    assert player.act({"n": 1})["moves"] == 1  # in the middle of its match
    thread = pool._thread
    with caplog.at_level(logging.WARNING, logger="sandbox"):
        pool.fill(FAST, 2)  # launches the third, broken one
        assert pool.wait_idle(30)
    broken = launched[2]
    assert "unexpected error reading a pre-started jail" in caplog.text
    assert "a bug in reading the start message" in caplog.text
    assert pool.stats["errors"] == 1
    assert pool._thread is thread and thread.is_alive()
    assert not process_alive(broken.process.pid) and not broken.staged.root.exists()
    assert player.act({"n": 1})["moves"] == 2  # the bot in play lives on
    (spare,) = (jail for jail in launched[:2] if jail.process.pid != player.process_ids[1])
    assert [jail.process.pid for jail in pool.waiting()] == [spare.process.pid]
    other = pooled.player("echo_bot.py", limits=FAST)
    other.start({})
    assert other.process_ids[1] == spare.process.pid
    assert other.act({"n": 1})["moves"] == 1


def test_the_pools_thread_survives_an_unexpected_error_of_its_own(pooled, monkeypatch, caplog):
    pool = _own_pool(pooled, monkeypatch)
    pool.fill(FAST, 1)
    assert pool.wait_idle(30)
    player = pooled.player("echo_bot.py", limits=FAST)
    player.start({})
    thread = pool._thread
    real = pool._take_expired
    failures = iter([RuntimeError("a bug in the pool's bookkeeping")])

    def take_expired():
        for exc in failures:
            raise exc
        return real()

    monkeypatch.setattr(pool, "_take_expired", take_expired)
    with caplog.at_level(logging.ERROR, logger="sandbox"):
        pool.fill(FAST, 2)
        assert pool.wait_idle(30)
    assert "unexpected error in the pool's thread; the pool goes on" in caplog.text
    assert pool.stats["errors"] == 1
    assert pool._thread is thread and thread.is_alive()
    assert player.act({"n": 1})["moves"] == 1  # its bot was not killed with the thread
    assert len(pool.waiting()) == 2  # and the pool still launches
