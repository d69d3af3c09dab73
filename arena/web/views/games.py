"""The games: one page per hosted game (its ladder, rules, starter bot and kit), the list of
them, and the engine's wheel.

Games come from the engine's registry; nothing here names one. An unknown game is the
site's own 404 page.
"""

from __future__ import annotations

import hashlib

from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET

from arena.freshness import ladder_version
from arena.selectors.bots import rating_sparklines
from arena.selectors.games import game_starter_bot, hosted_game
from arena.selectors.ladder import home_ladders, ladder_page
from arena.services.kits import (
    RETRY_AFTER_S,
    KitError,
    KitNotReady,
    engine_wheel,
    starter_kit_file,
    starter_kit_name,
)
from arena.web.docs import doc_render_path
from arena.web.errors import domain_errors
from arena.web.freshness import ValidatedRequest, conditional, shared_page
from engine.botpackages import requirements
from engine.game import Game
from engine.registry import GAMES

__all__ = [
    "engine_wheel_download",
    "engine_wheel_latest",
    "game_detail",
    "game_index",
    "game_kit",
    "game_replay_schema",
    "game_rules",
    "game_starter",
]

PAGE_SIZE = 50
#: How long an anonymous reader's rendered game page is kept; any change to the ladder
#: makes a new key at once, so this only bounds the memory of versions nobody reads.
PAGE_CACHE_S = 300
#: Column headers in display order: (sort key, label, descending first?); every key is one
#: of the selector's LADDER_SORTS.
COLUMNS = [
    ("rating", "Rating", True),
    ("interval", "95% interval", False),
    ("matches", "Matches", True),
    ("win_rate", "Win rate", True),
    ("placing", "Mean place", False),
]


def seat_range(game: Game) -> str:
    """ "2 seats", "2-4 seats" (with an en dash)."""
    if game.min_players == game.max_players:
        return f"{game.min_players} seats"
    return f"{game.min_players}\u2013{game.max_players} seats"


def game_index(request: HttpRequest) -> HttpResponse:
    """Every hosted game with its seat counts and the top of its ladder."""
    games = [(ladder, seat_range(GAMES[ladder.game])) for ladder in home_ladders(per_game=3)]
    return render(request, "arena/games/list.html", {"games": games})


def _game_etag(request: HttpRequest, game: str) -> str | None:
    if game not in GAMES:
        return None  # a 404 follows; no cache key for made-up names
    query = hashlib.blake2s(request.get_full_path().encode(), digest_size=6).hexdigest()
    return f"game-{game}-{ladder_version(game)}-{query}"


@domain_errors
@conditional(_game_etag)
def game_detail(request: ValidatedRequest, game: str) -> HttpResponse:
    """A game's page: its ladder, rendered once per ladder version for anonymous readers.

    A logged-in reader's page names them (and holds their CSRF token), so it is rendered
    for them; everyone gets 304 while the ladder has not changed.
    """
    if request.user.is_authenticated:
        return _render_game(request, game)
    return shared_page(
        request,
        f"game-page:{request.validator}",
        lambda: _render_game(request, game),
        fresh_s=PAGE_CACHE_S,
        keep_s=PAGE_CACHE_S,
    )


def _render_game(request: HttpRequest, name: str) -> HttpResponse:
    """The game's facts, then its ladder page (``ladder_page``: the page's ids from the kept
    order or one narrow query, then its rows by key) and every row's sparkline in one more
    query."""
    game = hosted_game(game=name)
    page, sort = ladder_page(
        game=name, sort=request.GET.get("sort"), number=request.GET.get("page"), per_page=PAGE_SIZE
    )
    sparks = rating_sparklines(version_ids=[rating.version_id for rating in page])
    return render(
        request,
        "arena/games/detail.html",
        {
            "game": game,
            "seats": seat_range(game),
            "games": [(key, other.title) for key, other in GAMES.items()],
            "has_starter": "starter" in game.builtin_bots(),
            "bot_pins": requirements(),  # not in the kit: from PyPI (arena.services.kits)
            "page": page,
            "rows": [(rating, sparks.get(rating.version_id, [])) for rating in page],
            "columns": _columns(sort),
            "sort": sort,
        },
    )


def _columns(sort: str) -> list[dict[str, str]]:
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


@domain_errors
def game_rules(request: HttpRequest, game: str) -> HttpResponse:
    """The game's rules as the arena plays them, rendered from its ``docs_path()`` file."""
    found = hosted_game(game=game)
    rendered = doc_render_path(found.docs_path())
    if rendered is None:
        raise Http404(f"The rules of {found.title} are missing.")
    return render(
        request,
        "arena/games/rules.html",
        {"game": found, "doc": rendered, "seats": seat_range(found)},
    )


@require_GET
@domain_errors
def game_replay_schema(request: HttpRequest, game: str) -> HttpResponse:
    """The JSON Schema of the game's parts of a replay, from the game's folder (its rules
    page links it as ``replay.schema.json``)."""
    found = hosted_game(game=game)
    path = found.replay_schema_path()
    if not path.is_file():
        raise Http404(f"The replay schema of {found.title} is missing.")
    return HttpResponse(path.read_bytes(), content_type="application/schema+json")


@require_GET
@domain_errors
def game_starter(request: HttpRequest, game: str) -> HttpResponse:
    """The game's starter bot as a download: the file a new author copies and edits."""
    starter = game_starter_bot(game=game)
    response = HttpResponse(starter.source, content_type="text/x-python; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=starter.filename
    )
    return response


def _kit_unavailable(exc: KitError) -> HttpResponse:
    """A kit not built (yet) on this host is the platform's problem: 503, saying what is
    missing and, where the last build failed, why; ``Retry-After`` when it may come soon.
    Nothing is built in the request (``arena.services.kits``: it takes pip)."""
    if isinstance(exc, KitNotReady):
        text = f"{exc}\n"
    else:
        text = f"The starter kit cannot be built on this server right now: {exc}\n"
    response = HttpResponse(text, status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_S)
    return response


@require_GET
@domain_errors
def game_kit(request: HttpRequest, game: str) -> HttpResponseBase:
    """The game's starter kit: starter bot, rules, test harness, README, the engine's wheel
    and the wheels it needs (``arena.services.kits``), one zip to play locally offline."""
    found = hosted_game(game=game)
    if "starter" not in found.builtin_bots():
        raise Http404(f"{found.title} has no starter bot.")
    try:
        kit = starter_kit_file(found.name)
    except KitError as exc:
        return _kit_unavailable(exc)
    return FileResponse(
        kit.open("rb"),
        as_attachment=True,
        filename=starter_kit_name(found.name),
        content_type="application/zip",
    )


@require_GET
def engine_wheel_latest(request: HttpRequest) -> HttpResponse:
    """``/downloads/engine/``: the current wheel under its own file name, which pip needs
    (``pip install <url>`` reads the version and tags from it)."""
    try:
        wheel = engine_wheel()
    except KitError as exc:
        return _kit_unavailable(exc)
    return redirect(reverse("engine-wheel", args=[wheel.name]))


@require_GET
def engine_wheel_download(request: HttpRequest, filename: str) -> HttpResponseBase:
    """The engine's wheel alone (the one in every kit); an older name is a 404."""
    try:
        wheel = engine_wheel()
    except KitError as exc:
        return _kit_unavailable(exc)
    if filename != wheel.name:
        raise Http404("That is not the engine's current wheel: see /downloads/engine/.")
    return FileResponse(wheel.open("rb"), as_attachment=True, filename=wheel.name)
