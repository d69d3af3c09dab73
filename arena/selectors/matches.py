"""Reads of matches, their replays and the bots' private logs."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias, TypedDict

from django.contrib.auth.models import AnonymousUser, User
from django.core.cache import cache
from django.db.models import Exists, F, OuterRef, Prefetch, QuerySet

from arena.errors import Forbidden, NotFound
from arena.freshness import LocalCopies
from arena.models import Bot, Match, MatchLog, MatchSeat, Replay
from arena.models.matches import SEAT_OUTCOME_FIELDS, SEAT_RATING_FIELDS
from arena.selectors.filters import MatchFilter, apply_filters
from engine import replay as replay_io

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

__all__ = [
    "MatchState",
    "MatchWithReplay",
    "StoredReplay",
    "bot_recent_match_ids",
    "bot_recent_matches",
    "match_detail_row",
    "match_get",
    "match_ids_list",
    "match_list",
    "match_list_with_replay",
    "match_log_list",
    "match_rows",
    "match_state",
    "match_table_rows",
    "recent_matches",
    "replay_bytes",
    "replay_exists",
    "replays_of_bot",
    "replays_of_tournament",
]

#: What a list shows of each seat: the bot's name and owner, the version's number.
_SEATS = (
    MatchSeat.objects.select_related("bot__owner", "version")
    .only(
        *(field.name for field in MatchSeat._meta.concrete_fields),
        "bot__name",
        "bot__owner__username",
        "version__number",
    )
    .order_by("seat")
)


def match_list(*, filters: Mapping[str, Any] | None = None) -> QuerySet[Match]:
    """Matches, newest first, with their seats (bot, owner, version) and tournament.

    Two queries however many rows: the matches (with the tournament's name), then every
    seat of those matches with its bot, owner and version number.

    ``filters`` takes the :class:`~arena.selectors.filters.MatchFilter` parameters (``bot``
    in any seat, ``version``, ``tournament``, ``status``, ``game``, ``kind``). Page it with
    :class:`~arena.selectors.pagination.IdsFirstPaginator`: deep pages then skip rows by an
    index-only scan of ids.
    """
    queryset = (
        Match.objects.select_related("tournament")
        .only(*_MATCH_FIELDS, "tournament__name")
        .prefetch_related(Prefetch("seats", queryset=_SEATS))
        .order_by("-id")
    )
    return apply_filters(MatchFilter, queryset, filters)


_MATCH_FIELDS = tuple(field.name for field in Match._meta.concrete_fields)


def match_ids_list(*, filters: Mapping[str, Any] | None = None) -> QuerySet[Match]:
    """Matches newest first, with nothing joined: what the ids of a list's page are sliced
    from (``filters`` as :func:`match_list` takes them); the page's rows are read by key
    (:func:`match_rows`, :func:`match_table_rows`). Its SQL is a fraction of
    :func:`match_list`'s to build, and it is built for every page (the count's cache key,
    then the ids)."""
    return apply_filters(MatchFilter, Match.objects.order_by("-id"), filters)


class ReplayMark(TypedDict):
    """Whether a match has its replay stored (:func:`match_list_with_replay`)."""

    has_replay: bool


#: A match as :func:`match_list_with_replay` and :func:`match_get` give it.
MatchWithReplay: TypeAlias = "WithAnnotations[Match, ReplayMark]"


def match_list_with_replay(
    *, filters: Mapping[str, Any] | None = None
) -> QuerySet[MatchWithReplay]:
    """:func:`match_list`, each match annotated with ``has_replay`` (for a link to it).

    The flag is an EXISTS on the replay's primary key per row of the page; counting the
    list leaves it out (Django drops unused annotations from ``count()``).
    """
    return match_list(filters=filters).annotate(has_replay=_HAS_REPLAY)


_HAS_REPLAY = Exists(Replay.objects.filter(match=OuterRef("pk")))


#: A match as a list shows it, read as plain values (see :func:`match_rows`).
MATCH_ROW_FIELDS = (
    "id",
    "game",
    "kind",
    "ranked",
    "tournament_id",
    "status",
    "seat_count",
    "reason",
    "games_played",
    "totals",
    "created",
    "started_at",
    "finished_at",
)
#: A seat as a list shows it: who sat there, how it placed, what it did to the rating.
SEAT_ROW_FIELDS = (
    "match_id",
    "seat",
    "bot_id",
    "bot__name",
    "bot__owner__username",
    "version__number",
    *SEAT_OUTCOME_FIELDS,
    *SEAT_RATING_FIELDS,
)


#: What one match's own answer adds to a list's row (``/api/matches/{id}/``).
MATCH_DETAIL_FIELDS = ("seed", "options", "rated", "duration_s")


def match_detail_row(*, match_id: int) -> dict[str, Any]:
    """One match as :func:`match_rows` reads it, with :data:`MATCH_DETAIL_FIELDS`, or
    NotFound (two queries by key, no model instance)."""
    found = match_rows(match_ids=[match_id], extra=MATCH_DETAIL_FIELDS)
    if not found:
        raise NotFound(f"There is no match {match_id}.")
    return found[0]


def match_rows(*, match_ids: Sequence[int], extra: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The matches ``match_ids`` in that order, as plain values for a list: each a dict of
    :data:`MATCH_ROW_FIELDS` (and the ``extra`` fields), ``has_replay`` and ``seats``
    (dicts of :data:`SEAT_ROW_FIELDS`, in seat order). Ids no longer there are left out.

    Two queries whatever the rows and seats, and no model instance: a page of 50 matches
    has a few hundred seats, bots, owners and versions, and building a model for each
    cost the API's match list more than its queries. Page ids come from
    :class:`~arena.selectors.pagination.IdsFirstPaginator` over :func:`match_list`.
    """
    ids = list(match_ids)
    # The replay by a left join on its key, not EXISTS: PostgreSQL may answer EXISTS with a
    # hash of every replay's key, a cost that grows with the table, not with the page.
    rows = (
        Match.objects.filter(pk__in=ids)
        .order_by()
        .values(*MATCH_ROW_FIELDS, *extra, replay_key=F("replay__match_id"))
    )
    by_id = {}
    for row in rows:
        row["has_replay"] = row.pop("replay_key") is not None
        row["seats"] = []
        by_id[row["id"]] = row
    return _seated(by_id, ids)


