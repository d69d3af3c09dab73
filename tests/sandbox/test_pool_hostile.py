"""Every hostile-bot test of the sandbox again, each bot started in a pre-started jail.

The tests are the same functions as in their own modules (imported, not copied); only the
``sandbox`` fixture differs: here each player takes a jail its pool launched before the
player was made (``sandbox.pool``), where there they start cold. After each test the
player's own processes, cgroup and files must be gone; after the module, the pools' spares
too, with no process of the bot uid and no descriptor left.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from _pytest.fixtures import FixtureFunctionDefinition

from sandbox import Limits, SandboxConfig, SandboxedPlayer
from sandbox.pool import JailPool, shared_pool
from tests.sandbox.conftest import (
    FAST,
    IS_ROOT,
    bot_uid_processes,
    process_alive,
    sandboxed_player,
)

MODULES = (
    "test_hostile",
    "test_processes",
    "test_files",
    "test_network",
    "test_protocol",
    "test_outcomes",
    "test_time_limits",
    "test_memory_limits",
    "test_packages",
)
#: Tests that count the directories in the work directory: a pool keeps its spares'
#: there too. ``test_pool.py`` has their pooled versions.
NOT_HERE = {
    "test_files": {
        "test_another_bots_files_are_invisible",
        "test_staged_copy_is_readable_only_by_root_and_the_bot_group",
    },
}
for _module_name in MODULES:
    _module = importlib.import_module(f"tests.sandbox.{_module_name}")
    for _name, _value in vars(_module).items():
        if isinstance(_value, FixtureFunctionDefinition) and not _name.startswith("_"):
            globals()[_name] = _value  # a module's own fixtures (``installed``)
        elif _name.startswith("test_") and _name not in NOT_HERE.get(_module_name, ()):
            globals()[f"test_{_module_name[5:]}__{_name[5:]}"] = _value


@dataclasses.dataclass
class _Pools:
    work_dir: str
    pools: dict[SandboxConfig, JailPool]


@pytest.fixture(scope="module")
def _pools(config: SandboxConfig) -> Iterator[_Pools]:
    work = tempfile.mkdtemp(prefix="pooled-", dir=config.work_dir)
    os.chmod(work, 0o711)
    fds_before = set(os.listdir("/proc/self/fd"))
    state = _Pools(work, {})
    yield state
    for pool in state.pools.values():
        pool.close()
    if IS_ROOT:
        assert bot_uid_processes() == [], "a jail survived the pools' close()"
    assert os.listdir(work) == [], "a jail's directory survived the pools' close()"
    shutil.rmtree(work)
    leaked = set(os.listdir("/proc/self/fd")) - fds_before
    assert not {fd for fd in leaked if os.path.exists(f"/proc/self/fd/{fd}")}, "leaked fds"


@pytest.fixture
def sandbox(config: SandboxConfig, _pools: _Pools) -> Iterator:
    """As the suite's ``sandbox`` fixture, each player in a jail its pool started first."""
    players: list[SandboxedPlayer] = []

    def make(bot: str | Path, *, limits: Limits = FAST, **kwargs: object) -> SandboxedPlayer:
        base = kwargs.pop("config", config)
        pooled = dataclasses.replace(base, prestart=1, work_dir=_pools.work_dir)
        pool = _pools.pools.setdefault(pooled, shared_pool(pooled))
        pool.fill(limits, 1)
        assert pool.wait_idle(30)
        player = sandboxed_player(bot, limits, pooled, kwargs)
        players.append(player)
        return player

    yield make

    pids = [pid for p in players for pid in p.process_ids]
    cgroups = [path for p in players for path in p.cgroup_paths]
    roots = [p._staged.root for p in players if p._staged is not None]
    for player in players:
        player.close()
        player.close()  # idempotent
    for pool in _pools.pools.values():
        assert pool.wait_idle(30)
    assert not [p for p in pids if process_alive(p)], "a bot process survived"
    assert not [c for c in cgroups if os.path.exists(c)], "a bot cgroup survived"
    assert not [r for r in roots if r.exists()], "a bot's staged files survived"
    cold = [p.name for p in players if p._jail is not None and p._pool is None]
    assert not cold, f"started cold, not in a pre-started jail: {cold}"
