"""One match per core: a pool of one process per CPU pins each process to its own CPU; any
other pool is left to the scheduler."""

from __future__ import annotations

import os

import pytest

from tests.workers.processes import wait_for
from workers import cpus

needs_affinity = pytest.mark.skipif(
    not hasattr(os, "sched_getaffinity"), reason="CPU affinity is Linux-only"
)


@pytest.mark.parametrize(
    ("index", "pool_size", "allowed", "cpu"),
    [
        (0, 2, {0, 1}, 0),
        (1, 2, {0, 1}, 1),
        (1, 3, {4, 2, 7}, 4),  # the CPUs the worker may use, in order, not 0..n-1
        (0, 1, {0, 1}, None),  # a smaller pool may share the host with another worker
        (2, 4, {0, 1}, None),  # more matches than cores: the scheduler spreads them
        (2, 2, {0, 1}, None),  # not a process of this pool
        (0, None, {0, 1}, None),  # pool size unknown
    ],
)
def test_which_cpu_a_pool_process_gets(index, pool_size, allowed, cpu):
    assert cpus.cpu_for(index, pool_size, allowed) == cpu


@needs_affinity
def test_it_is_off_when_the_operator_says_so(monkeypatch):
    monkeypatch.setenv("ARENA_WORKER_CPU_PIN", "off")
    monkeypatch.setattr(os, "sched_setaffinity", lambda *args: pytest.fail("pinned"))
    allowed = os.sched_getaffinity(0)
    assert cpus.pin_pool_process(0, len(allowed)) is None


def _pinned_pool(worker, size: int) -> list[int]:
    """The pool's pids once each has pinned itself.

    "ready." is logged by the parent; a pool process pins itself in its own
    ``worker_process_init``, which may run a moment later, so read the masks only after
    every one of them has said so.
    """
    wait_for(
        lambda: worker.log().count("plays its matches on CPU") >= size,
        timeout=30,
        what=f"{size} pool processes to pin themselves",
    )
    return worker.pids()[1:]


@pytest.mark.slow
@needs_affinity
@pytest.mark.redis
def test_a_worker_with_a_process_per_cpu_plays_one_match_per_core(redis, start_worker):
    allowed = os.sched_getaffinity(0)
    if len(allowed) < 2:
        pytest.skip("one CPU: nothing to spread")
    worker = start_worker("pinned", concurrency=len(allowed))
    main, *_ = worker.pids()
    pool = _pinned_pool(worker, len(allowed))
    assert len(pool) == len(allowed)
    assert sorted(next(iter(os.sched_getaffinity(pid))) for pid in pool) == sorted(allowed)
    assert all(len(os.sched_getaffinity(pid)) == 1 for pid in pool)
    assert os.sched_getaffinity(main) == allowed  # the parent still goes anywhere


@pytest.mark.slow
@needs_affinity
@pytest.mark.redis
def test_a_smaller_pool_is_left_to_the_scheduler(redis, start_worker):
    allowed = os.sched_getaffinity(0)
    if len(allowed) < 2:
        pytest.skip("one CPU: a pool of one is a pool of one per CPU")
    worker = start_worker("free", concurrency=len(allowed) - 1)
    _, *pool = worker.pids()
    assert pool and all(os.sched_getaffinity(pid) == allowed for pid in pool)


@needs_affinity
def test_a_refused_pin_leaves_the_process_where_it_was(monkeypatch):
    def refused(*args):
        raise PermissionError("sched_setaffinity: operation not permitted")

    monkeypatch.setattr(os, "sched_setaffinity", refused)
    allowed = os.sched_getaffinity(0)
    assert cpus.pin_pool_process(0, len(allowed)) is None


@needs_affinity
@pytest.mark.slow
def test_a_worker_on_the_filesystem_broker_pins_its_pool_too(
    transactional_db, start_worker, tmp_path
):
    """``make run`` on a laptop: no Redis, so Celery runs a plain pool (not the async one)."""
    allowed = os.sched_getaffinity(0)
    if len(allowed) < 2:
        pytest.skip("one CPU: nothing to spread")
    data_dir = str(tmp_path / "data")
    worker = start_worker(
        "fs", concurrency=len(allowed), unset=("REDIS_URL",), ARENA_DATA_DIR=data_dir
    )
    pool = _pinned_pool(worker, len(allowed))
    assert len(pool) == len(allowed)
    assert sorted(next(iter(os.sched_getaffinity(pid))) for pid in pool) == sorted(allowed)