#: A match as the site's match tables show it (``arena.web.match_rows``).
MATCH_TABLE_FIELDS = (
    "id",
    "game",
    "kind",
    "status",
    "reason",
    "tournament_id",
    "tournament__name",
    "created",
)


def match_table_rows(*, match_ids: Sequence[int]) -> list[dict[str, Any]]:
    """The matches ``match_ids`` in that order, as plain values for a page's match table:
    each a dict of :data:`MATCH_TABLE_FIELDS` and ``seats`` (dicts of
    :data:`SEAT_ROW_FIELDS`, in seat order). Two queries, and no model instance: a list of
    twenty matches has some two hundred seats, bots, owners and versions."""
    ids = list(match_ids)
    by_id = {}
    for row in Match.objects.filter(pk__in=ids).order_by().values(*MATCH_TABLE_FIELDS):
        row["seats"] = []
        by_id[row["id"]] = row
    return _seated(by_id, ids)


def match_get(*, match_id: int) -> MatchWithReplay:
    """One match with ``has_replay`` annotated, or NotFound."""
    match = match_list_with_replay().filter(pk=match_id).first()
    if match is None:
        raise NotFound(f"There is no match {match_id}.")
    return match


class MatchState(TypedDict):
    """What decides whether a match's page can still change."""

    status: str
    finished_at: datetime | None
    rated: bool
    ranked: bool


def match_state(*, match_id: int) -> MatchState | None:
    """What decides whether a match's page can still change: one small indexed read."""
    return (
        Match.objects.filter(pk=match_id).values("status", "finished_at", "rated", "ranked").first()
    )


#: How long a replay read from the database is kept in the shared cache: it never changes,
#: and the replays people open are mostly the newest few.
REPLAY_CACHE_S = 600


def _replay_key(match_id: int) -> str:
    return f"replay:{match_id}"


#: This process's copies of the replays read most (the newest matches'): a replay never
#: changes, and a copy here saves the shared cache's round trip.
_REPLAY_COPIES = LocalCopies(size=256, ttl_s=60)


def replay_exists(*, match_id: int) -> bool:
    key = _replay_key(match_id)
    if _REPLAY_COPIES.get(key) is not None or cache.get(key) is not None:
        return True
    return Replay.objects.filter(match_id=match_id).exists()


