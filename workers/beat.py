"""Celery beat's scheduler: django-celery-beat's, telling scheduled tournaments their due time.

Beat sends a schedule's task when its crontab comes due, but the task cannot know when that
was: a message delivered late (the workers were down), a beat that fired at once after a
crash, or a task sent by hand all arrive "now". This scheduler adds the time it sent the task
(``sent_at``), so the task can tell which due time the delivery is for
(``arena.services.schedules.schedule_run``).
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django_celery_beat.schedulers import DatabaseScheduler

from arena.services.schedules import SCHEDULE_TASK

__all__ = ["ArenaScheduler"]


class ArenaScheduler(DatabaseScheduler):
    def apply_async(self, entry: Any, producer: Any = None, advance: bool = True, **kwargs: Any):
        entry = self.reserve(entry) if advance else entry
        if entry.task == SCHEDULE_TASK:
            entry.kwargs = {**(entry.kwargs or {}), "sent_at": timezone.now().isoformat()}
        return super().apply_async(entry, producer, advance=False, **kwargs)
