"""System checks: what the arena needs before it can serve, said in one line each.

The static files check matters only where pages are served: gunicorn runs it when it starts
(``arena.gunicorn_conf.on_starting``) and so does ``arena_up``, so a production start with no
collected static files stops with the command that fixes it instead of serving 500 pages.
Django runs it with ``check --deploy`` only: ``migrate`` or a worker need no static files, and
a deployment may well migrate before it collects.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.checks import Error, register

__all__ = ["static_files_collected"]

MANIFEST = "staticfiles.json"


def static_files_problem() -> str | None:
    """Why pages cannot be served with the manifest storage, or None."""
    backend = settings.STORAGES.get("staticfiles", {}).get("BACKEND", "")
    if "Manifest" not in backend:
        return None
    manifest = Path(settings.STATIC_ROOT) / MANIFEST
    if manifest.is_file():
        return None
    return (
        f"static files are not collected for production ({manifest} is missing): run "
        "`python manage.py collectstatic --noinput` (make run and the Docker image do it)"
    )


@register(deploy=True)
def static_files_collected(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    problem = static_files_problem()
    return [Error(problem, id="arena.E001")] if problem else []
