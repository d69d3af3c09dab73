"""gunicorn's settings for the arena's web process, sized to the machine it runs on.

Every way the arena starts gunicorn (``make run``, the Docker image, the benchmarks) reads
this file (``gunicorn -c python:arena.gunicorn_conf``), so they serve alike. Why threads:
a request spends much of its time waiting on PostgreSQL, so a few processes with several
threads each keep both cores busy with little memory; a slow client ties up one thread,
not a whole process. ``WEB_WORKERS`` and ``WEB_THREADS`` override the sizes.
"""

from __future__ import annotations

import os


def _count(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit() or int(value) < 1:
        raise SystemExit(f"arena: configuration error: {name} must be a positive whole number")
    return int(value)


_cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1

workers = _count("WEB_WORKERS", _cpus + 1)
threads = _count("WEB_THREADS", 4)
worker_class = "gthread"
keepalive = 5  # seconds a browser's idle connection is kept (behind a proxy: its pool's)
timeout = 30  # a worker silent this long is restarted
graceful_timeout = 10
# Refuse oversized request lines and headers before anything else reads them; the body
# cap is the proxy's (client_max_body_size) and Django's (arena.web.limits).
limit_request_line = 4094
limit_request_fields = 60
limit_request_field_size = 8190


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
