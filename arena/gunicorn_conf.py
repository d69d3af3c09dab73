"""gunicorn's settings for the arena's web process, sized to the machine it runs on.

Every way the arena starts gunicorn (``make run``, the Docker image, the benchmarks) reads
this file (``gunicorn -c python:arena.gunicorn_conf``), so they serve alike.

Why one process per core with two threads each: a request's time is mostly Python (the
database is near and quick), so more threads per process only queue on the GIL and stretch
the tail. Measured with ``benchmarks/web_load.py`` (50 clients, 2 cores, PostgreSQL):
2 processes x 2 threads served 856 req/s with p99 167 ms; x 4 threads 724-802 req/s, p99
199-239 ms; x 8 threads 736-761, p99 224-264; 3 x 4 (the former default) 707-756, p99
342-387. The second thread overlaps a request's waits on the database and the client; idle
keep-alive connections wait in the poller, not on a thread. ``WEB_WORKERS`` and
``WEB_THREADS`` override the sizes.
"""

from __future__ import annotations

import gc
import itertools
import os


def _count(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit() or int(value) < 1:
        raise SystemExit(f"arena: configuration error: {name} must be a positive whole number")
    return int(value)


_cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1

workers = _count("WEB_WORKERS", _cpus)
threads = _count("WEB_THREADS", 2)
worker_class = "gthread"
keepalive = 5  # seconds a browser's idle connection is kept (behind a proxy: its pool's)
timeout = 30  # a worker silent this long is restarted
graceful_timeout = 10
# Refuse oversized request lines and headers before anything else reads them; the body
# cap is the proxy's (client_max_body_size) and Django's (arena.web.limits).
limit_request_line = 4094
limit_request_fields = 60
limit_request_field_size = 8190
# No run-time control socket (~/.gunicorn/gunicorn.ctl): nothing here uses it, and two
# servers on one machine (the web and a benchmark, say) would fight over the one path.
control_socket_disable = True


def on_starting(server: object) -> None:
    """Refuse to start with pages that could only be 500s (no collected static files)."""
    import django

    # Before the app is loaded (arena.wsgi sets it too, later): the image's gunicorn runs
    # without a manage.py that would have set it.
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")
    django.setup()
    from arena.checks import static_files_problem

    problem = static_files_problem()
    if problem:
        raise SystemExit(f"arena: {problem}")


#: Requests a worker serves before freezing its heap a second time (see :func:`post_request`).
FREEZE_AFTER_REQUESTS = 200


def _freeze_heap() -> None:
    """Collect once, then move every object the process holds into the collector's permanent
    generation: its later passes skip them. A full pass walks every tracked object (the
    app's modules, URL patterns, compiled templates: some 150,000 in a worker), and it ran
    in the middle of a request: measured 0.2-0.8 s of wall time on a loaded 2-core machine,
    the slowest requests of a run."""
    gc.collect()
    gc.freeze()


def post_worker_init(worker: object) -> None:
    """Freeze what loading the app made (:func:`_freeze_heap`)."""
    _freeze_heap()


_served = itertools.count(1)


def post_request(worker: object, req: object, environ: object, resp: object) -> None:
    """After the worker's first :data:`FREEZE_AFTER_REQUESTS` requests, freeze again: what
    Django builds on first use (URL resolvers, compiled templates, the database's and the
    cache's connections) lives as long as the worker too. Once per worker; ``next`` on a
    shared counter is atomic under the GIL, so of the worker's threads one freezes."""
    if next(_served) == FREEZE_AFTER_REQUESTS:
        _freeze_heap()
