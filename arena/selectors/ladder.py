"""The ladder: active bots of one game ranked by their displayed rating (the whole-history
fit that ``arena.services.rating_fit`` stores on each rating row)."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db.models import F, QuerySet, Window
from django.db.models.functions import RowNumber

from arena.models import Rating
from arena.services.errors import NotFound
from arena.services.freshness import ladder_version
from engine.registry import GAMES

__all__ = ["LADDER_ROW_FIELDS", "ladder_count", "ladder_for_game", "ladder_rows"]


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
    "matches",
    "wins",
    "draws",
    "losses",
    "first_places",
    "placing_sum",
    "faults",
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

    Kept in the cache under the ladder's version (``arena.services.freshness``), which every
    write that changes who is on a ladder bumps, and for at most ``LADDER_COUNT_TTL_S``.
    """
    # Checked first: a name from the URL never becomes part of a cache key.
    key = f"arena:ladder-count:{_hosted(game)}:{ladder_version(game)}"
    count = cache.get(key)
    if count is None:
        count = _ranked(game).count()
        cache.set(key, count, LADDER_COUNT_TTL_S)
    return count


def ladder_rows(*, game: str, offset: int, limit: int) -> list[dict[str, Any]]:
    """Entries ``offset`` .. ``offset + limit`` of the game's ladder (as
    :func:`ladder_for_game` orders and ranks it), as plain values: each a dict of
    :data:`LADDER_ROW_FIELDS` and ``rank``.

    Two queries: the ranks are counted over the narrow ladder (ratings and their bots'
    ``is_active``, served by the ``rating_ladder`` index) and only the page's ids come
    back; then those rows are read with their bot, owner and version. Joining and sorting
    every entry's wide row to keep fifty, and building models of them, cost more.
    """
    order = [F("rating").desc(), F("id").asc()]
    ranks = dict(
        _ranked(game)
        .annotate(rank=Window(RowNumber(), order_by=order))
        .order_by(*order)
        .values_list("pk", "rank")[offset : offset + limit]
    )
    rows = Rating.objects.filter(pk__in=list(ranks)).values(*LADDER_ROW_FIELDS)
    by_id = {row["id"]: {**row, "rank": ranks[row["id"]]} for row in rows}
    return [by_id[pk] for pk in ranks if pk in by_id]
