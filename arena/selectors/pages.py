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
from django.db.models import (
    Case,
    Count,
    F,
    FloatField,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
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
from arena.selectors.ladder import ladder_for_game
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

    Counted as the ladder sorts (rating descending, then id), in one indexed query.
    """
    if not rating.current or not rating.bot.is_active:
        return None
    ahead = Rating.objects.filter(game=rating.game, current=True, bot__is_active=True).filter(
        Q(rating__gt=rating.rating) | Q(rating=rating.rating, id__lt=rating.pk)
    )
    return ahead.count() + 1


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


def bot_recent_matches(*, bot: Bot, limit: int = 20) -> list[Match]:
    """The bot's newest matches in any seat (two queries: the matches, then their seats)."""
    return list(match_list(filters={"bot": str(bot.pk)})[:limit])


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
    opponents: int  # every opponent it met


def bot_head_to_head_table(*, bot: Bot, limit: int | None = None) -> HeadToHeadTable:
    """The bot's head-to-head record, against its ``limit`` most played opponents (all by
    default), and how many opponents it met in all.

    In a match of any size, the bot "won" against an opponent it placed ahead of. The
    database pairs the bot's seat with every other seat of its finished matches and groups
    by opponent in one query; a second query fetches the shown opponents' names. A bot
    that has played for long has met thousands: the page shows the most played.
    """
    mine = MatchSeat.objects.filter(match_id=OuterRef("match_id"), bot_id=bot.pk)
    rows = list(
        MatchSeat.objects.filter(
            match_id__in=MatchSeat.objects.filter(bot_id=bot.pk).values("match_id"),
            match__status=Match.Status.DONE,
            placing__isnull=False,
        )
        .exclude(bot_id=bot.pk)
        .annotate(
            my_placing=Subquery(mine.values("placing")[:1], output_field=IntegerField()),
            my_score=Subquery(mine.values("score")[:1], output_field=IntegerField()),
        )
        .values("bot_id")
        .annotate(
            played=Count("id"),
            wins=Count("id", filter=Q(my_placing__lt=F("placing"))),
            draws=Count("id", filter=Q(my_placing=F("placing"))),
            losses=Count("id", filter=Q(my_placing__gt=F("placing"))),
            points_for=Sum("my_score"),
            points_against=Sum("score"),
        )
        .order_by("-played", "bot_id")
    )
    met = len(rows)
    rows = rows[:limit]
    for row in rows:
        row["opponent"] = row["bot_id"]
    opponents = (
        Bot.objects.select_related("owner")
        .defer("description")
        .in_bulk([row["opponent"] for row in rows])
    )
    shown = [
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
    return HeadToHeadTable(rows=shown, opponents=met)
