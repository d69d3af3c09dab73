"""Reads of matches, their replays and the bots' private logs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Exists, OuterRef, QuerySet

from arena.models import Match, MatchLog, Replay
from arena.selectors.filters import MatchFilter, apply_filters
from arena.services.errors import Forbidden, NotFound

__all__ = [
    "match_get",
    "match_list",
    "match_log_list",
    "match_state",
    "replay_bytes",
    "replay_exists",
]

# What a list of matches shows of each related row; loading whole users and versions (with
# their logs) for 50 matches costs more than the query itself. Every Match field is loaded.
_RELATED = ("bot_a__owner", "bot_b__owner", "version_a", "version_b", "tournament")
_MATCH_FIELDS = tuple(field.name for field in Match._meta.concrete_fields)
_RELATED_FIELDS = (
    *(f"bot_{seat}__{name}" for seat in "ab" for name in ("name", "owner__username")),
    *(f"version_{seat}__number" for seat in "ab"),
    "tournament__name",
)


def match_list(*, filters: Mapping[str, Any] | None = None) -> QuerySet[Match]:
    """Matches, newest first, with both bots, owners, versions and tournament in one query.

    Of the related rows only what a list shows is loaded: each bot's name and owner's
    username, each version's number, the tournament's name (anything else costs a query).

    ``filters`` takes the :class:`~arena.selectors.filters.MatchFilter` parameters (``bot``
    in either seat, ``tournament``, ``status``, ``game``, ``kind``). Page it with
    :class:`~arena.selectors.pagination.IdsFirstPaginator`: planning this eight-way join
    costs more than running it, and deep pages would join every row the OFFSET skips.
    """
    queryset = (
        Match.objects.select_related(*_RELATED)
        .only(*_MATCH_FIELDS, *_RELATED_FIELDS)
        .order_by("-created", "-id")
    )
    return apply_filters(MatchFilter, queryset, filters)


def match_get(*, match_id: int) -> Match:
    """One match with ``has_replay`` annotated, or NotFound."""
    match = (
        match_list()
        .annotate(has_replay=Exists(Replay.objects.filter(match=OuterRef("pk"))))
        .filter(pk=match_id)
        .first()
    )
    if match is None:
        raise NotFound(f"There is no match {match_id}.")
    return match


def match_state(*, match_id: int) -> dict[str, Any] | None:
    """What decides whether a match's page can still change: one small indexed read."""
    return Match.objects.filter(pk=match_id).values("status", "finished_at", "rated").first()


def replay_exists(*, match_id: int) -> bool:
    return Replay.objects.filter(match_id=match_id).exists()


def replay_bytes(*, match_id: int) -> bytes:
    """The stored replay document: gzip-compressed JSON, as written by the worker.

    Handed out as stored so the API can pass it through without decompressing.
    """
    data = Replay.objects.filter(match_id=match_id).values_list("data", flat=True).first()
    if data is None:
        if not Match.objects.filter(pk=match_id).exists():
            raise NotFound(f"There is no match {match_id}.")
        raise NotFound(f"Match {match_id} has no replay yet.", code="no_replay")
    return bytes(data)  # PostgreSQL hands back a memoryview


def match_log_list(*, match: Match, user: AbstractBaseUser | AnonymousUser) -> QuerySet[MatchLog]:
    """What the user's own bots printed in the match; staff see every seat.

    The only way to the bots' output: it may hold their strategy or secrets, so a user who
    owns neither bot is refused (Forbidden) rather than shown an empty list.
    """
    logs = MatchLog.objects.filter(match=match).select_related("bot__owner").order_by("seat")
    if user.is_staff:
        return logs
    if not user.is_authenticated or user.pk not in (match.bot_a.owner_id, match.bot_b.owner_id):
        raise Forbidden("Only the owners of this match's bots may read its logs.")
    return logs.filter(bot__owner=user)
