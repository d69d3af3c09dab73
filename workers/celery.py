"""The Celery app the workers and beat run: ``arena.queue``'s (configured from the Django
settings), with the tasks and what a worker process needs (a sandbox probe, connections
recycled around each task, one match per core, the periodic jobs installed by beat).

Run with ``celery -A workers worker`` and ``celery -A workers beat``.
"""

import logging
from typing import Any

from celery.signals import (
    beat_init,
    task_postrun,
    task_prerun,
    worker_init,
    worker_process_init,
    worker_process_shutdown,
)

from arena.queue import app  # the one app, configured from the Django settings

app.autodiscover_tasks(["workers"], related_name="tasks")

log = logging.getLogger("arena.tasks")


@task_prerun.connect
@task_postrun.connect
def _recycle_stale_connections(sender: Any = None, **kwargs: Any) -> None:
    """What Django does around every web request: close connections that broke or that
    outlived CONN_MAX_AGE, and reset their health checks. Healthy ones are reused.

    Not for a task run eagerly inside someone else's transaction (tests, a shell): there
    the connection belongs to the caller.
    """
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()


@beat_init.connect
def _install_periodic_tasks(sender: Any = None, **kwargs: Any) -> None:
    """Beat writes the arena's periodic jobs (ladder tick, sweeper) before it reads them."""
    import django

    django.setup()
    from arena.services.schedules import periodic_tasks_install

    periodic_tasks_install()


# sysexits.h EX_CONFIG: the host is misconfigured; restarting alone will not fix it.
EXIT_SANDBOX_UNAVAILABLE = 78


@worker_init.connect
def _check_sandbox(sender: Any = None, **kwargs: Any) -> None:
    """Probe the sandbox once when the worker starts, before it forks its pool; refuse to
    start when it fails.

    A worker that cannot sandbox would take every validation and match and fail it as a
    platform failure, to be retried on the next worker, which might be just as broken:
    with several such workers nothing is ever played while all of them look healthy.
    Exiting instead takes no task at all, says why in one line, and fails the container's
    health check (``arena_check --sandbox``) so the operator sees it.

    The pool processes inherit the probe's caches (interpreter runtime, seccomp programs),
    so no match pays for them.
    """
    from sandbox import SandboxConfig, SandboxError, check_available, check_packages

    if _serves_control_only(sender):
        return  # it starts and advances tournaments; it never plays a match
    try:
        config = SandboxConfig.from_env()
        check_available(config)
        check_packages(config)
    except SandboxError as exc:
        log.critical("sandbox unavailable on this worker, refusing to take tasks: %s", exc)
        raise SystemExit(EXIT_SANDBOX_UNAVAILABLE) from None
    _sweep_workdirs()


def _serves_control_only(worker: Any) -> bool:
    """Whether the worker reads only the control queue (``-Q control``): bookkeeping tasks,
    no bot code, so no sandbox is needed (its queues are set before ``worker_init``)."""
    try:
        queues = set(worker.app.amqp.queues.consume_from or {})
    except AttributeError:
        return False
    return queues == {"control"}


def _sweep_workdirs() -> None:
    """Remove match directories that a killed worker on this host left behind."""
    import django

    django.setup()
    from arena.services.matches import match_workdirs_sweep, version_dirs_sweep

    removed = match_workdirs_sweep(older_than_s=float(app.conf.task_time_limit or 3600) + 60)
    removed += version_dirs_sweep()
    if removed:
        log.info("removed %d match directories left by a killed worker", removed)


#: The worker this process belongs to, noted in the parent (pool processes inherit it).
_worker: Any = None


@worker_init.connect
def _note_worker(sender: Any = None, **kwargs: Any) -> None:
    global _worker
    _worker = sender


@worker_process_init.connect
def _pin_to_a_cpu(**kwargs: Any) -> None:
    """One match per core, when the pool has one process per CPU (``workers.cpus``).

    The pool's size is the worker's concurrency, settled (``-c``, or the CPU count) before
    the pool forks this process.
    """
    from billiard.process import current_process

    from workers.cpus import pin_pool_process

    index = getattr(current_process(), "index", None)
    size = getattr(_worker, "concurrency", None)
    if index is None or not isinstance(size, int):
        return
    cpu = pin_pool_process(index, size)
    if cpu is not None:
        log.info("pool process %d of %d plays its matches on CPU %d", index, size, cpu)


@worker_process_shutdown.connect
def _close_jail_pools(**kwargs: Any) -> None:
    """Kill the jails this pool process started ahead of its next match, and reap them, so
    a stopping worker leaves no cgroup or staged directory behind (``sandbox.pool``; a
    killed one's are removed by the next worker, by pid)."""
    from sandbox.pool import close_shared_pools

    close_shared_pools()
