"""The home page: each game's ladder top, the next scheduled tournaments, recent matches."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from arena.models import Tournament
from arena.selectors.ladder import home_ladders
from arena.selectors.matches import recent_matches
from arena.selectors.schedules import next_scheduled_tournaments
from arena.selectors.tournaments import tournament_list

__all__ = ["home"]


def home(request: HttpRequest) -> HttpResponse:
    """The front page: where the ladders stand, what is scheduled, what was just played."""
    running = tournament_list(filters={"status": Tournament.Status.RUNNING})[:3]
    return render(
        request,
        "arena/home.html",
        {
            "ladders": home_ladders(per_game=5),
            "schedules": next_scheduled_tournaments(limit=3),
            "running": list(running),
            "matches": recent_matches(limit=10),
        },
    )
