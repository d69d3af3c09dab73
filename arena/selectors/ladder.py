"""The ladder: active bots of one game ranked by their displayed rating (the whole-history
fit that ``arena.services.rating_fit`` stores on each rating row)."""

from __future__ import annotations

import contextlib
from array import array
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.db.models import Case, F, FloatField, Q, QuerySet, Value, When, Window
from django.db.models.functions import Cast, RowNumber

from arena.errors import NotFound
from arena.freshness import ladder_version
from arena.models import Rating
from arena.models.ratings import RECORD_FIELDS, DisplayedRating
from arena.selectors.games import hosted_game
from engine.registry import GAMES

__all__ = [
    "LADDER_ENTRY_FIELDS",
    "LADDER_ROW_FIELDS",
    "LADDER_SORTS",
    "GameLadder",
    "LadderEntry",
    "LadderPaginator",
    "home_ladders",
    "ladder_count",
    "ladder_for_game",
    "ladder_order_slice",
    "ladder_page",
    "ladder_rank",
    "ladder_ranks",
    "ladder_rows",
    "ladder_size",
    "ladder_sorted",
    "version_rank",
]


@dataclass(frozen=True, slots=True)
class LadderOwner:
    username: str


@dataclass(frozen=True, slots=True)
class LadderBot:
    id: int
    name: str
    is_builtin: bool
    owner: LadderOwner


@dataclass(frozen=True, slots=True)
class LadderVersion:
    number: int


#: What a ladder page reads of each rating, its bot, owner and version (:class:`LadderEntry`).
LADDER_ENTRY_FIELDS = (
    "id",
    "version_id",
    "bot_id",
    "rating",
    "rating_sigma",
    "matches",
    "wins",
    "placing_sum",
    "bot__name",
    "bot__is_builtin",
    "bot__owner__username",
    "version__number",
)


@dataclass(slots=True)
class LadderEntry(DisplayedRating):
    """A row of a ladder page as plain values: a :class:`Rating`'s displayed rating and
    record, with its place by rating (``rank``), its share of wins (``win_ratio``), and its
    bot (name, built-in, owner) and version (number) as the pages name them.

    Read with ``values()`` rather than as four model instances a row (a rating with its
    bot, owner and version), which cost a ladder page more CPU than its queries. The
    derived figures are :class:`~arena.models.ratings.DisplayedRating`'s, as for a Rating.
    """

    id: int
    version_id: int
    bot_id: int
    rating: float
    rating_sigma: float
    matches: int
    wins: int
    placing_sum: int
    rank: int
    bot: LadderBot
    version: LadderVersion

    @property
    def pk(self) -> int:
        return self.id

    @property
    def win_ratio(self) -> float | None:
        """First places alone, as a share of its matches (Rating's ``win_rate``)."""
        return self.wins / self.matches if self.matches else None

    @classmethod
    def of(cls, row: dict[str, Any], rank: int) -> LadderEntry:
        """From a ``values(*LADDER_ENTRY_FIELDS)`` row."""
        return cls(
            id=row["id"],
            version_id=row["version_id"],
            bot_id=row["bot_id"],
            rating=row["rating"],
            rating_sigma=row["rating_sigma"],
            matches=row["matches"],
            wins=row["wins"],
            placing_sum=row["placing_sum"],
            rank=rank,
            bot=LadderBot(
                id=row["bot_id"],
                name=row["bot__name"],
                is_builtin=row["bot__is_builtin"],
                owner=LadderOwner(username=row["bot__owner__username"]),
            ),
            version=LadderVersion(number=row["version__number"]),
        )


