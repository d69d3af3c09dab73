"""Reads of organisers' schedules: the crontab in words, the next due times, past runs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, QuerySet
from django.utils import timezone

from arena.crontabs import CRON_FIELDS, CrontabError, crontab_describe, next_due_times
from arena.errors import NotFound
from arena.models import Tournament, TournamentSchedule

__all__ = [
    "NextTournament",
    "ScheduleRun",
    "ScheduleView",
    "next_scheduled_tournaments",
    "schedule_get",
    "schedule_list",
    "schedule_runs",
    "schedule_view",
]


def schedule_list() -> QuerySet[TournamentSchedule]:
    return TournamentSchedule.objects.select_related("created_by").order_by("name", "id")


def schedule_get(*, schedule_id: int) -> TournamentSchedule:
    schedule = (
        TournamentSchedule.objects.select_related("created_by", "periodic_task__crontab")
        .filter(pk=schedule_id)
        .first()
    )
    if schedule is None:
        raise NotFound(f"There is no schedule {schedule_id}.")
    return schedule


def _fired_crontab(schedule: TournamentSchedule) -> str:
    """The crontab beat fires: its PeriodicTask's (joined in), else the schedule's own."""
    task = schedule.periodic_task
    crontab = task.crontab if task is not None else None
    if crontab is not None:
        return " ".join(str(getattr(crontab, name)) for name in CRON_FIELDS)
    return schedule.crontab


def _paused(schedule: TournamentSchedule) -> bool:
    task = schedule.periodic_task
    return not schedule.enabled or (task is not None and not task.enabled)


@dataclass(frozen=True, slots=True)
class ScheduleView:
    """A schedule as its pages show it: the crontab in words and its next due times."""

    schedule: TournamentSchedule
    crontab: str
    described: str
    next_runs: list[datetime]
    paused: bool

    @property
    def next_run(self) -> datetime | None:
        return self.next_runs[0] if self.next_runs else None


def schedule_view(
    *, schedule: TournamentSchedule, now: datetime | None = None, count: int = 3
) -> ScheduleView:
    crontab = _fired_crontab(schedule)
    paused = _paused(schedule)
    try:
        described = crontab_describe(crontab)
        runs = [] if paused else next_due_times(crontab, after=now or timezone.now(), count=count)
    except CrontabError:
        described, runs = f"not a crontab the arena can read ({crontab})", []
    return ScheduleView(schedule, crontab, described, runs, paused)


@dataclass(frozen=True, slots=True)
class NextTournament:
    schedule: TournamentSchedule
    crontab: str
    next_run: datetime | None
    paused: bool = False  # the organiser switched it off: shown as paused, with no next run
    described: str = ""


def next_scheduled_tournaments(
    *, now: datetime | None = None, limit: int = 3, include_paused: bool = False
) -> list[NextTournament]:
    """Tournament schedules, soonest first, with the time each runs next; paused ones
    (``include_paused``) after them, marked.

    The next run comes from the schedule's django-celery-beat crontab (what beat will
    actually fire), falling back to the schedule's own crontab text while it has no task.
    One query: the task and its crontab are joined in.
    """
    now = now or timezone.now()
    schedules = TournamentSchedule.objects.select_related("periodic_task__crontab").order_by(
        "name", "id"
    )
    if not include_paused:
        schedules = schedules.filter(enabled=True)
    found = []
    for schedule in schedules:
        view = schedule_view(schedule=schedule, now=now, count=1)
        if view.paused and not include_paused:
            continue
        found.append(
            NextTournament(
                schedule=schedule,
                crontab=view.crontab,
                next_run=view.next_run,
                paused=view.paused,
                described=view.described,
            )
        )
    far = now + timedelta(days=3650)
    found.sort(key=lambda item: (item.paused, item.next_run or far, item.schedule.name))
    return found[:limit]


@dataclass(frozen=True, slots=True)
class ScheduleRun:
    """One tournament a schedule ran, with its result."""

    tournament: Tournament
    winner: Mapping[str, Any] | None  # the first row's bot, once finished
    entrants: int


def schedule_runs(*, schedule: TournamentSchedule, limit: int = 50) -> list[ScheduleRun]:
    """The schedule's tournaments, newest first, each with its winner once finished."""
    tournaments = (
        schedule.tournaments.annotate(entry_count=Count("entries"))
        .order_by("-scheduled_for", "-id")
        .only("pk", "name", "status", "scheduled_for", "started_at", "finished_at", "standings")
    )[:limit]
    runs = []
    for tournament in tournaments:
        rows = (tournament.standings or {}).get("rows") or []
        winner = rows[0]["bot"] if rows and tournament.status == "finished" else None
        runs.append(ScheduleRun(tournament, winner, tournament.entry_count))
    return runs
