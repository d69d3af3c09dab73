"""Reads that only the server-rendered pages need: home lists, sparklines, head-to-head.

Each function costs a fixed number of queries however many rows it returns (the pages'
query-count tests hold them to it): histories for a whole ladder page come in one
windowed query, head-to-head records are grouped by the database, never counted in Python.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from celery.schedules import crontab as celery_crontab
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import (
    Case,
    Count,
    F,
    FloatField,
    IntegerField,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
    Window,
)
from django.db.models.functions import Cast, RowNumber
from django.utils import timezone

from arena.models import Bot, BotVersion, Match, Rating, RatingHistory, TournamentSchedule
from arena.selectors.ladder import ladder_for_game
from arena.selectors.matches import match_list
from arena.services.errors import NotFound
from engine.registry import GAMES

__all__ = [
    "LADDER_SORTS",
    "GameLadder",
    "HeadToHead",
    "NextTournament",
    "bot_head_to_head",
    "bot_rating_history",
    "bot_recent_matches",
    "bot_versions_for_page",
    "home_ladders",
    "ladder_sorted",
    "next_scheduled_tournaments",
    "rating_sparklines",
    "recent_matches",
    "tournament_crosstable",
    "version_status",
]

log = logging.getLogger(__name__)

#: The ladder's sort keys (the ``sort`` query parameter): anything else falls back to score.
#: A leading "-" sorts descending; ``win_rate`` is annotated, the rest are Rating columns.
LADDER_SORTS = {
    "score": "score",
    "mu": "mu",
    "sigma": "sigma",
    "matches": "matches",
    "win_rate": "win_ratio",
}
DEFAULT_LADDER_SORT = "-score"


@dataclass(frozen=True, slots=True)
class GameLadder:
    game: str
    title: str
    top: list[Rating]


def home_ladders(*, per_game: int = 5) -> list[GameLadder]:
    """The top ``per_game`` bots of every game: one query per game the engine knows.

    The number of games is fixed by the engine's registry, not by the data, so the home
    page's query count stays constant as bots are added.
    """
    return [
        GameLadder(game=name, title=game.title, top=list(ladder_for_game(game=name)[:per_game]))
        for name, game in GAMES.items()
    ]


def ladder_sorted(*, game: str, sort: str | None) -> tuple[QuerySet[Rating], str]:
    """The game's ladder in the order ``sort`` asks for, and the sort key actually used.

    Only :data:`LADDER_SORTS` keys (optionally with a leading "-") are honoured: the value
    comes from the query string and must never reach ``order_by`` unchecked. The ``rank``
    column stays the rank by conservative score whatever the display order.
    """
    key = (sort or "").strip()
    field = LADDER_SORTS.get(key.removeprefix("-"))
    if field is None:
        key, field = DEFAULT_LADDER_SORT, LADDER_SORTS["score"]
    ratio = Case(
        When(matches=0, then=Value(None, output_field=FloatField())),
        default=Cast(F("wins"), FloatField()) / Cast(F("matches"), FloatField()),
        output_field=FloatField(),
    )
    # Bots without a value (no matches: no win rate) go last both ways, on every database.
    descending = key.startswith("-")
    expression = F(field).desc(nulls_last=True) if descending else F(field).asc(nulls_last=True)
    ladder = ladder_for_game(game=game).annotate(win_ratio=ratio)
    return ladder.order_by(expression, F("score").desc(), "id"), key


def rating_sparklines(
    *, bot_ids: Sequence[int], game: str, points: int = 20
) -> dict[int, list[float]]:
    """The last ``points`` conservative scores of each bot, oldest first, in one query.

    A window numbers each bot's history newest first and the database keeps only the first
    ``points`` rows per bot, so a page of 50 rows costs one query that returns at most
    50 x ``points`` rows, however long the histories are.
    """
    if not bot_ids:
        return {}
    rows = (
        RatingHistory.objects.filter(bot_id__in=list(bot_ids), game=game)
        .annotate(
            newest=Window(
                RowNumber(),
                partition_by=[F("bot_id")],
                order_by=[F("created").desc(), F("id").desc()],
            )
        )
        .filter(newest__lte=points)
        .order_by("bot_id", "created", "id")
        .values_list("bot_id", "score")
    )
    series: dict[int, list[float]] = defaultdict(list)
    for bot_id, score in rows:
        series[bot_id].append(score)
    return dict(series)


@dataclass(frozen=True, slots=True)
class NextTournament:
    schedule: TournamentSchedule
    crontab: str
    next_run: datetime | None


def next_scheduled_tournaments(
    *, now: datetime | None = None, limit: int = 3
) -> list[NextTournament]:
    """Enabled tournament schedules, soonest first, with the time each runs next.

    The next run comes from the schedule's django-celery-beat crontab (what beat will
    actually fire), falling back to the schedule's own crontab text while it has no task.
    One query: the task and its crontab are joined in.
    """
    now = now or timezone.now()
    schedules = (
        TournamentSchedule.objects.filter(enabled=True)
        .select_related("periodic_task__crontab")
        .order_by("name", "id")
    )
    found = []
    for schedule in schedules:
        task = schedule.periodic_task
        if task is not None and not task.enabled:
            continue
        fields, zone = _cron_fields(schedule)
        found.append(
            NextTournament(
                schedule=schedule,
                crontab=" ".join(fields.values()),
                next_run=_next_run(fields, zone, now),
            )
        )
    far = now + timedelta(days=3650)
    found.sort(key=lambda item: (item.next_run or far, item.schedule.name))
    return found[:limit]


_CRON_FIELDS = ("minute", "hour", "day_of_month", "month_of_year", "day_of_week")


def _cron_fields(schedule: TournamentSchedule) -> tuple[dict[str, str], Any]:
    task = schedule.periodic_task
    crontab = task.crontab if task is not None else None
    if crontab is not None:
        return {name: str(getattr(crontab, name)) for name in _CRON_FIELDS}, crontab.timezone
    parts = schedule.crontab.split()
    if len(parts) != len(_CRON_FIELDS):
        parts = ["?"] * len(_CRON_FIELDS)
    return dict(zip(_CRON_FIELDS, parts, strict=True)), ZoneInfo("UTC")


def _next_run(fields: Mapping[str, str], zone: Any, now: datetime) -> datetime | None:
    """When a crontab fires next after ``now`` (None if celery cannot read it)."""
    local_now = now.astimezone(zone)
    try:
        schedule = celery_crontab(**fields, nowfun=lambda: local_now)
        remaining = schedule.remaining_estimate(local_now)
    except (ValueError, TypeError, KeyError):
        log.warning("cannot compute the next run of crontab %r", dict(fields))
        return None
    # celery's estimate lands a few microseconds short of the minute: round to it.
    moment = local_now + remaining + timedelta(seconds=30)
    return moment.replace(second=0, microsecond=0)


def recent_matches(*, limit: int = 10) -> list[Match]:
    """The newest matches, any status, with both bots (one query)."""
    return list(match_list()[:limit])


# --- the bot page -------------------------------------------------------------------------


def bot_versions_for_page(
    *, bot: Bot, user: AbstractBaseUser | AnonymousUser
) -> QuerySet[BotVersion]:
    """The bot's versions, newest first; the owner-only logs are loaded for the owner only.

    Deferring the logs for everyone else keeps them out of memory (and out of any template
    mistake) on a page they must never appear on.
    """
    versions = BotVersion.objects.filter(bot=bot).order_by("-number")
    if user.is_authenticated and user.pk == bot.owner_id:
        return versions
    return versions.defer("validation_log", "error_output")


def version_status(*, bot_id: int, number: int) -> dict[str, Any]:
    """A version's public validation state, for the upload page to poll (one small query)."""
    row = (
        BotVersion.objects.filter(bot_id=bot_id, number=number)
        .values("number", "status", "validated_at")
        .first()
    )
    if row is None:
        raise NotFound(f"Bot {bot_id} has no version {number}.")
    return {
        "number": row["number"],
        "status": row["status"],
        "done": row["status"] != BotVersion.Status.PENDING,
        "validated_at": row["validated_at"].isoformat() if row["validated_at"] else None,
    }


