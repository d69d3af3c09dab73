"""Queueing Celery tasks from services, only once the current transaction commits.

A task queued inside a transaction that later rolls back would run against rows that do not
exist; one queued before commit could run before its rows are visible to the worker. So
every service queues work through :func:`enqueue`, which waits for the commit. Tasks are
addressed by name (``arena.queue``): ``workers.tasks`` imports the services, never the other
way round.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from django.db import transaction

from arena.queue import task_send

__all__ = ["enqueue"]

log = logging.getLogger(__name__)


def enqueue(task_name: str, *args: Any, countdown: float | None = None) -> None:
    """Queue ``workers.tasks.<task_name>(*args)`` after the current transaction commits."""
    transaction.on_commit(partial(_send, task_name, args, countdown))


def _send(task_name: str, args: tuple[Any, ...], countdown: float | None) -> None:
    try:
        task_send(f"workers.tasks.{task_name}", args, countdown=countdown)
    except Exception:
        # The row stays queued; the periodic sweeper (workers) picks it up again.
        log.exception("could not queue %s%r", task_name, args)
