"""Reads that only the server-rendered pages need: the games, home lists, sparklines, a
version's rank, head-to-head.

Each function costs a fixed number of queries however many rows it returns (the pages'
query-count tests hold them to it): histories for a whole ladder page come in one
windowed query, head-to-head records are grouped by the database, never counted in Python.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

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

from arena.models import (
    Bot,
    BotVersion,
    Match,
    MatchSeat,
    Rating,
    RatingHistory,
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
    "rating_sparklines",
    "recent_matches",
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
    match_summary: str  # what one match of it is
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
            match_summary=game.match_summary,
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