@dataclass(frozen=True, slots=True)
class RatingPoint:
    created: datetime
    score: float
    mu: float
    sigma: float


def bot_rating_history(*, bot: Bot, limit: int = 200) -> list[RatingPoint]:
    """The bot's rating after each of its last ``limit`` rated matches, oldest first."""
    rows = (
        RatingHistory.objects.filter(bot=bot, game=bot.game)
        .order_by("-created", "-id")
        .values_list("created", "score", "mu", "sigma")[:limit]
    )
    return [RatingPoint(*row) for row in reversed(list(rows))]


def bot_recent_matches(*, bot: Bot, limit: int = 20) -> list[Match]:
    """The bot's newest matches in either seat (one query, both bots joined in)."""
    return list(match_list(filters={"bot": str(bot.pk)})[:limit])


@dataclass(frozen=True, slots=True)
class HeadToHead:
    opponent: Bot
    played: int
    wins: int
    draws: int
    losses: int
    match_points_for: int
    match_points_against: int


def bot_head_to_head(*, bot: Bot) -> list[HeadToHead]:
    """The bot's record against each opponent over its finished matches, most played first.

    The database groups the matches by opponent and counts wins, draws, losses and match
    points in one query; a second query fetches the opponents' names.
    """
    is_a = Q(bot_a_id=bot.pk)
    mine = Case(When(is_a, then=F("match_points_a")), default=F("match_points_b"))
    theirs = Case(When(is_a, then=F("match_points_b")), default=F("match_points_a"))
    won = (is_a & Q(outcome=Match.Outcome.A)) | (~is_a & Q(outcome=Match.Outcome.B))
    lost = (is_a & Q(outcome=Match.Outcome.B)) | (~is_a & Q(outcome=Match.Outcome.A))
    rows = list(
        Match.objects.filter(Q(bot_a_id=bot.pk) | Q(bot_b_id=bot.pk), status=Match.Status.DONE)
        .annotate(
            opponent=Case(
                When(is_a, then=F("bot_b_id")), default=F("bot_a_id"), output_field=IntegerField()
            )
        )
        .values("opponent")
        .annotate(
            played=Count("id"),
            wins=Count("id", filter=won),
            draws=Count("id", filter=Q(outcome=Match.Outcome.DRAW)),
            losses=Count("id", filter=lost),
            points_for=Sum(mine),
            points_against=Sum(theirs),
        )
        .order_by("-played", "opponent")
    )
    opponents = (
        Bot.objects.select_related("owner")
        .defer("description")
        .in_bulk([row["opponent"] for row in rows])
    )
    return [
        HeadToHead(
            opponent=opponents[row["opponent"]],
            played=row["played"],
            wins=row["wins"],
            draws=row["draws"],
            losses=row["losses"],
            match_points_for=row["points_for"] or 0,
            match_points_against=row["points_against"] or 0,
        )
        for row in rows
        if row["opponent"] in opponents
    ]


# --- tournaments --------------------------------------------------------------------------


def tournament_crosstable(standings: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The standings' crosstable as rows of cells in rank order, ready for a template.

    ``standings`` is what ``tournament_standings`` returns; each row is ``{"bot", "cells"}``
    and each cell ``{"self": True}`` on the diagonal, ``None`` for a pairing without a
    match, or the stored cell (``match``, ``status``, ``result``, ``match_points``).
    """
    names = {row["bot"]["id"]: row["bot"] for row in standings.get("rows", [])}
    table = standings.get("crosstable") or {}
    order: Iterable[int] = table.get("bots") or list(names)
    order = [bot_id for bot_id in order if bot_id in names]
    cells = table.get("cells") or {}
    return [
        {
            "bot": names[row_id],
            "cells": [
                {"self": True} if row_id == col_id else cells.get(f"{row_id}-{col_id}")
                for col_id in order
            ],
        }
        for row_id in order
    ]
