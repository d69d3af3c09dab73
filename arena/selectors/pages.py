"""Reads that only the server-rendered pages need: the games, home lists, sparklines, a
version's rank, head-to-head.

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
from django.db import connection
from django.db.models import (
    Case,
    F,
    FloatField,
    QuerySet,
    Value,
    When,
    Window,
)
from django.db.models.functions import Cast, RowNumber
from django.utils import timezone

from arena.models import (
    Bot,
    BotVersion,
    Match,
    MatchSeat,
    Rating,
    RatingHistory,
    TournamentSchedule,
)
from arena.selectors.ladder import ladder_for_game, ladder_rank
from arena.selectors.matches import match_list
from arena.services.errors import NotFound
from engine.game import Game
from engine.registry import GAMES

__all__ = [
    "LADDER_SORTS",
    "GameLadder",
    "HeadToHead",
    "NextTournament",
    "StarterBot",
    "bot_brief",
    "bot_head_to_head",
    "bot_head_to_head_table",
    "bot_rating_history",
    "bot_recent_match_ids",
    "bot_recent_matches",
    "bot_versions_for_page",
    "game_get",
    "game_starter_bot",
    "home_ladders",
    "ladder_sorted",
    "next_scheduled_tournaments",
    "rating_sparklines",
    "recent_matches",
    "tournament_crosstable",
    "tournament_rounds",
    "version_rank",
    "version_status",
]

log = logging.getLogger(__name__)

#: The ladder's sort keys (the ``sort`` query parameter): anything else falls back to the
#: rating. A leading "-" sorts descending; ``win_rate`` (first place alone) and ``placing``
#: (the mean placing, 0 = first) are annotated, the rest are Rating columns (``interval``:
#: the width of the rating's 95% interval, its sigma).
LADDER_SORTS = {
    "rating": "rating",
    "interval": "rating_sigma",
    "matches": "matches",
    "win_rate": "win_ratio",
    "placing": "mean_rank",
}
DEFAULT_LADDER_SORT = "-rating"


# --- games ---------------------------------------------------------------------------------


def game_get(*, game: str) -> Game:
    """A hosted game by name, or NotFound (the site's own 404 for a made-up name)."""
    found = GAMES.get(game)
    if found is None:
        raise NotFound(f"There is no game {game!r}.", code="unknown_game")
    return found


@dataclass(frozen=True, slots=True)
class StarterBot:
    filename: str
    source: bytes


def game_starter_bot(*, game: str) -> StarterBot:
    """The game's ``starter`` built-in bot: the commented file a new author copies."""
    path = game_get(game=game).builtin_bots().get("starter")
    if path is None or not path.is_file():
        raise NotFound(f"The game {game!r} has no starter bot.", code="no_starter")
    return StarterBot(filename=f"{game}_starter_bot.py", source=path.read_bytes())


@dataclass(frozen=True, slots=True)
class GameLadder:
    game: str
    title: str
    summary: str
    min_players: int
    max_players: int
    top: list[Rating]


def home_ladders(*, per_game: int = 5) -> list[GameLadder]:
    """Every hosted game, in the registry's order, with the top ``per_game`` of its ladder:
    one query per game the engine knows.

    The number of games is fixed by the engine's registry, not by the data, so the home
    page's query count stays constant as bots are added.
    """
    return [
        GameLadder(
            game=name,
            title=game.title,
            summary=game.summary,
            min_players=game.min_players,
            max_players=game.max_players,
            top=list(ladder_for_game(game=name)[:per_game]),
        )
        for name, game in GAMES.items()
    ]


def ladder_sorted(*, game: str, sort: str | None) -> tuple[QuerySet[Rating], str]:
    """The game's ladder in the order ``sort`` asks for, and the sort key actually used.

    Only :data:`LADDER_SORTS` keys (optionally with a leading "-") are honoured: the value
    comes from the query string and must never reach ``order_by`` unchecked. The ``rank``
    column stays the rank by rating whatever the display order.
    """
    key = (sort or "").strip()
    field = LADDER_SORTS.get(key.removeprefix("-"))
    if field is None:
        key, field = DEFAULT_LADDER_SORT, LADDER_SORTS["rating"]
    ratio, place = (
        Case(
            When(matches=0, then=Value(None, output_field=FloatField())),
            default=Cast(F(field_name), FloatField()) / Cast(F("matches"), FloatField()),
            output_field=FloatField(),
        )
        for field_name in ("wins", "placing_sum")
    )
    # Bots without a value (no matches: no win rate) go last both ways, on every database.
    descending = key.startswith("-")
    expression = F(field).desc(nulls_last=True) if descending else F(field).asc(nulls_last=True)
    # The mean rank (0 = first) sorts as the mean place does; pages show ``Rating.mean_place``.
    ladder = ladder_for_game(game=game).annotate(win_ratio=ratio, mean_rank=place)
    return ladder.order_by(expression, F("rating").desc(), "id"), key


def rating_sparklines(*, version_ids: Sequence[int], points: int = 20) -> dict[int, list[float]]:
    """The displayed rating after each of the last ``points`` rated matches of each version
    (those a refit has reached), oldest first, in one query.

    A window numbers each version's history newest first and the database keeps only the
    first ``points`` rows per version, so a page of 50 rows costs one query that returns at
    most 50 x ``points`` rows, however long the histories are.
    """
    if not version_ids:
        return {}
    rows = (
        RatingHistory.objects.filter(version_id__in=list(version_ids), rating__isnull=False)
        .annotate(
            newest=Window(
                RowNumber(),
                partition_by=[F("version_id")],
                order_by=[F("created").desc(), F("id").desc()],
            )
        )
        .filter(newest__lte=points)
        .order_by("version_id", "created", "id")
        .values_list("version_id", "rating")
    )
    series: dict[int, list[float]] = defaultdict(list)
    for version_id, rating in rows:
        series[version_id].append(rating)
    return dict(series)


@dataclass(frozen=True, slots=True)
class NextTournament:
    schedule: TournamentSchedule
    crontab: str
    next_run: datetime | None
    paused: bool = False  # the organiser switched it off: shown as paused, with no next run


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
        task = schedule.periodic_task
        paused = not schedule.enabled or (task is not None and not task.enabled)
        if paused and not include_paused:
            continue
        fields, zone = _cron_fields(schedule)
        found.append(
            NextTournament(
                schedule=schedule,
                crontab=" ".join(fields.values()),
                next_run=None if paused else _next_run(fields, zone, now),
                paused=paused,
            )
        )
    far = now + timedelta(days=3650)
    found.sort(key=lambda item: (item.paused, item.next_run or far, item.schedule.name))
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
    """The newest matches, any status, with every seat (two queries)."""
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


def bot_brief(*, bot_id: int) -> Bot | None:
    """A bot's name, game and owner only (the heading of its match list), or None."""
    return (
        Bot.objects.select_related("owner")
        .only("name", "game", "owner__username", "is_builtin")
        .filter(pk=bot_id)
        .first()
    )


def version_rank(*, rating: Rating) -> int | None:
    """The rank of a version's rating on its game's ladder (1 = top), or None when the
    version is not on the ladder (not the bot's active one, or the bot is inactive).

    Counted as the ladder sorts (rating descending, then id), from the ladder's order kept
    in the cache per ladder version (``arena.selectors.ladder.ladder_rank``).
    """
    return ladder_rank(rating=rating)


@dataclass(frozen=True, slots=True)
class RatingPoint:
    created: datetime
    rating: float  # the displayed rating after the match
    rating_sigma: float
    version: int  # the version's number


def bot_rating_history(*, bot: Bot, limit: int = 300) -> list[RatingPoint]:
    """The displayed rating of each of the bot's versions after each of its last ``limit``
    rated matches that a refit has reached, oldest first (a chart draws one line)."""
    rows = (
        RatingHistory.objects.filter(bot=bot, rating__isnull=False)
        .order_by("-created", "-id")
        .values_list("created", "rating", "rating_sigma", "version__number")[:limit]
    )
    return [RatingPoint(*row) for row in reversed(list(rows))]


def bot_recent_match_ids(*, bot: Bot, limit: int = 20) -> list[int]:
    """The ids of the bot's newest matches in any seat, newest first: one read of the
    ``seat_bot_recent`` index, however many matches the bot has played."""
    return list(
        MatchSeat.objects.filter(bot_id=bot.pk)
        .order_by("-match_id")
        .values_list("match_id", flat=True)
        .distinct()[:limit]
    )


def bot_recent_matches(*, bot: Bot, limit: int = 20) -> list[Match]:
    """The bot's newest matches in any seat, with their seats (three queries: the ids,
    then the matches and their seats by key)."""
    ids = bot_recent_match_ids(bot=bot, limit=limit)
    return list(match_list().filter(pk__in=ids)) if ids else []


@dataclass(frozen=True, slots=True)
class HeadToHead:
    opponent: Bot
    played: int
    wins: int  # matches the bot placed ahead of the opponent
    draws: int  # level with it
    losses: int  # behind it
    match_points_for: int
    match_points_against: int


def bot_head_to_head(*, bot: Bot) -> list[HeadToHead]:
    """The bot's record against each opponent it shared a table with, most played first."""
    return bot_head_to_head_table(bot=bot).rows


@dataclass(frozen=True)
class HeadToHeadTable:
    rows: list[HeadToHead]  # the opponents shown, most played first
    opponents: int  # every opponent it met in the matches read
    matches: int  # the finished matches read (with an opponent): at most the cap
    capped: bool  # it has finished more than HEAD_TO_HEAD_MATCHES: the newest are read


#: The head-to-head table is counted over at most this many of the bot's newest finished
#: matches: a ladder bot plays thousands, and its page must cost the same after a year.
HEAD_TO_HEAD_MATCHES = 1000

#: One row per opponent: the bot's seat in each of its newest finished matches (its first
#: seat there, should it hold two), against every other placed seat of that match. Plain
#: SQL: the bot's seats are read once (by the ``seat_bot_recent`` index, newest first, up to
#: the cap), each joined to its match's other seats by ``match_id``; the ORM's form of it
#: re-read the bot's seat for every opponent row, four times over. A placed seat is a
#: finished match's: placings are written only as a match is recorded done, in the same
#: transaction (``arena.services.matches.recording.record``), so the matches themselves
#: are not read (at a million matches, a third of the pages the table cost).
_HEAD_TO_HEAD_SQL = """
WITH newest AS (
    SELECT s.match_id, s.placing, s.score
    FROM {seat} s
    WHERE s.bot_id = %(bot)s AND s.placing IS NOT NULL
        AND NOT EXISTS (
            SELECT 1 FROM {seat} t
            WHERE t.match_id = s.match_id AND t.bot_id = s.bot_id AND t.seat < s.seat
        )
    ORDER BY s.match_id DESC
    LIMIT %(limit)s + 1
), mine AS (
    SELECT * FROM newest ORDER BY match_id DESC LIMIT %(limit)s
)
SELECT o.bot_id, count(*) AS played,
    sum(CASE WHEN mine.placing < o.placing THEN 1 ELSE 0 END) AS wins,
    sum(CASE WHEN mine.placing = o.placing THEN 1 ELSE 0 END) AS draws,
    sum(CASE WHEN mine.placing > o.placing THEN 1 ELSE 0 END) AS losses,
    coalesce(sum(mine.score), 0) AS points_for,
    coalesce(sum(o.score), 0) AS points_against,
    (SELECT count(*) FROM newest) AS finished
FROM mine JOIN {seat} o ON o.match_id = mine.match_id
WHERE o.bot_id <> %(bot)s AND o.placing IS NOT NULL
GROUP BY o.bot_id
ORDER BY played DESC, o.bot_id
"""


def bot_head_to_head_table(*, bot: Bot, limit: int | None = None) -> HeadToHeadTable:
    """The bot's head-to-head record, against its ``limit`` most played opponents (all by
    default), and how many opponents it met in all, over its newest
    :data:`HEAD_TO_HEAD_MATCHES` finished matches.

    In a match of any size, the bot "won" against an opponent it placed ahead of. Two
    queries: the records grouped by opponent, then the shown opponents' names.
    """
    query = _HEAD_TO_HEAD_SQL.format(seat=connection.ops.quote_name(MatchSeat._meta.db_table))
    params = {"bot": bot.pk, "limit": HEAD_TO_HEAD_MATCHES}
    with connection.cursor() as cursor:
        cursor.execute(query, params)
        records = cursor.fetchall()
    # The newest finished matches, one past the cap (to know whether there are more).
    finished = records[0][7] if records else 0
    met = len(records)
    shown_records = records[:limit]
    opponents = (
        Bot.objects.select_related("owner")
        .defer("description")
        .in_bulk([record[0] for record in shown_records])
    )
    shown = [
        HeadToHead(
            opponent=opponents[opponent],
            played=played,
            wins=wins,
            draws=draws,
            losses=losses,
            match_points_for=points_for,
            match_points_against=points_against,
        )
        for opponent, played, wins, draws, losses, points_for, points_against, _ in shown_records
        if opponent in opponents
    ]
    return HeadToHeadTable(
        rows=shown,
        opponents=met,
        matches=min(finished, HEAD_TO_HEAD_MATCHES),
        capped=finished > HEAD_TO_HEAD_MATCHES,
    )


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
                {"self": True} if row_id == col_id else _cell(cells.get(f"{row_id}-{col_id}"))
                for col_id in order
            ],
        }
        for row_id in order
    ]


