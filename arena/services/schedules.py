"""Scheduled tournaments and the arena's own periodic tasks, kept in django-celery-beat.

Each TournamentSchedule owns one PeriodicTask (a CrontabSchedule from its 5-field string)
that calls ``run_scheduled_tournament(schedule_id)``. The services below keep the two in
step, and so does a ``post_save`` / ``post_delete`` signal for edits made elsewhere (the
Django admin): importing this module connects it, which ``ArenaConfig.ready`` should do.

The arena's periodic jobs (the ladder tick, the stuck-match sweeper) are rows of the same
table, written by :func:`periodic_tasks_install`; celery beat runs it when it starts (see
``workers/celery.py``) and ``arena_setup`` may call it too. It is idempotent.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from celery.schedules import crontab as celery_crontab
from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.utils import timezone
from django_celery_beat.models import (
    CrontabSchedule,
    IntervalSchedule,
    PeriodicTask,
    PeriodicTasks,
)

from arena.models import Tournament, TournamentSchedule
from arena.services.errors import InvalidInput, NotFound
from arena.services.tournaments import (
    tournament_create,
    tournament_participants,
    tournament_start,
)
from engine.registry import GAMES

__all__ = [
    "PERIODIC_TASKS",
    "crontab_parse",
    "periodic_tasks_install",
    "schedule_create",
    "schedule_delete",
    "schedule_run",
    "schedule_update",
]

log = logging.getLogger(__name__)

SCHEDULE_TASK = "workers.tasks.run_scheduled_tournament"
_CRON_FIELDS = ("minute", "hour", "day_of_month", "month_of_year", "day_of_week")
#: The arena's own periodic jobs: PeriodicTask name -> (task, every N seconds).
PERIODIC_TASKS = {
    "arena: ladder tick": ("workers.tasks.ladder_tick", 60),
    "arena: sweep stuck matches": ("workers.tasks.sweep_stuck_matches", 60),
}


def crontab_parse(value: str) -> dict[str, str]:
    """The five fields of a crontab string by CrontabSchedule name; InvalidInput if bad.

    >>> crontab_parse("0 3 * * *")["hour"]
    '3'
    """
    parts = (value or "").split()
    if len(parts) != len(_CRON_FIELDS):
        raise InvalidInput(
            f"crontab {value!r} must have 5 fields: minute hour day-of-month month day-of-week",
            code="bad_crontab",
        )
    fields = dict(zip(_CRON_FIELDS, parts, strict=True))
    try:
        celery_crontab(**fields)  # celery's own parser: ranges, steps, names
    except (ValueError, TypeError) as exc:
        raise InvalidInput(f"crontab {value!r} is not valid: {exc}", code="bad_crontab") from None
    return fields


def _crontab_schedule(value: str) -> CrontabSchedule:
    schedule, _ = CrontabSchedule.objects.get_or_create(
        **crontab_parse(value), timezone=settings.TIME_ZONE
    )
    return schedule


def _task_name(schedule: TournamentSchedule) -> str:
    return f"arena: tournament schedule {schedule.pk}"


def _periodic_task_sync(schedule: TournamentSchedule) -> PeriodicTask:
    """Create or update the schedule's PeriodicTask. Raises InvalidInput for a bad crontab."""
    crontab = _crontab_schedule(schedule.crontab)
    task = schedule.periodic_task or PeriodicTask.objects.filter(name=_task_name(schedule)).first()
    task = task or PeriodicTask(name=_task_name(schedule))
    task.task = SCHEDULE_TASK
    task.args = json.dumps([schedule.pk])
    task.crontab, task.interval = crontab, None
    task.enabled = schedule.enabled
    task.description = f"Tournament schedule: {schedule.name} ({schedule.game})"
    task.save()  # save(), not update(): beat notices changes through PeriodicTasks.changed
    if schedule.periodic_task_id != task.pk:
        # update(), not save(): no second post_save for the schedule.
        TournamentSchedule.objects.filter(pk=schedule.pk).update(periodic_task=task)
        schedule.periodic_task = task
    return task


def _check(name: str, game: str) -> None:
    if game not in GAMES:
        raise InvalidInput(f"unknown game {game!r}", code="unknown_game")
    if not (name or "").strip() or len(name) > 100:
        raise InvalidInput("a schedule name is 1-100 characters", code="bad_name")


def schedule_create(
    *, name: str, game: str, crontab: str, enabled: bool = True, created_by: Any = None
) -> TournamentSchedule:
    """A recurring tournament: each crontab tick creates and starts one."""
    _check(name, game)
    crontab_parse(crontab)
    with transaction.atomic():
        schedule = TournamentSchedule.objects.create(
            name=name.strip(),
            game=game,
            crontab=" ".join(crontab.split()),
            enabled=enabled,
            created_by=created_by,
        )
        _periodic_task_sync(schedule)
    return schedule