def ladder_for_game(*, game: str) -> QuerySet[Rating]:
    """The ratings of the game's active bots' active versions, best first, each annotated
    with its ``rank``.

    Sorted by ``rating``, the whole-history fit's estimate (a new version with few matches
    is held near its prior, its bot's previous rating, by the fit itself). ``rank`` is
    counted by the database over the whole ladder, so it stays right on any page; the
    ``rating_ladder`` index serves the order. The bot, its owner and the version come in
    the same query, so a page of N rows costs one query (plus the count).
    """
    if game not in GAMES:
        raise NotFound(f"There is no game {game!r}.", code="unknown_game")
    order = [F("rating").desc(), F("id").asc()]
    return (
        Rating.objects.filter(game=game, current=True, bot__is_active=True)
        .select_related("bot__owner", "version")
        .defer("bot__description", "version__validation_log", "version__error_output")
        .annotate(rank=Window(RowNumber(), order_by=order))
        .order_by(*order)
    )


#: A ladder entry as plain values (:func:`ladder_rows`): the rating, its bot and version.
LADDER_ROW_FIELDS = (
    "id",
    "rating",
    "rating_sigma",
    "mu",
    "sigma",
    *RECORD_FIELDS,
    "bot_id",
    "bot__name",
    "bot__owner__username",
    "version__number",
    "version__paused_at",
)

#: How long a ladder's size is reused at most (it is also forgotten when the ladder changes).
LADDER_COUNT_TTL_S = 30


def _hosted(game: str) -> str:
    if game not in GAMES:
        raise NotFound(f"There is no game {game!r}.", code="unknown_game")
    return game


def _ranked(game: str) -> QuerySet[Rating]:
    _hosted(game)
    return Rating.objects.filter(game=game, current=True, bot__is_active=True)


def ladder_count(*, game: str) -> int:
    """How many entries the game's ladder has.

    Kept in the cache under the ladder's version (``arena.freshness``), which every
    write that changes who is on a ladder bumps, and for at most ``LADDER_COUNT_TTL_S``.
    """
    # Checked first: a name from the URL never becomes part of a cache key.
    key = f"arena:ladder-count:{_hosted(game)}:{ladder_version(game)}"
    count = cache.get(key)
    if count is None:
        count = _ranked(game).count()
        cache.set(key, count, LADDER_COUNT_TTL_S)
    return count


#: A ladder's order (its rating ids, best first) is kept in the cache in chunks of this many
#: ids, with each chunk's first entry: a page reads one or two chunks, a rank one.
ORDER_CHUNK = 1000
#: How long a ladder's order is kept at most (a new ladder version makes a new one at once).
ORDER_TTL_S = 300


@dataclass(frozen=True, slots=True)
class _Order:
    """Where a ladder's order is kept: its cache key, its length, and the sort key
    ``(-rating, id)`` of each chunk's first entry."""

    key: str
    count: int
    heads: tuple[tuple[float, int], ...]


def _order(game: str, *, fresh: bool = False) -> tuple[_Order, dict[int, array]]:
    """The game's ladder order under its current version, and any chunks computed now.

    Computed once per ladder version (every write that changes who is on the ladder or a
    displayed rating bumps it, ``arena.freshness``): one narrow query for the
    whole order (ratings and their bots' ``is_active``, by the ``rating_ladder`` index),
    where counting ranks with ``ROW_NUMBER()`` for every page and a ``COUNT`` of the
    ratings ahead for every bot page read the whole ladder each time.
    """
    key = f"arena:ladder-order:{_hosted(game)}:{ladder_version(game)}"
    found = None if fresh else cache.get(key)
    if found is not None:
        return found, {}
    rows = list(
        _ranked(game).order_by(F("rating").desc(), F("id").asc()).values_list("pk", "rating")
    )
    chunks = {
        number: array("q", (pk for pk, _ in rows[start : start + ORDER_CHUNK]))
        for number, start in enumerate(range(0, len(rows), ORDER_CHUNK))
    }
    order = _Order(
        key=key,
        count=len(rows),
        heads=tuple(
            (-rows[start][1], rows[start][0]) for start in range(0, len(rows), ORDER_CHUNK)
        ),
    )
    # The chunks first, kept a little longer: whoever finds the order finds its chunks.
    cache.set_many({f"{key}:{n}": chunk.tobytes() for n, chunk in chunks.items()}, ORDER_TTL_S + 60)
    cache.set(key, order, ORDER_TTL_S)
    cache.set(f"arena:ladder-count:{game}:{key.rsplit(':', 1)[1]}", order.count, LADDER_COUNT_TTL_S)
    return order, chunks


