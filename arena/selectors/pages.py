"""Reads that only the server-rendered pages need: the games, home lists, sparklines, a
version's rank, head-to-head.

Each function costs a fixed number of queries however many rows it returns (the pages'
query-count tests hold them to it): histories for a whole ladder page come in one
windowed query, head-to-head records are grouped by the database, never counted in Python.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.paginator import Page, Paginator
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

from arena.errors import NotFound
from arena.models import (
    Bot,
    BotVersion,
    Match,
    MatchSeat,
    Rating,
    RatingHistory,
)
from arena.selectors.ladder import (
    ladder_for_game,
    ladder_order_slice,
    ladder_rank,
    ladder_ranks,
    ladder_size,
)
from arena.selectors.matches import match_list
from engine.game import Game
from engine.registry import GAMES

__all__ = [
    "LADDER_SORTS",
    "GameLadder",
    "HeadToHead",
    "LadderPaginator",
    "Opponent",
    "StarterBot",
    "bot_brief",
    "bot_current_rating",
    "bot_head_to_head",
    "bot_head_to_head_table",
    "bot_page_get",
    "bot_rating_history",
    "bot_recent_match_ids",
    "bot_recent_matches",
    "bot_versions_for_page",
    "game_get",
    "game_starter_bot",
    "home_ladders",
    "ladder_page",
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
    """Every hosted game, in the registry's order, with the top ``per_game`` of its ladder
    (from its kept order, :class:`LadderPaginator`): one query per game the engine knows.

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
            top=list(LadderPaginator(name, None, per_game).page(1)) if per_game > 0 else [],
        )
        for name, game in GAMES.items()
    ]