def _cell(cell: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A crosstable cell with its ``result`` (win, loss, draw) and ``label`` for any table size.

    Two seats: the match's result and its scores ("3-1"). More seats: the row bot's meetings
    with the column bot, as times placed ahead and behind ("2-1"), won when ahead more often.
    """
    if cell is None:
        return None
    cell = dict(cell)
    met = cell.get("ahead", 0) + cell.get("level", 0) + cell.get("behind", 0)
    if cell.get("result") and cell.get("match_points"):
        first, second = cell["match_points"]
        cell["label"] = f"{first}\u2013{second}"
    elif met:
        ahead, behind = cell.get("ahead", 0), cell.get("behind", 0)
        cell["result"] = "win" if ahead > behind else "loss" if ahead < behind else "draw"
        cell["label"] = f"{ahead}\u2013{behind}"
    return cell


#: The brackets of a double elimination, in the order the page shows them.
BRACKETS = (
    ("winners", "Winners' bracket"),
    ("losers", "Losers' bracket"),
    ("round", "Rounds"),
    ("final", "Final"),
)


def tournament_rounds(standings: Mapping[str, Any]) -> dict[str, Any]:
    """The rounds of a Swiss or a double elimination, with the bots' names, for a template.

    ``rounds`` lists every round's tables (each seat ``{"bot", "points", "won"}``) and byes;
    ``brackets`` splits them by bracket (double elimination): ``[{"name", "title",
    "rounds": [{"round", "tables"}]}]``, each bracket's rounds in order.
    """
    names = {row["bot"]["id"]: row["bot"] for row in standings.get("rows", [])}
    rounds = []
    for round_ in standings.get("rounds") or []:
        tables = [
            {
                **table,
                "seats": [
                    {
                        "bot": names.get(bot, {"id": bot, "name": f"bot {bot}"}),
                        "points": points,
                        "won": bot in (table.get("through") or [table.get("winner")]),
                    }
                    for bot, points in zip(table["bots"], table["points"], strict=True)
                ],
            }
            for table in round_["tables"]
        ]
        byes = [names.get(bot, {"id": bot, "name": f"bot {bot}"}) for bot in round_["byes"]]
        rounds.append({"round": round_["round"], "tables": tables, "byes": byes})
    brackets = []
    for name, title in BRACKETS:
        in_bracket = [
            {"round": r["round"], "tables": [t for t in r["tables"] if t.get("bracket") == name]}
            for r in rounds
        ]
        in_bracket = [r for r in in_bracket if r["tables"]]
        if in_bracket:
            brackets.append({"name": name, "title": title, "rounds": in_bracket})
    return {"rounds": rounds, "brackets": brackets}
