"""Tournament pages: the list with the schedules, and one tournament's standings."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render

from arena.models import Tournament
from arena.selectors.matches import replays_of_tournament
from arena.selectors.pages import (
    next_scheduled_tournaments,
    tournament_crosstable,
    tournament_rounds,
)
from arena.selectors.tournaments import (
    standings_csv,
    tournament_get,
    tournament_list,
    tournament_signups,
)
from arena.services.tournaments import tournament_standings
from arena.web.downloads import csv_response, replays_zip_response
from arena.web.errors import domain_errors

__all__ = [
    "tournament_detail",
    "tournament_index",
    "tournament_replays_zip",
    "tournament_standings_csv",
]

PAGE_SIZE = 30
#: Seconds between reloads of a running tournament's page.
REFRESH_S = 10


def tournament_index(request: HttpRequest) -> HttpResponse:
    """Every tournament (``?status=``), and the schedules with their next run."""
    status = request.GET.get("status") or None
    try:
        tournaments = tournament_list(filters={"status": status} if status else None)
    except ValidationError:
        tournaments, status = tournament_list(), None
    page = Paginator(tournaments, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "arena/tournaments/list.html",
        {
            "page": page,
            "status": status,
            "statuses": Tournament.Status.choices,
            "schedules": next_scheduled_tournaments(limit=20, include_paused=True),
        },
    )


@domain_errors
def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Standings and crosstable: stored once finished, computed live while running."""
    tournament = tournament_get(tournament_id=tournament_id)
    standings = tournament_standings(tournament=tournament)
    total, done = standings.get("matches_total", 0), standings.get("matches_done", 0)
    running = tournament.status == Tournament.Status.RUNNING
    return render(
        request,
        "arena/tournaments/detail.html",
        {
            "tournament": tournament,
            "standings": standings,
            "crosstable": tournament_crosstable(standings),
            "rounds": tournament_rounds(standings),
            "signups": (
                list(tournament_signups(tournament=tournament))
                if tournament.entry == Tournament.Entry.SIGNUP
                else None
            ),
            "swiss": tournament.format == Tournament.Format.SWISS,
            "elimination": tournament.format
            in (Tournament.Format.DOUBLE_ELIMINATION, Tournament.Format.PROMOTION),
            "progress": {
                "done": done,
                "total": total,
                "percent": round(100 * done / total) if total else 0,
            },
            "refresh_s": REFRESH_S if running else None,
        },
    )


@domain_errors
def tournament_standings_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The standings as a CSV download (the same as the API's ``standings.csv``)."""
    tournament = tournament_get(tournament_id=tournament_id)
    body = standings_csv(tournament_standings(tournament=tournament))
    return csv_response(body, f"tournament-{tournament.pk}-standings.csv")


@domain_errors
def tournament_replays_zip(request: HttpRequest, tournament_id: int) -> StreamingHttpResponse:
    """Every finished match's replay in one zip (the same as the API's ``replays.zip``)."""
    tournament = tournament_get(tournament_id=tournament_id)
    replays = replays_of_tournament(tournament=tournament)
    return replays_zip_response(replays, f"tournament-{tournament.pk}-replays.zip")