def ladder_sorted(*, game: str, sort: str | None) -> tuple[QuerySet[Rating], str]:
    """The game's ladder in the order ``sort`` asks for, and the sort key actually used, as
    one query the database ranks and sorts whole (what :class:`LadderPaginator`'s pages are
    tested against; the pages read it in two small steps instead).

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


class LadderPaginator(Paginator):
    """A page of a game's ladder in one of the :data:`LADDER_SORTS` orders, read in two
    steps whatever the page's depth: the page's rating ids with their ranks, then those
    rows (with their bot, owner and version) by key.

    By rating (either way, the default best first) the ids and ranks are a slice of the
    ladder's order kept per ladder version (``arena.selectors.ladder``): no query. In
    another order, one narrow query sorts the ladder's entries by that column and returns
    the page's ids, whose ranks come from the kept order. The count is the ladder's kept
    size (the order's). Where the page read the whole ladder with every row's bot, owner and version
    joined, ranked it with ``ROW_NUMBER()`` and sorted it again (and counted it so for the
    page count), a page costs two small queries and a cache read at 10,000 bots.
    """

    def __init__(self, game: str, sort: str | None, per_page: int) -> None:
        super().__init__([], per_page)
        self.game = game
        key = (sort or "").strip()
        field = LADDER_SORTS.get(key.removeprefix("-"))
        if field is None:
            key, field = DEFAULT_LADDER_SORT, LADDER_SORTS["rating"]
        self.sort, self.field, self.descending = key, field, key.startswith("-")

    @cached_property
    def count(self) -> int:
        return ladder_size(game=self.game)

    def page(self, number: int | str) -> Page:
        number = self.validate_number(number)
        offset = (number - 1) * self.per_page
        limit = self.per_page
        if offset + limit + self.orphans >= self.count:
            limit = self.count - offset
        if self.field == "rating":
            entries = ladder_order_slice(
                game=self.game, offset=offset, limit=limit, descending=self.descending
            )
        else:
            entries = self._entries_by_column(offset, limit)
        rows = (
            Rating.objects.filter(pk__in=[pk for pk, _ in entries])
            .select_related("bot__owner", "version")
            .defer("bot__description", "version__validation_log", "version__error_output")
            .in_bulk()
        )
        shown = []
        for pk, rank in entries:
            rating = rows.get(pk)
            if rating is not None:  # gone since the order was kept: left out
                rating.rank = rank
                rating.win_ratio = rating.win_rate
                shown.append(rating)
        return self._get_page(shown, number, self)

    def _entries_by_column(self, offset: int, limit: int) -> list[tuple[int, int]]:
        """The page's ``(rating id, rank)`` in the order of a column other than the rating:
        one query over the ladder's entries (their sort values only), ranks from the kept
        order."""
        ratio, place = (
            Case(
                When(matches=0, then=Value(None, output_field=FloatField())),
                default=Cast(F(name), FloatField()) / Cast(F("matches"), FloatField()),
                output_field=FloatField(),
            )
            for name in ("wins", "placing_sum")
        )
        column = F(self.field)
        # Bots without a value (no matches: no win rate) go last both ways, everywhere.
        order = column.desc(nulls_last=True) if self.descending else column.asc(nulls_last=True)
        # The mean rank (0 = first) sorts as the mean place does (``Rating.mean_place``).
        found = list(
            Rating.objects.filter(game=self.game, current=True, bot__is_active=True)
            .annotate(win_ratio=ratio, mean_rank=place)
            .order_by(order, F("rating").desc(), "id")
            .values_list("pk", "rating")[offset : offset + limit]
        )
        ranks = ladder_ranks(game=self.game, ratings=found)
        return [(pk, ranks[pk]) for pk, _ in found]


def ladder_page(
    *, game: str, sort: str | None, number: int | str | None, per_page: int = 50
) -> tuple[Page, str]:
    """Page ``number`` of the game's ladder in the order ``sort`` asks for (each row a
    :class:`Rating` with its ``rank`` by rating and its ``win_ratio``), and the sort key
    actually used (:class:`LadderPaginator`). Only :data:`LADDER_SORTS` keys (optionally
    with a leading "-") are honoured: the value comes from the query string."""
    game_get(game=game)
    paginator = LadderPaginator(game, sort, per_page)
    return paginator.get_page(number), paginator.sort


#: Each version's newest history points by the ``rating_history_version`` index (version,
#: created, id; it holds the rating): PostgreSQL reads exactly ``points`` index entries per
#: version, where numbering every version's whole history read all of it (a page of fifty
#: ladder bots with 200 matches each: 10,000 rows for 1,000 points).
_SPARKLINES_SQL = """
SELECT v.id, h.rating
FROM unnest(%(versions)s::bigint[]) AS v(id)
CROSS JOIN LATERAL (
    SELECT r.rating, r.created, r.id FROM {history} r
    WHERE r.version_id = v.id AND r.rating IS NOT NULL
    ORDER BY r.created DESC, r.id DESC
    LIMIT %(points)s
) AS h
ORDER BY v.id, h.created, h.id
"""


def rating_sparklines(*, version_ids: Sequence[int], points: int = 20) -> dict[int, list[float]]:
    """The displayed rating after each of the last ``points`` rated matches of each version
    (those a refit has reached), oldest first, in one query that reads at most ``points``
    rows per version, however long the histories are (:data:`_SPARKLINES_SQL`; elsewhere
    than on PostgreSQL, a window numbers each version's history and keeps its newest).
    """
    if not version_ids:
        return {}
    if connection.vendor == "postgresql":
        table = connection.ops.quote_name(RatingHistory._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(
                _SPARKLINES_SQL.format(history=table),
                {"versions": list(version_ids), "points": points},
            )
            rows = cursor.fetchall()
    else:
        rows = list(
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


def bot_page_get(*, bot_id: int) -> Bot:
    """A bot with its owner and active version (without the version's owner-only logs), for
    its page: one query, or NotFound."""
    bot = (
        Bot.objects.select_related("owner", "active_version")
        .defer("active_version__validation_log", "active_version__error_output")
        .filter(pk=bot_id)
        .first()
    )
    if bot is None:
        raise NotFound(f"There is no bot {bot_id}.")
    return bot


def bot_versions_for_page(
    *, bot: Bot, user: AbstractBaseUser | AnonymousUser
) -> QuerySet[BotVersion]:
    """The bot's versions, newest first, each with its rating (if it has one) in the same
    query; the owner-only logs are loaded for the owner only.

    Deferring the logs for everyone else keeps them out of memory (and out of any template
    mistake) on a page they must never appear on.
    """
    versions = BotVersion.objects.filter(bot=bot).select_related("rating").order_by("-number")
    if user.is_authenticated and user.pk == bot.owner_id:
        return versions
    return versions.defer("validation_log", "error_output")


def bot_current_rating(*, bot: Bot) -> Rating | None:
    """The rating of the bot's version on the ladder (its current one), or None."""
    return Rating.objects.select_related("version").filter(bot=bot, current=True).first()


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
    """A point of a rating chart: the displayed rating after a rated match."""

    rating: float
    rating_sigma: float
    version: int  # the version's number


def bot_rating_history(
    *, bot: Bot, limit: int = 300, version_numbers: Mapping[int, int] | None = None
) -> list[RatingPoint]:
    """The displayed rating of each of the bot's versions after each of its last ``limit``
    rated matches that a refit has reached, oldest first (a chart draws one line).

    One read of the ``rating_history_bot`` index, which holds every value drawn (no table
    row is read); each point's version number comes from ``version_numbers`` (version id
    to number: the versions the page has already read), and those missing from it from one
    more small query."""
    rows = list(
        RatingHistory.objects.filter(bot=bot, rating__isnull=False)
        .order_by("-created", "-id")
        .values_list("rating", "rating_sigma", "version_id")[:limit]
    )
    numbers = dict(version_numbers or {})
    missing = {row[2] for row in rows} - numbers.keys()
    if missing:
        numbers.update(
            BotVersion.objects.filter(pk__in=missing).values_list("pk", "number").iterator()
        )
    return [
        RatingPoint(rating, sigma, numbers[version_id])
        for rating, sigma, version_id in reversed(rows)
    ]


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
class Opponent:
    """A bot as a head-to-head row names it: its id, name and owner's name."""

    pk: int
    name: str
    owner_name: str


@dataclass(frozen=True, slots=True)
class HeadToHead:
    opponent: Opponent
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

#: One row per opponent shown (the most played first), with its name and its owner's, how
#: many opponents there were in all and how many finished matches were read: the bot's seat
#: in each of its newest finished matches (its first seat there, should it hold two),
#: against every other placed seat of that match. Plain SQL, one round trip: the bot's
#: seats are read by the ``seat_bot_recent`` index (newest first, up to the cap; it holds
#: their seat, placing and score, so no table row is read for them), each joined to its
#: match's other seats by the ``seat_opponents`` index (match id, with bot, placing and
#: score). A placed seat is a finished match's: placings are written only as a match is
#: recorded done, in the same transaction (``arena.services.matches.recording.record``),
#: so the matches themselves are not read.
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
), records AS (
    SELECT o.bot_id, count(*) AS played,
        sum(CASE WHEN mine.placing < o.placing THEN 1 ELSE 0 END) AS wins,
        sum(CASE WHEN mine.placing = o.placing THEN 1 ELSE 0 END) AS draws,
        sum(CASE WHEN mine.placing > o.placing THEN 1 ELSE 0 END) AS losses,
        coalesce(sum(mine.score), 0) AS points_for,
        coalesce(sum(o.score), 0) AS points_against
    FROM mine JOIN {seat} o ON o.match_id = mine.match_id
    WHERE o.bot_id <> %(bot)s AND o.placing IS NOT NULL
    GROUP BY o.bot_id
), shown AS (
    SELECT records.*, count(*) OVER () AS met
    FROM records
    ORDER BY played DESC, bot_id
    LIMIT %(shown)s
)
SELECT shown.bot_id, shown.played, shown.wins, shown.draws, shown.losses,
    shown.points_for, shown.points_against, shown.met,
    (SELECT count(*) FROM newest) AS finished, b.name, u.username
FROM shown
    JOIN {bot} b ON b.id = shown.bot_id
    JOIN {user} u ON u.id = b.owner_id
ORDER BY shown.played DESC, shown.bot_id
"""

#: "Every opponent" (a LIMIT every database takes).
_ALL = 2**31 - 1


def bot_head_to_head_table(*, bot: Bot, limit: int | None = None) -> HeadToHeadTable:
    """The bot's head-to-head record, against its ``limit`` most played opponents (all by
    default), and how many opponents it met in all, over its newest
    :data:`HEAD_TO_HEAD_MATCHES` finished matches.

    In a match of any size, the bot "won" against an opponent it placed ahead of. One
    query: the records grouped by opponent, with the shown opponents' names.
    """
    if limit is not None and limit < 1:
        raise ValueError(f"show at least one opponent, not {limit}")
    quote = connection.ops.quote_name
    query = _HEAD_TO_HEAD_SQL.format(
        seat=quote(MatchSeat._meta.db_table),
        bot=quote(Bot._meta.db_table),
        user=quote(Bot._meta.get_field("owner").related_model._meta.db_table),
    )
    params = {
        "bot": bot.pk,
        "limit": HEAD_TO_HEAD_MATCHES,
        "shown": _ALL if limit is None else limit,
    }
    with connection.cursor() as cursor:
        cursor.execute(query, params)
        records = cursor.fetchall()
    # The newest finished matches, one past the cap (to know whether there are more).
    met, finished = (records[0][7], records[0][8]) if records else (0, 0)
    rows = [
        HeadToHead(
            opponent=Opponent(pk=record[0], name=record[9], owner_name=record[10]),
            played=record[1],
            wins=record[2],
            draws=record[3],
            losses=record[4],
            match_points_for=record[5],
            match_points_against=record[6],
        )
        for record in records
    ]
    return HeadToHeadTable(
        rows=rows,
        opponents=met,
        matches=min(finished, HEAD_TO_HEAD_MATCHES),
        capped=finished > HEAD_TO_HEAD_MATCHES,
    )
