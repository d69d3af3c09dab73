"""Reads of tournaments and organisers' schedules."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

from django.db.models import Count, QuerySet

from arena.models import Tournament, TournamentSchedule, TournamentSignup
from arena.selectors.filters import TournamentFilter, apply_filters
from arena.services.errors import NotFound

__all__ = [
    "schedule_get",
    "schedule_list",
    "standings_csv",
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


def tournament_get(*, tournament_id: int) -> Tournament:
    tournament = tournament_list().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(f"There is no tournament {tournament_id}.")
    return tournament


def tournament_signups(*, tournament: Tournament) -> QuerySet[TournamentSignup]:
    """The bots signed up for a sign-up tournament, first come first."""
    return tournament.signups.select_related("bot__owner").order_by("created", "id")


def schedule_list() -> QuerySet[TournamentSchedule]:
    return TournamentSchedule.objects.select_related("created_by").order_by("name", "id")


def schedule_get(*, schedule_id: int) -> TournamentSchedule:
    schedule = schedule_list().filter(pk=schedule_id).first()
    if schedule is None:
        raise NotFound(f"There is no schedule {schedule_id}.")
    return schedule


#: The CSV's columns, in order; ``buchholz`` (Swiss) and ``eliminated_in`` (double
#: elimination) are empty in other formats.
CSV_COLUMNS = (
    "rank",
    "bot_id",
    "bot",
    "owner",
    "version",
    "seed",
    "played",
    "points",
    "buchholz",
    "eliminated_in",
    "byes",
    "first_places",
    "wins",
    "draws",
    "losses",
    "mean_place",
    "match_points",
    "faults",
)


def _cell(value: Any) -> Any:
    """A value a spreadsheet shows as text: a name starting with = + - @ (or a tab or a
    carriage return) would otherwise be read as a formula (CSV injection), so it gets a
    leading apostrophe."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def standings_csv(standings: Mapping[str, Any]) -> str:
    """The standings (``tournament_standings``) as CSV, one row per bot in rank order."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for row in standings.get("rows", []):
        byes = row.get("byes")
        writer.writerow(
            _cell(value)
            for value in (
                row["rank"],
                row["bot"]["id"],
                row["bot"]["name"],
                row["bot"]["owner"],
                row["version"],
                row.get("seed"),
                row["played"],
                row["points"],
                row.get("buchholz"),
                row.get("eliminated_in"),
                len(byes) if byes is not None else None,
                row["first_places"],
                row["wins"],
                row["draws"],
                row["losses"],
                row["mean_place"],
                row["match_points"],
                row["faults"],
            )
        )
    return out.getvalue()