def _chunks(
    game: str, numbers: Iterable[int], known: tuple[_Order, dict[int, array]] | None = None
) -> tuple[_Order, dict[int, array]]:
    """The ladder's order and its chunks ``numbers`` (computed afresh if any was lost), from
    the order (and any chunks) already ``known`` to the caller if given."""
    order, chunks = known if known is not None else _order(game)
    wanted = [n for n in numbers if n not in chunks and n * ORDER_CHUNK < order.count]
    if wanted:
        found = cache.get_many([f"{order.key}:{n}" for n in wanted])
        if len(found) < len(wanted):  # evicted or expired before the order: compute again
            return _order(game, fresh=True)
        for n in wanted:
            chunk = array("q")
            chunk.frombytes(found[f"{order.key}:{n}"])
            chunks[n] = chunk
    return order, chunks


def ladder_rows(*, game: str, offset: int, limit: int) -> list[dict[str, Any]]:
    """Entries ``offset`` .. ``offset + limit`` of the game's ladder (as
    :func:`ladder_for_game` orders and ranks it), as plain values: each a dict of
    :data:`LADDER_ROW_FIELDS` and ``rank``.

    The page's ids and ranks come from the ladder's order, kept in the cache per ladder
    version (one or two cache reads); then one query reads those rows with their bot,
    owner and version by primary key.
    """
    if limit <= 0:
        return []
    numbers = range(offset // ORDER_CHUNK, (offset + limit - 1) // ORDER_CHUNK + 1)
    _, chunks = _chunks(game, numbers)
    ids: list[int] = []
    for n in numbers:
        ids.extend(chunks.get(n, ()))
    start = offset - numbers.start * ORDER_CHUNK
    ranks = {pk: offset + place + 1 for place, pk in enumerate(ids[start : start + limit])}
    rows = Rating.objects.filter(pk__in=list(ranks)).values(*LADDER_ROW_FIELDS)
    by_id = {row["id"]: {**row, "rank": ranks[row["id"]]} for row in rows}
    return [by_id[pk] for pk in ranks if pk in by_id]


def ladder_size(*, game: str) -> int:
    """How many entries the game's ladder has, as its kept order counts them (the order
    every page of it is read from; one cache read once kept)."""
    return _order(_hosted(game))[0].count


def ladder_order_slice(
    *, game: str, offset: int, limit: int, descending: bool = True
) -> list[tuple[int, int]]:
    """``(rating id, rank)`` of entries ``offset`` .. ``offset + limit`` of the game's ladder,
    best first (``descending``) or worst first (the ladder read backwards), from the kept
    order alone (one or two cache reads, no query once the order is kept)."""
    known = _order(game)
    order = known[0]
    if limit <= 0 or offset >= order.count:
        return []
    first, last = offset, min(order.count, offset + limit) - 1  # places, as read
    if not descending:  # place p from the bottom is position count - 1 - p from the top
        first, last = order.count - 1 - last, order.count - 1 - first
    numbers = range(first // ORDER_CHUNK, last // ORDER_CHUNK + 1)
    _, chunks = _chunks(game, numbers, known)
    ids: list[int] = []
    for n in numbers:
        ids.extend(chunks.get(n, ()))
    start = first - numbers.start * ORDER_CHUNK
    entries = [
        (pk, first + place + 1) for place, pk in enumerate(ids[start : start + last - first + 1])
    ]
    return entries if descending else entries[::-1]


def ladder_ranks(*, game: str, ratings: list[tuple[int, float]]) -> dict[int, int]:
    """The ranks of these ladder entries (``(rating id, rating)`` pairs of current ratings of
    active bots), as :func:`ladder_for_game` ranks them, from the kept order: one cache read
    for the chunks they fall in. An entry whose rating changed since the order was kept (its
    bump on its way) is counted by the database instead."""
    known = _order(game)
    order = known[0]
    where = {pk: max(0, bisect_right(order.heads, (-rating, pk)) - 1) for pk, rating in ratings}
    _, chunks = _chunks(game, sorted(set(where.values())), known)
    ranks = {}
    for pk, rating in ratings:
        number = where[pk]
        try:
            ranks[pk] = number * ORDER_CHUNK + chunks[number].index(pk) + 1
        except (KeyError, ValueError):
            ranks[pk] = (
                _ranked(game).filter(Q(rating__gt=rating) | Q(rating=rating, id__lt=pk)).count() + 1
            )
    return ranks


def ladder_rank(*, rating: Rating) -> int | None:
    """The rank of a rating on its game's ladder (1 = top), as :func:`ladder_for_game`
    ranks it, or None when it is not on the ladder (not its bot's active version, or the
    bot is inactive): found in the ladder's cached order (the ladder's version, the order
    and one chunk: three cache reads)."""
    if not rating.current or not rating.bot.is_active:
        return None
    known = _order(rating.game)
    order = known[0]
    if not order.count:
        return None
    number = max(0, bisect_right(order.heads, (-rating.rating, rating.pk)) - 1)
    order, chunks = _chunks(rating.game, range(number, number + 1), known)
    chunk = chunks.get(number)
    if chunk is not None:
        with contextlib.suppress(ValueError):  # not where the order has it: counted below
            return number * ORDER_CHUNK + chunk.index(rating.pk) + 1
    # Its rating changed since the order was computed (the bump is on its way): count.
    return (
        _ranked(rating.game)
        .filter(Q(rating__gt=rating.rating) | Q(rating=rating.rating, id__lt=rating.pk))
        .count()
        + 1
    )


# --- the site's ladder pages ---------------------------------------------------------------

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


@dataclass(frozen=True, slots=True)
class GameLadder:
    game: str
    title: str
    summary: str
    match_summary: str  # what one match of it is
    min_players: int
    max_players: int
    top: list[LadderEntry]


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
    ladder's order kept per ladder version (:func:`ladder_order_slice`): no query. In
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
        rows = {
            row["id"]: row
            for row in Rating.objects.filter(pk__in=[pk for pk, _ in entries])
            .order_by()
            .values(*LADDER_ENTRY_FIELDS)
        }
        # A rating gone since the order was kept is left out.
        shown = [LadderEntry.of(rows[pk], rank) for pk, rank in entries if pk in rows]
        # Django's hook for the Page made (Paginator._get_page); its stubs leave it out.
        return self._get_page(shown, number, self)  # type: ignore[attr-defined]

    def _entries_by_column(self, offset: int, limit: int) -> list[tuple[int, int]]:
        """The page's ``(rating id, rank)`` in the order of a column other than the rating,
        from that order kept per ladder version (:func:`_sorted_chunks`): one or two cache
        reads, where sorting the whole ladder for every page cost PostgreSQL some 6 ms at
        10,000 bots."""
        if limit <= 0:
            return []
        numbers = range(offset // ORDER_CHUNK, (offset + limit - 1) // ORDER_CHUNK + 1)
        chunks = _sorted_chunks(self.game, self.sort, self.field, self.descending, numbers)
        entries: list[int] = []
        for n in numbers:
            entries.extend(chunks.get(n, ()))
        start = offset - numbers.start * ORDER_CHUNK
        pairs = entries[2 * start : 2 * (start + limit)]
        return list(zip(pairs[::2], pairs[1::2], strict=True))


def _sorted_chunks(
    game: str, sort: str, field: str, descending: bool, numbers: range
) -> dict[int, array]:
    """Chunks ``numbers`` of the game's ladder in the order of ``field`` (not the rating),
    each an array of ``(rating id, rank by rating)`` pairs, :data:`ORDER_CHUNK` entries a
    chunk: kept in the cache per ladder version and sort key, as the rating order is
    (:func:`_order`), and computed afresh (one narrow query over the ladder's entries, ranks
    from the rating order) when the version is new or a chunk was evicted."""
    key = f"arena:ladder-sorted:{_hosted(game)}:{ladder_version(game)}:{sort}"
    found = cache.get_many([key, *(f"{key}:{n}" for n in numbers)])
    count = found.get(key)
    if count is not None:
        wanted = [n for n in numbers if n * ORDER_CHUNK < count]
        if all(f"{key}:{n}" in found for n in wanted):
            chunks = {}
            for n in wanted:
                chunk = array("q")
                chunk.frombytes(found[f"{key}:{n}"])
                chunks[n] = chunk
            return chunks
    ratio, place = (
        Case(
            When(matches=0, then=Value(None, output_field=FloatField())),
            default=Cast(F(name), FloatField()) / Cast(F("matches"), FloatField()),
            output_field=FloatField(),
        )
        for name in ("wins", "placing_sum")
    )
    column = F(field)
    # Bots without a value (no matches: no win rate) go last both ways, everywhere.
    order = column.desc(nulls_last=True) if descending else column.asc(nulls_last=True)
    # The mean rank (0 = first) sorts as the mean place does (``Rating.mean_place``).
    rows = list(
        _ranked(game)
        .annotate(win_ratio=ratio, mean_rank=place)
        .order_by(order, F("rating").desc(), "id")
        .values_list("pk", "rating")
    )
    ranks = _all_ranks(game)
    missing = [(pk, rating) for pk, rating in rows if pk not in ranks]
    if missing:  # a rating changed since the rating order was kept: counted
        ranks.update(ladder_ranks(game=game, ratings=missing))
    chunks = {
        number: array(
            "q", (v for pk, _ in rows[start : start + ORDER_CHUNK] for v in (pk, ranks[pk]))
        )
        for number, start in enumerate(range(0, len(rows), ORDER_CHUNK))
    }
    cache.set_many({f"{key}:{n}": chunk.tobytes() for n, chunk in chunks.items()}, ORDER_TTL_S + 60)
    cache.set(key, len(rows), ORDER_TTL_S)
    return {n: chunks[n] for n in numbers if n in chunks}


def _all_ranks(game: str) -> dict[int, int]:
    """Every entry's rank by rating, from the rating order kept (all its chunks)."""
    known = _order(game)
    _, chunks = _chunks(game, range((known[0].count + ORDER_CHUNK - 1) // ORDER_CHUNK), known)
    return {
        pk: number * ORDER_CHUNK + place + 1
        for number, chunk in chunks.items()
        for place, pk in enumerate(chunk)
    }


def ladder_page(
    *, game: str, sort: str | None, number: int | str | None, per_page: int = 50
) -> tuple[Page, str]:
    """Page ``number`` of the game's ladder in the order ``sort`` asks for (each row a
    :class:`LadderEntry`: a rating's values with its ``rank`` by rating and its
    ``win_ratio``), and the sort key
    actually used (:class:`LadderPaginator`). Only :data:`LADDER_SORTS` keys (optionally
    with a leading "-") are honoured: the value comes from the query string."""
    hosted_game(game=game)
    paginator = LadderPaginator(game, sort, per_page)
    return paginator.get_page(number), paginator.sort


def version_rank(*, rating: Rating) -> int | None:
    """The rank of a version's rating on its game's ladder (1 = top), or None when the
    version is not on the ladder (not the bot's active one, or the bot is inactive).

    Counted as the ladder sorts (rating descending, then id), from the ladder's order kept
    in the cache per ladder version (:func:`ladder_rank`).
    """
    return ladder_rank(rating=rating)
