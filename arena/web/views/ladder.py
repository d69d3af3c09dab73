"""The ladder of one game: ranked, sortable, paginated, with a rating trend per row."""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from arena.selectors.pages import ladder_sorted, rating_sparklines
from arena.services.freshness import ladder_version
from arena.web.errors import domain_errors
from arena.web.freshness import conditional
from engine.registry import GAMES

__all__ = ["ladder", "ladder_index"]

PAGE_SIZE = 50
#: How long an anonymous reader's rendered ladder page is kept; any change to the ladder
#: makes a new key at once, so this only bounds the memory of versions nobody reads.
PAGE_CACHE_S = 300
#: Column headers in display order: (sort key, label, descending first?); every key is one
#: of the selector's LADDER_SORTS.
COLUMNS = [
    ("score", "Score", True),
    ("mu", "μ", True),
    ("sigma", "σ", False),  # noqa: RUF001 (the Greek letter is meant)
    ("matches", "Matches", True),
    ("win_rate", "Win rate", True),
]


def ladder_index(request: HttpRequest) -> HttpResponse:
    """``/ladder/`` is the first game's ladder (the navigation links here)."""
    return redirect("ladder", game=next(iter(GAMES)))


def _ladder_etag(request: HttpRequest, game: str) -> str | None:
    if game not in GAMES:
        return None  # a 404 follows; no cache key for made-up names
    query = hashlib.blake2s(request.get_full_path().encode(), digest_size=6).hexdigest()
    return f"ladder-{game}-{ladder_version(game)}-{query}"


@domain_errors
@conditional(_ladder_etag)
def ladder(request: HttpRequest, game: str) -> HttpResponse:
    """One page of the ladder, rendered once per ladder version for anonymous readers.

    A logged-in reader's page names them (and holds their CSRF token), so it is rendered
    for them; everyone gets 304 while the ladder has not changed.
    """
    if request.user.is_authenticated:
        return _render_ladder(request, game)
    key = f"ladder-page:{_ladder_etag(request, game)}"
    body = cache.get(key)
    if body is None:
        response = _render_ladder(request, game)
        if response.status_code == 200:
            cache.set(key, response.content, PAGE_CACHE_S)
        return response
    return HttpResponse(body)


def _render_ladder(request: HttpRequest, game: str) -> HttpResponse:
    """The ratings, then every row's sparkline in one more query."""
    ratings, sort = ladder_sorted(game=game, sort=request.GET.get("sort"))
    page = Paginator(ratings, PAGE_SIZE).get_page(request.GET.get("page"))
    sparks = rating_sparklines(bot_ids=[rating.bot_id for rating in page], game=game)
    return render(
        request,
        "arena/ladder.html",
        {
            "game": game,
            "game_title": GAMES[game].title,
            "games": [(name, g.title) for name, g in GAMES.items()],
            "page": page,
            "rows": [(rating, sparks.get(rating.bot_id, [])) for rating in page],
            "columns": _columns(sort),
            "sort": sort,
        },
    )


def _columns(sort: str) -> list[dict[str, object]]:
    """Each sortable header with the sort its link asks for and its aria-sort state."""
    current, descending = sort.removeprefix("-"), sort.startswith("-")
    columns = []
    for key, label, desc_first in COLUMNS:
        if key == current:
            state = "descending" if descending else "ascending"
            link = key if descending else f"-{key}"
        else:
            state = "none"
            link = f"-{key}" if desc_first else key
        columns.append({"key": key, "label": label, "aria_sort": state, "link": link})
    return columns
