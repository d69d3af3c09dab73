"""The old ladder addresses: each game's ladder now lives on the game's page."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import redirect
from django.urls import reverse

from engine.registry import GAMES

__all__ = ["ladder", "ladder_index"]


def ladder_index(request: HttpRequest) -> HttpResponse:
    """``/ladder/``: the first game's page with one game, else the list of games."""
    if len(GAMES) == 1:
        return redirect("game", game=next(iter(GAMES)))
    return redirect("games")


def ladder(request: HttpRequest, game: str) -> HttpResponse:
    """``/ladder/<game>/`` moved to ``/games/<game>/`` (sort and page kept)."""
    if game not in GAMES:
        raise Http404(f"There is no game {game!r}.")
    query = request.META.get("QUERY_STRING", "")
    target = reverse("game", args=[game]) + (f"?{query}" if query else "")
    return HttpResponsePermanentRedirect(target)