def replay_bytes(*, match_id: int) -> bytes:
    """The stored replay document: gzip-compressed JSON in the current format.

    Handed out as stored so the API can pass it through without decompressing. A replay
    stored in an older format (which the migration could not convert) is converted here.
    Kept in the shared cache for :data:`REPLAY_CACHE_S` once read (one cache read instead
    of a database query for the next reader; a replay is written once and never changed),
    and for a minute in this process too (``_REPLAY_COPIES``).
    """
    key = _replay_key(match_id)
    data = _REPLAY_COPIES.get(key)
    if data is not None:
        return data
    data = cache.get(key)
    if data is not None:
        _REPLAY_COPIES.set(key, data)
        return data
    row = Replay.objects.filter(match_id=match_id).values_list("data", "format").first()
    if row is None:
        if not Match.objects.filter(pk=match_id).exists():
            raise NotFound(f"There is no match {match_id}.")
        raise NotFound(f"Match {match_id} has no replay yet.", code="no_replay")
    data, stored_format = bytes(row[0]), row[1]  # PostgreSQL hands back a memoryview
    if stored_format != replay_io.REPLAY_FORMAT:
        data = replay_io.dumps(replay_io.loads(data))
    cache.set(key, data, REPLAY_CACHE_S)
    _REPLAY_COPIES.set(key, data)
    return data


def match_log_list(*, match: Match, user: User | AnonymousUser) -> QuerySet[MatchLog]:
    """What the user's own bots printed in the match; staff see every seat.

    The only way to the bots' output: it may hold their strategy or secrets, so a user who
    owns neither bot is refused (Forbidden) rather than shown an empty list.
    """
    logs = MatchLog.objects.filter(match=match).select_related("bot__owner").order_by("seat")
    if user.is_staff:
        return logs
    owners = {seat.bot.owner_id for seat in match.seats.all()}
    if not user.is_authenticated or user.pk not in owners:
        raise Forbidden("Only the owners of this match's bots may read its logs.")
    return logs.filter(bot__owner=user)


class StoredReplay(NamedTuple):
    """A finished match's stored replay (gzip JSON), for a bulk download."""

    match_id: int
    finished_at: datetime | None  # the zip entry's time, so one download is like the next
    data: bytes


#: Most replays one bulk download holds (the newest): a bound on the zip's size and time.
BULK_REPLAYS = 500


def replays_of_bot(
    *, bot: Any, user: User | AnonymousUser, version: int | None = None
) -> Iterator[StoredReplay]:
    """``(match id, stored gzip replay)`` of the bot's finished matches, newest first, at
    most :data:`BULK_REPLAYS`; ``version`` (a number) keeps that version's. Owner only
    (Forbidden otherwise): the bulk download is the author's study material, and one
    request should not make anyone's server zip a whole ladder's history."""
    if not user.is_authenticated or user.pk != bot.owner_id:
        raise Forbidden("Only the bot's owner may download its replays in bulk.")
    matches = MatchSeat.objects.filter(bot=bot, match__status=Match.Status.DONE)
    if version is not None:
        matches = matches.filter(version__number=version)
    ids = list(
        matches.order_by("-match_id").values_list("match_id", flat=True).distinct()[:BULK_REPLAYS]
    )
    return _stored_replays(ids)


def replays_of_tournament(*, tournament: Any) -> Iterator[StoredReplay]:
    """``(match id, stored gzip replay)`` of every finished match of a tournament, in match
    order: its results are public, and so are its replays (the spectator's view; the bots'
    logs stay with their owners)."""
    ids = list(
        Match.objects.filter(tournament=tournament, status=Match.Status.DONE)
        .order_by("id")
        .values_list("id", flat=True)
    )
    return _stored_replays(ids, newest_first=False)


def _stored_replays(ids: list[int], *, newest_first: bool = True) -> Iterator[StoredReplay]:
    # A generator of its own, so the owner check above runs at the call, not at first use.
    rows = Replay.objects.filter(match_id__in=ids).order_by(
        "-match_id" if newest_first else "match_id"
    )
    columns = ("match_id", "match__finished_at", "data", "format")
    for match_id, finished_at, data, stored_format in rows.values_list(*columns).iterator():
        data = bytes(data)
        if stored_format != replay_io.REPLAY_FORMAT:
            data = replay_io.dumps(replay_io.loads(data))
        yield StoredReplay(match_id, finished_at, data)


def _seated(by_id: dict[int, dict[str, Any]], ids: list[int]) -> list[dict[str, Any]]:
    """The rows of ``by_id`` in the order of ``ids``, each given its seats (dicts of
    :data:`SEAT_ROW_FIELDS`, in seat order) with one query for them all, so a page's list
    of matches costs two queries whatever its length."""
    seats = (
        MatchSeat.objects.filter(match_id__in=ids)
        .order_by("match_id", "seat")
        .values(*SEAT_ROW_FIELDS)
    )
    for seat in seats:
        by_id[seat["match_id"]]["seats"].append(seat)
    return [by_id[pk] for pk in ids if pk in by_id]


def recent_matches(*, limit: int = 10) -> list[Match]:
    """The newest matches, any status, with every seat (two queries)."""
    return list(match_list()[:limit])


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
