"""One match per core: each pool process keeps its matches on a CPU of its own.

A worker whose pool has one process per CPU it may use plays one match per core. Left to
the scheduler, the processes of every match (the host, which plays the engine, and its
bots, which take turns with it) wander between the cores and meet the other matches'
processes there: a bot woken on the other core, its caches cold, a reply waiting for a core
the other match holds. Pinning pool process ``k`` to the ``k``-th CPU the worker may use
keeps each match on its own core (its bots run there; the database, Redis and the pool's
parent still go where the scheduler puts them). The jails it starts ahead of its next
match (``sandbox.pool``) are launched on any of the worker's CPUs: their start-up (about
15 ms of CPU a jail) fills whichever core is idle, the other match's waits included,
instead of queueing behind this process's match; each is placed on this process's CPU
when its bot is chosen. On a 2-core VM the
tournament pipeline ran about 6 % faster for it (``benchmarks/tournament_speed.py``,
docs/workers.md).

Only a pool of exactly as many processes as the worker has CPUs is pinned: a smaller pool
may share the host with other workers, which would pile onto the same first CPUs, and a
larger one has more matches than cores to spread. ``ARENA_WORKER_CPU_PIN=off`` turns it off.
"""

from __future__ import annotations

import os

from sandbox.pool import launch_on

__all__ = ["cpu_for", "pin_pool_process"]


def cpu_for(index: int, pool_size: int | None, allowed: set[int]) -> int | None:
    """The CPU for pool process ``index`` of ``pool_size``, or None to leave it unpinned.

    >>> cpu_for(1, 2, {0, 1}), cpu_for(0, 2, {2, 5}), cpu_for(0, 1, {0, 1}), cpu_for(0, 4, {0, 1})
    (1, 2, None, None)
    """
    if pool_size is None or pool_size != len(allowed) or not 0 <= index < pool_size:
        return None
    return sorted(allowed)[index]


def pin_pool_process(index: int, pool_size: int | None) -> int | None:
    """Pin this process to its CPU (see :func:`cpu_for`); the CPU, or None if left alone."""
    if os.environ.get("ARENA_WORKER_CPU_PIN", "auto").lower() in {"off", "0", "false", "no"}:
        return None
    if not hasattr(os, "sched_setaffinity"):  # not Linux: nothing to pin with
        return None
    allowed = os.sched_getaffinity(0)
    cpu = cpu_for(index, pool_size, allowed)
    if cpu is None:
        return None
    try:
        os.sched_setaffinity(0, {cpu})
    except OSError:  # refused (a container's policy): the scheduler places it, as before
        return None
    launch_on(allowed)  # the jails started ahead of a match: wherever a core is free
    return cpu