def schedule_update(*, schedule: TournamentSchedule, **fields: Any) -> TournamentSchedule:
    """Change name, game, crontab and/or enabled; the PeriodicTask follows."""
    unknown = set(fields) - {"name", "game", "crontab", "enabled"}
    if unknown:
        raise InvalidInput(f"cannot update {', '.join(sorted(unknown))}", code="bad_field")
    if "crontab" in fields:
        crontab_parse(fields["crontab"])
        fields["crontab"] = " ".join(fields["crontab"].split())
    _check(fields.get("name", schedule.name), fields.get("game", schedule.game))
    with transaction.atomic():
        # Under the row lock, and from the database: a schedule deleted meanwhile (a
        # concurrent DELETE) is a 404, not re-inserted by save() without its task.
        locked = TournamentSchedule.objects.select_for_update().filter(pk=schedule.pk).first()
        if locked is None:
            raise NotFound("no such schedule")
        for name, value in fields.items():
            setattr(locked, name, value)
        locked.save()
        _periodic_task_sync(locked)
    return locked


def schedule_delete(*, schedule: TournamentSchedule) -> None:
    """Delete the schedule and its PeriodicTask; its past tournaments stay."""
    with transaction.atomic():
        locked = TournamentSchedule.objects.select_for_update().filter(pk=schedule.pk).first()
        if locked is None:
            return  # deleted meanwhile: nothing left to do
        task_id = locked.periodic_task_id
        locked.delete()
        if task_id:
            PeriodicTask.objects.filter(pk=task_id).delete()


def schedule_run(*, schedule_id: int) -> Tournament | None:
    """Create and start this tick's tournament (once per schedule and minute).

    None when the schedule is gone or disabled, or fewer than two bots can play.
    """
    with transaction.atomic():
        schedule = TournamentSchedule.objects.select_for_update().filter(pk=schedule_id).first()
        if schedule is None or not schedule.enabled:
            return None
        slot = timezone.now().replace(second=0, microsecond=0)
        existing = schedule.tournaments.filter(scheduled_for=slot).first()
        if existing is not None:
            return existing  # a duplicate delivery of the same tick
        if len(tournament_participants(game=schedule.game)) < 2:
            log.warning("schedule=%s skipped: fewer than 2 bots can play", schedule.pk)
            return None
        tournament = tournament_create(
            name=f"{schedule.name} {slot:%Y-%m-%d %H:%M}"[:100],
            game=schedule.game,
            created_by=schedule.created_by,
            schedule=schedule,
        )
        Tournament.objects.filter(pk=tournament.pk).update(scheduled_for=slot)
        return tournament_start(tournament_id=tournament.pk)


def periodic_tasks_install() -> list[PeriodicTask]:
    """Create or update the arena's periodic jobs in django-celery-beat (idempotent)."""
    tasks = []
    with transaction.atomic():
        for name, (task_name, every_s) in PERIODIC_TASKS.items():
            interval, _ = IntervalSchedule.objects.get_or_create(
                every=every_s, period=IntervalSchedule.SECONDS
            )
            task, created = PeriodicTask.objects.get_or_create(
                name=name, defaults={"task": task_name, "interval": interval}
            )
            if created or task.task != task_name or task.interval_id != interval.pk:
                task.task, task.interval, task.crontab = task_name, interval, None
                task.save()  # an operator's enabled=False is kept
            tasks.append(task)
    return tasks


# --- keeping admin edits in step ----------------------------------------------------------


def _on_schedule_saved(
    sender: Any, instance: TournamentSchedule, raw: bool = False, **_: Any
) -> None:
    if raw:
        return  # loaddata
    try:
        _periodic_task_sync(instance)
    except InvalidInput as exc:
        # The admin form should have refused it (crontab_parse is its validator); never
        # leave a task running on the old crontab while the row says otherwise.
        log.error("schedule=%s has a bad crontab, its task is disabled: %s", instance.pk, exc)
        PeriodicTask.objects.filter(pk=instance.periodic_task_id).update(enabled=False)
        PeriodicTasks.update_changed()  # update() skips the signal that tells beat


def _on_schedule_deleted(sender: Any, instance: TournamentSchedule, **_: Any) -> None:
    if instance.periodic_task_id:
        PeriodicTask.objects.filter(pk=instance.periodic_task_id).delete()


post_save.connect(_on_schedule_saved, sender=TournamentSchedule, dispatch_uid="arena_schedule_sync")
post_delete.connect(
    _on_schedule_deleted, sender=TournamentSchedule, dispatch_uid="arena_schedule_delete"
)
