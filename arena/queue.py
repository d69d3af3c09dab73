"""The task queue as the arena writes to it: tasks are sent by name, and the workers' own
code is never imported here (``workers.tasks`` imports the services, not the other way).

One Celery app, configured from the Django settings (every ``CELERY_*`` name); the workers
(``workers/celery.py``) run the same app with their tasks and worker-side behaviour added.
Sending by name routes like a task's own ``apply_async`` (``CELERY_TASK_ROUTES`` are by
name). With ``CELERY_TASK_ALWAYS_EAGER`` (the tests) a task runs here and now instead: the
task modules the settings list (``CELERY_IMPORTS``) are loaded by name for it.
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery

__all__ = ["app", "task_send"]

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")

app = Celery("arena")
app.config_from_object("django.conf:settings", namespace="CELERY")


@app.on_after_configure.connect
def _make_filesystem_queue(sender: Celery, **kwargs: Any) -> None:
    """The filesystem broker (no REDIS_URL) needs its folders before anyone sends or reads."""
    if not str(sender.conf.broker_url).startswith("filesystem://"):
        return
    options = sender.conf.broker_transport_options or {}
    for key in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder"):
        if options.get(key):
            os.makedirs(options[key], exist_ok=True)


def task_send(name: str, args: tuple[Any, ...] = (), *, countdown: float | None = None) -> None:
    """Queue the task named ``name`` (``workers.tasks.<name>``) with ``args``."""
    if app.conf.task_always_eager:
        if name not in app.tasks:
            app.loader.import_default_modules()  # CELERY_IMPORTS: the tasks, by name
        app.tasks[name].apply_async(args=args, countdown=countdown)
        return
    app.send_task(name, args=args, countdown=countdown)
