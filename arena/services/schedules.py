"""Scheduled tournaments and the arena's own periodic tasks, kept in django-celery-beat.

Each TournamentSchedule owns one PeriodicTask (a CrontabSchedule from its 5-field string)
that calls ``run_scheduled_tournament(schedule_id, sent_at=...)``. The services below keep
the two in step, and so does a ``post_save`` / ``post_delete`` signal for edits made elsewhere
(the Django admin): importing this module connects it, which ``ArenaConfig.ready`` does.

**One tournament per due time.** A run is keyed by (schedule, due time), and the database
enforces one tournament per key. The due time comes from the crontab, not from when the
task happens to run: beat tells the task when it sent it (``workers.beat.ArenaScheduler``),
so a delivery that waited in the queue while the workers were down still runs the due time
it was sent for, and two late deliveries make two tournaments, not one.

**Catch-up policy.** A delivery that is not for a due time (beat firing at once after a crash,
a task sent by hand) runs the *latest* due time that has no tournament yet, if that due time
is after the schedule was made or its crontab last changed (``due_after``); older missed due
times are skipped with a log line. Anything else does nothing and says so in the log.
Editing a crontab only changes future due times: ``due_after`` moves to now, and so does the
PeriodicTask's ``last_run_at``, so beat does not fire at once for a due time of the new
crontab that already passed.

The arena's periodic jobs (the ladder tick, the stuck-match sweeper) are rows of the same
table, written by :func:`periodic_tasks_install`; celery beat runs it when it starts (see
``workers/celery.py``) and ``arena_setup`` may call it too. It is idempotent.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models.signals import post_delete, post_save
from django.utils import timezone
from django_celery_beat.models import (
    CrontabSchedule,
    IntervalSchedule,
    PeriodicTask,
    PeriodicTasks,
)

from arena import crontabs
from arena.algorithms.tournament_options import SCHEDULE_OPTIONS
from arena.errors import InvalidInput, NotFound
from arena.models import Tournament, TournamentSchedule
from arena.services.tournaments import (
    tournament_create,
    tournament_options_check,
    tournament_participants,
    tournament_start,
)
from engine.registry import GAMES

__all__ = [
    "PERIODIC_TASKS",
    "crontab_parse",
    "due_times",
    "periodic_tasks_install",
    "schedule_create",
    "schedule_delete",
    "schedule_options_check",
    "schedule_run",
    "schedule_update",
]

log = logging.getLogger(__name__)

SCHEDULE_TASK = "workers.tasks.run_scheduled_tournament"
#: The arena's own periodic jobs: PeriodicTask name -> (task, every N seconds).
PERIODIC_TASKS = {
    "arena: ladder tick": ("workers.tasks.ladder_tick", 60),
    "arena: sweep stuck matches": ("workers.tasks.sweep_stuck_matches", 60),
    "arena: refit due ratings": ("workers.tasks.refit_due_ratings", 60),
    # A sign-up tournament starts within seconds of its deadline (on the control queue).
    "arena: start due tournaments": ("workers.tasks.start_due_tournaments", 5),
    "arena: clean up playground runs": ("workers.tasks.clean_up_playground", 3600),
}


def crontab_parse(value: str) -> dict[str, str]:
    """The five fields of a crontab string (``arena.crontabs``); InvalidInput if bad.

    >>> crontab_parse("0 3 * * *")["hour"]
    '3'
    """
    try:
        return crontabs.crontab_parse(value)
    except crontabs.CrontabError as exc:
        raise InvalidInput(
            exc.message, code="bad_crontab", extra={"fields": {"crontab": [exc.message]}}
        ) from None


def _crontab_schedule(value: str) -> CrontabSchedule:
    schedule, _ = CrontabSchedule.objects.get_or_create(
        **crontab_parse(value), timezone=settings.TIME_ZONE
    )
    return schedule


def _task_name(schedule: TournamentSchedule) -> str:
    return f"arena: tournament schedule {schedule.pk}"


def _periodic_task_sync(schedule: TournamentSchedule, *, restart: bool = False) -> PeriodicTask:
    """Create or update the schedule's PeriodicTask. Raises InvalidInput for a bad crontab.

    ``restart`` (a new crontab): beat counts the next due time from now, not from the last
    run under the old crontab (which would make it fire at once)."""
    crontab = _crontab_schedule(schedule.crontab)
    task = schedule.periodic_task or PeriodicTask.objects.filter(name=_task_name(schedule)).first()
    task = task or PeriodicTask(name=_task_name(schedule))
    if task.pk is not None and (restart or task.crontab_id != crontab.pk):
        task.last_run_at = timezone.now()
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
        raise InvalidInput(
            f"unknown game {game!r}",
            code="unknown_game",
            extra={"fields": {"game": [f"unknown game {game!r}"]}},
        )
    if not (name or "").strip() or len(name) > 100:
        message = "a schedule name is 1-100 characters"
        raise InvalidInput(message, code="bad_name", extra={"fields": {"name": [message]}})


def schedule_options_check(*, game: str, entry: str = Tournament.Entry.ALL, **options: Any) -> None:
    """InvalidInput naming every bad option of a schedule's tournaments: the tournaments'
    own check (``tournament_options_check``, as the tournament API, forms and admin make it),
    and no sign-up entry, which needs a deadline a recurring tournament does not have."""
    if game not in GAMES:
        raise InvalidInput(
            f"unknown game {game!r}",
            code="unknown_game",
            extra={"fields": {"game": ["unknown game"]}},
        )
    if entry != Tournament.Entry.SIGNUP:
        tournament_options_check(game=game, entry=entry, **options)
        return
    message = (
        "a schedule's tournaments start at their due time, so they take no sign-ups; "
        "use entry all or top"
    )
    fields: dict[str, Any] = {"entry": [message]}
    try:  # the other options, as they would be with an entry a schedule may have
        tournament_options_check(game=game, entry=Tournament.Entry.ALL, **options)
    except InvalidInput as exc:
        fields.update(exc.field_messages())
    raise InvalidInput(message, code="bad_entry", extra={"fields": fields})


def schedule_create(
    *,
    name: str,
    game: str,
    crontab: str,
    enabled: bool = True,
    created_by: Any = None,
    **options: Any,
) -> TournamentSchedule:
    """A recurring tournament: each crontab tick creates and starts one, with ``options``
    (``SCHEDULE_OPTIONS``, as ``tournament_create`` takes them; the defaults are a rated
    round robin of every bot at the game's smallest table)."""
    unknown = set(options) - set(SCHEDULE_OPTIONS)
    if unknown:
        raise InvalidInput(f"unknown option {', '.join(sorted(unknown))}", code="bad_field")
    _check(name, game)
    crontab_parse(crontab)
    schedule_options_check(game=game, **options)
    with transaction.atomic():
        schedule = TournamentSchedule.objects.create(
            name=name.strip(),
            game=game,
            crontab=" ".join(crontab.split()),
            enabled=enabled,
            created_by=created_by,
            **options,
        )
        _periodic_task_sync(schedule)
    return schedule


def schedule_update(*, schedule: TournamentSchedule, **fields: Any) -> TournamentSchedule:
    """Change name, crontab, enabled and/or the options (``SCHEDULE_OPTIONS``); the
    PeriodicTask follows. The options are checked together, as they will be when a
    tournament is created with them. A new crontab (or re-enabling) only changes future
    due times; new options apply from the next tournament on."""
    unknown = set(fields) - {"name", "crontab", "enabled", "game", *SCHEDULE_OPTIONS}
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
        schedule_options_check(**{**locked.options(), **_options(fields)})
        restart = (fields.get("crontab", locked.crontab) != locked.crontab) or (
            bool(fields.get("enabled")) and not locked.enabled
        )
        for name, value in fields.items():
            setattr(locked, name, value)
        if restart:
            locked.due_after = timezone.now()
        locked.save()
        _periodic_task_sync(locked, restart=restart)
    return locked


def _options(fields: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in fields.items() if name in ("game", *SCHEDULE_OPTIONS)}


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


def due_times(crontab: str, *, after: datetime, until: datetime) -> Iterator[datetime]:
    """The crontab's due times in (``after``, ``until``], latest first (``arena.crontabs``)."""
    crontab_parse(crontab)
    return crontabs.due_times(crontab, after=after, until=until)


def _due_for(schedule: TournamentSchedule, sent_at: datetime) -> tuple[datetime | None, str]:
    """The due time a delivery sent at ``sent_at`` is for, and why (for the log)."""
    sent = sent_at.astimezone(UTC).replace(second=0, microsecond=0)
    latest = next(due_times(schedule.crontab, after=schedule.due_after, until=sent), None)
    if latest is None:
        return None, "no due time since the schedule was made or its crontab last changed"
    if latest == sent:
        return latest, "due"
    if schedule.tournaments.filter(scheduled_for=latest).exists():
        return None, f"not a due time ({sent:%Y-%m-%d %H:%M}); {latest:%H:%M} already ran"
    return latest, f"catch-up: the latest missed due time {latest:%Y-%m-%d %H:%M}"


def schedule_run(*, schedule_id: int, sent_at: datetime | str | None = None) -> Tournament | None:
    """Create and start the tournament of the due time this delivery is for (see the module
    docstring); None when there is none, the schedule is gone or disabled, or too few bots
    can play. A delivery for a due time that already has its tournament returns it."""
    if isinstance(sent_at, str):
        sent_at = datetime.fromisoformat(sent_at)
    sent_at = sent_at or timezone.now()
    with transaction.atomic():
        schedule = TournamentSchedule.objects.select_for_update().filter(pk=schedule_id).first()
        if schedule is None or not schedule.enabled:
            log.info("schedule=%s outcome=skipped reason=gone or disabled", schedule_id)
            return None
        due, why = _due_for(schedule, sent_at)
        if due is None:
            log.info("schedule=%s outcome=skipped reason=%s", schedule_id, why)
            return None
        existing = schedule.tournaments.filter(scheduled_for=due).first()
        if existing is not None:
            log.info(
                "schedule=%s due=%s outcome=duplicate tournament=%s", schedule_id, due, existing.pk
            )
            return existing  # a duplicate delivery of the same tick
        least = GAMES[schedule.game].min_players if schedule.game in GAMES else 2
        if len(tournament_participants(game=schedule.game)) < least:
            log.warning(
                "schedule=%s due=%s skipped: fewer than %d bots can play", schedule.pk, due, least
            )
            return None
        try:
            with transaction.atomic():
                tournament = tournament_create(
                    name=f"{schedule.name} {due:%Y-%m-%d %H:%M}"[:100],
                    created_by=schedule.created_by,
                    schedule=schedule,
                    **schedule.options(),
                )
                Tournament.objects.filter(pk=tournament.pk).update(scheduled_for=due)
        except IntegrityError:  # another delivery for the same due time won the race
            return schedule.tournaments.filter(scheduled_for=due).first()
        except InvalidInput as exc:
            # Options valid when saved can stop being so (a game's seat counts changed):
            # say so in the log rather than failing the task on every tick.
            log.error("schedule=%s due=%s outcome=refused reason=%s", schedule_id, due, exc)
            return None
        log.info(
            "schedule=%s due=%s outcome=started (%s) tournament=%s",
            schedule_id,
            due,
            why,
            tournament.pk,
        )
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
