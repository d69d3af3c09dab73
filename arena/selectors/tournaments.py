"""Reads of tournaments and organisers' schedules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import Count, QuerySet

from arena.models import Tournament, TournamentSchedule
from arena.selectors.filters import TournamentFilter, apply_filters
from arena.services.errors import NotFound

__all__ = ["schedule_get", "schedule_list", "tournament_get", "tournament_list"]


def tournament_list(*, filters: Mapping[str, Any] | None = None) -> QuerySet[Tournament]:
    """Tournaments, newest first, with their entry count; the standings JSON is not loaded.

    ``filters`` takes ``status`` and ``game``.
    """
    queryset = (
        Tournament.objects.select_related("created_by")
        .defer("standings")
        .annotate(entry_count=Count("entries"))
        .order_by("-created", "-id")
    )
    return apply_filters(TournamentFilter, queryset, filters)


def tournament_get(*, tournament_id: int) -> Tournament:
    tournament = tournament_list().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(f"There is no tournament {tournament_id}.")
    return tournament


def schedule_list() -> QuerySet[TournamentSchedule]:
    return TournamentSchedule.objects.select_related("created_by").order_by("name", "id")


def schedule_get(*, schedule_id: int) -> TournamentSchedule:
    schedule = schedule_list().filter(pk=schedule_id).first()
    if schedule is None:
        raise NotFound(f"There is no schedule {schedule_id}.")
    return schedule
