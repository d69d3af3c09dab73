"""Shared fixtures for the sandbox tests: a fast config, small limits, leak checks.

Every test that starts a bot goes through the ``sandbox`` factory fixture, which closes
the players afterwards and then proves the host is as it was: no process of the bot uid,
no cgroup, no staged files, no leaked descriptors in the test process.

Hostile bots live in ``bots/`` as plain files. They are never imported by pytest (the
suite runs with ``--doctest-modules``, which would import every module it collects).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from sandbox import Limits, SandboxConfig, SandboxedPlayer, SandboxUnavailable, check_available

collect_ignore_glob = ["bots/*"]

BOTS = Path(__file__).parent / "bots"


def skip_without_cgroup(reason: str = "no cgroup on this host") -> None:
    """A laptop may offer no cgroup to the sandbox; CI's machine does, so there a missing
    cgroup is a failure, never a silently lost test."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true: {reason}", pytrace=False)
    pytest.skip(reason)


REPO = Path(__file__).resolve().parents[2]
#: pytest-xdist worker ("gw0", "gw1", ...) or "" when the suite runs in one process.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
#: A uid/gid no other process on a CI machine uses (one per xdist worker), so a scan of
#: /proc for it finds only this session's bots.
TEST_BOT_UID = 64123 + (int(_WORKER[2:]) if _WORKER[2:].isdigit() else 0)
IS_ROOT = os.geteuid() == 0
#: Tests of where bots run (``SandboxConfig.colocate``, a pinned worker's pool) need a host
#: allowed more than one CPU: on one there is nowhere else to run.
needs_two_cpus = pytest.mark.skipif(
    not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
    reason="needs a host that may run on two CPUs",
)

#: Limits small enough that timeouts and memory faults happen in a fraction of a second.
#: The wall-clock limits stay generous: on a busy CI machine a bot may get a fifth of a core,
#: and only CPU time should decide the CPU-time tests.
FAST = Limits(
    move_timeout_s=0.25,
    time_bank_s=0.25,
    move_wall_s=5.0,
    wall_bank_s=5.0,
    match_wall_s=60.0,
    startup_timeout_s=2.0,
    wall_guard_factor=6.0,
    wall_guard_extra_s=1.0,
    memory_bytes=256 * 1024 * 1024,
    cgroup_memory_bytes=320 * 1024 * 1024,
    max_processes=16,
    max_file_bytes=4 * 1024 * 1024,
    tmp_bytes=8 * 1024 * 1024,
)


@pytest.fixture(scope="session")
def work_dir() -> Iterator[str]:
    # Under /tmp and traversable by the bot's uid (pytest's tmp_path is private to root).
    path = tempfile.mkdtemp(prefix="arena-sandbox-tests-", dir="/tmp")
    os.chmod(path, 0o711)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def config(work_dir: str) -> SandboxConfig:
    cfg = SandboxConfig(
        bot_uid=TEST_BOT_UID,
        bot_gid=TEST_BOT_UID,
        work_dir=work_dir,
        cgroup_root=f"arena-sandbox-tests{_WORKER}",
    )
    try:
        check_available(cfg)
    except SandboxUnavailable as exc:
        if os.environ.get("CI"):
            pytest.fail(f"sandbox unavailable on CI: {exc}")
        pytest.skip(f"sandbox unavailable: {exc}")
    return cfg


def bot_uid_processes() -> list[int]:
    """Pids of processes running as the test bot uid (only meaningful as root)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as handle:
                for line in handle:
                    if line.startswith("Uid:"):
                        if int(line.split()[1]) == TEST_BOT_UID:
                            found.append(int(entry))
                        break
        except OSError:
            continue
    return found


def process_alive(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def cpu_seconds(pid: int) -> float:
    """CPU time of a whole process, read the way the sandbox reads it."""
    return time.clock_gettime(((~pid) << 3) | 2)


PlayerFactory = Callable[..., SandboxedPlayer]


def sandboxed_player(
    bot: str | Path, limits: Limits, config: SandboxConfig, kwargs: dict[str, object]
) -> SandboxedPlayer:
    """An unstarted player of ``bot`` (a path, or a file in ``BOTS``), as the ``sandbox``
    fixtures make it: ``name`` and ``source_name`` come from ``kwargs``, which must hold
    nothing else."""
    path = bot if isinstance(bot, Path) else BOTS / bot
    player = SandboxedPlayer(
        str(kwargs.pop("name", Path(path).stem)),
        path,
        limits=limits,
        config=config,
        source_name=kwargs.pop("source_name", None),  # type: ignore[arg-type]
    )
    assert not kwargs, kwargs
    return player


@pytest.fixture
def sandbox(config: SandboxConfig, work_dir: str) -> Iterator[PlayerFactory]:
    """``sandbox("bot_file.py", limits=..., config=...)`` -> an unstarted SandboxedPlayer."""
    players: list[SandboxedPlayer] = []
    fds_before = set(os.listdir("/proc/self/fd"))

    def make(bot: str | Path, *, limits: Limits = FAST, **kwargs: object) -> SandboxedPlayer:
        chosen = kwargs.pop("config", config)
        player = sandboxed_player(bot, limits, chosen, kwargs)  # type: ignore[arg-type]
        players.append(player)
        return player

    yield make

    pids = [pid for p in players for pid in p.process_ids]
    cgroups = [path for p in players for path in p.cgroup_paths]
    for player in players:
        player.close()
        player.close()  # idempotent
    # close() reaps what it started: no process and no zombie may be left, at once.
    assert not [p for p in pids if os.path.exists(f"/proc/{p}")], "a bot process survived"
    if IS_ROOT:
        assert bot_uid_processes() == [], "a process of the bot uid survived close()"
    assert not [c for c in cgroups if os.path.exists(c)], "a bot cgroup survived close()"
    assert os.listdir(work_dir) == [], "staged bot files survived close()"
    leaked = set(os.listdir("/proc/self/fd")) - fds_before
    assert not {fd for fd in leaked if os.path.exists(f"/proc/self/fd/{fd}")}, "leaked fds"


def expect_fault(player: SandboxedPlayer, kind: str, call: Callable[[], object]) -> object:
    """Run ``call``; assert it raises BotFault of ``kind``; return the fault."""
    from engine.players import BotFault

    with pytest.raises(BotFault) as info:
        call()
    assert info.value.kind == kind, (info.value.kind, info.value.detail, info.value.private)
    return info.value


#: The hooks a game with a hook of its own offers (``on_hand_end`` is Lie 21's): the
#: sandbox knows no game's hooks, it delivers the ones it is given.
GAME_HOOKS = ("on_match_start", "on_game_end", "on_hand_end")
