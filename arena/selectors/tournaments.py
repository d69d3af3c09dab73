"""Reads of tournaments and their sign-ups, for the pages and the API (their schedules:
``schedules``; their standings laid out for a page and the CSVs: ``standings``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import Count, Q, QuerySet

from arena.errors import NotFound
from arena.models import Bot, BotVersion, Tournament, TournamentSignup
from arena.selectors.accounts import is_organiser
from arena.selectors.filters import TournamentFilter, apply_filters

__all__ = [
    "signup_choices",
    "tournament_brief",
    "tournament_get",
    "tournament_list",
    "tournament_signups",
]


def tournament_list(*, filters: Mapping[str, Any] | None = None) -> QuerySet[Tournament]:
    """Tournaments, newest first, with their entry count; the standings JSON is not loaded.

    ``filters`` takes ``status`` and ``game``.
    """
    queryset = (
        Tournament.objects.select_related("created_by")
        .defer("standings")
        .annotate(
            # Two counts over two joins: distinct, or each would multiply the other.
            entry_count=Count("entries", distinct=True),
            signup_count=Count("signups", distinct=True),
        )
        .order_by("-created", "-id")
    )
    return apply_filters(TournamentFilter, queryset, filters)


def tournament_get(*, tournament_id: int, standings: bool = True) -> Tournament:
    """A tournament with its entry and sign-up counts; ``standings=False`` leaves its
    stored standings unread until they are used (a big tournament's are large JSON)."""
    queryset = Tournament.objects.all() if standings else Tournament.objects.defer("standings")
    tournament = (
        queryset.select_related("created_by", "schedule")
        .annotate(
            entry_count=Count("entries", distinct=True),
            signup_count=Count("signups", distinct=True),
        )
        .filter(pk=tournament_id)
        .first()
    )
    if tournament is None:
        raise NotFound(f"There is no tournament {tournament_id}.")
    return tournament


def tournament_brief(*, tournament_id: int) -> Tournament | None:
    """A tournament's id and name (for a heading), or None."""
    return Tournament.objects.filter(pk=tournament_id).only("pk", "name").first()


def tournament_signups(*, tournament: Tournament) -> QuerySet[TournamentSignup]:
    """The bots signed up for a sign-up tournament, first come first."""
    return tournament.signups.select_related("bot__owner").order_by("created", "id")


def signup_choices(*, tournament: Tournament, user: Any) -> list[Bot]:
    """The bots ``user`` may sign up now: their own active bots of the game with a valid
    active version, and (organisers) the built-in bots; not those signed up already."""
    if not user.is_authenticated:
        return []
    mine = Q(owner=user)
    if is_organiser(user):
        mine |= Q(is_builtin=True)
    return list(
        Bot.objects.filter(
            mine,
            game=tournament.game,
            is_active=True,
            active_version__status=BotVersion.Status.VALID,
        )
        .exclude(pk__in=tournament.signups.values("bot_id"))
        .select_related("owner")
        .order_by("is_builtin", "name", "id")
    )
