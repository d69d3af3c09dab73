"""A worker starts each bot in a jail launched while its previous match was played, and
writes each version's files once (issue 38)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from arena.services.matches import match_create, match_play, playing, version_dirs_sweep
from sandbox.pool import shared_pool
from tests.arena import bots

pytestmark = pytest.mark.django_db


@pytest.fixture
def versions(make_bot) -> list:
    return [make_bot(name, bots.GOOD).active_version for name in ("alpha", "beta")]


def test_the_next_match_starts_its_bots_in_jails_started_during_the_last(versions):
    config = playing.sandbox_config()
    assert config.prestart == playing.PRESTART_JAILS
    pool = shared_pool(config)
    hits = pool.stats["hits"]
    first = match_create(versions=versions, kind="ladder")
    assert match_play(match_id=first.pk, worker="w1").status == "done"
    assert pool.wait_idle(30)
    assert len(pool.waiting()) >= 2  # launched while the first match was played
    second = match_create(versions=versions, kind="ladder")
    assert match_play(match_id=second.pk, worker="w1").status == "done"
    assert pool.stats["hits"] >= hits + 2  # both seats from pre-started jails


def test_prestart_follows_the_setting(monkeypatch):
    monkeypatch.setenv("ARENA_SANDBOX_PRESTART", "0")
    assert playing.sandbox_config().prestart == 0


def test_a_version_is_written_out_once_per_process(versions, monkeypatch):
    version = versions[0]
    path = playing.version_files(version)
    assert (path / "bot.py").read_bytes() == playing.version_bytes(version)
    written = []
    original = playing.version_materialize
    monkeypatch.setattr(
        playing, "version_materialize", lambda *a: written.append(a) or original(*a)
    )
    assert playing.version_files(version) == path  # the same directory, not written again
    assert written == []
    playing.version_cache_clear()
    assert not path.exists()
    assert playing.version_files(version) != path and len(written) == 1


def test_version_directories_of_dead_workers_are_removed(tmp_path, monkeypatch):
    import tempfile

    tmp_path = tmp_path / "tmp"  # beside the arena tests' media/ folder, not around it
    tmp_path.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    child = os.fork()
    if child == 0:  # pragma: no cover - a worker process that dies
        os._exit(0)
    os.waitpid(child, 0)
    dead = tmp_path / f"{playing.VERSION_DIRS_PREFIX}{child}-abc"
    alive = tmp_path / f"{playing.VERSION_DIRS_PREFIX}{os.getpid()}-abc"
    for path in (dead, alive):
        (path / "1-x").mkdir(parents=True)
    assert version_dirs_sweep() == 1
    assert sorted(p.name for p in Path(tmp_path).iterdir()) == [alive.name]
