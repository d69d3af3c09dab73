"""Match pages: the list, and one match with its replay viewer, result and the owner's logs."""

from __future__ import annotations

import hashlib
from typing import Any

from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from arena.models import Match, MatchLog
from arena.selectors.matches import (
    match_get,
    match_list,
    match_log_list,
    match_state,
    replay_bytes,
)
from arena.services.errors import Forbidden, NotFound
from arena.web.errors import domain_errors
from arena.web.freshness import conditional
from engine import replay as replay_io

__all__ = ["match_detail", "match_index"]

PAGE_SIZE = 50
#: How long an anonymous reader's rendered page of a finished match is kept.
PAGE_CACHE_S = 600
#: Seconds between reloads of a match that is still queued or running.
REFRESH_S = 5
_MATCH_FILTERS = ("bot", "status", "kind", "game", "tournament")
_FAULTS = {
    "timeout": "timed out",
    "crash": "crashed",
    "memory": "ran out of memory",
    "illegal_move": "played an illegal move",
    "bad_output": "sent bad output",
    "forbidden": "tried a forbidden operation",
    "protocol": "broke the bot protocol",
}
_PHASES = {
    "start": "while starting",
    "lie": "as The Liar",
    "answer": "answering as The Judge",
    "on_hand_end": "in on_hand_end",
    "on_game_end": "in on_game_end",
}


#: Seconds an anonymous reader's match list page is reused: new matches show within this.
LIST_CACHE_S = 5


def match_index(request: HttpRequest) -> HttpResponse:
    """Matches, newest first; anonymous readers share one rendering every few seconds.

    The list changes with every match played, so it has no cheap validator; a short shared
    cache is what keeps it off the database under load.
    """
    if request.user.is_authenticated:
        return _render_match_index(request)
    key = "match-list:" + hashlib.blake2s(request.get_full_path().encode()).hexdigest()
    body = cache.get(key)
    if body is None:
        response = _render_match_index(request)
        if response.status_code == 200:
            cache.set(key, response.content, LIST_CACHE_S)
        return response
    return HttpResponse(body)


def _render_match_index(request: HttpRequest) -> HttpResponse:
    """Matches, newest first, filtered by the same parameters as the API's list."""
    filters = {name: request.GET[name] for name in _MATCH_FILTERS if request.GET.get(name)}
    invalid = False
    try:
        matches = match_list(filters=filters)
    except ValidationError:
        matches, invalid = Match.objects.none(), True
    page = Paginator(matches, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "arena/matches/list.html",
        {
            "page": page,
            "filters": filters,
            "invalid": invalid,
            "statuses": Match.Status.choices,
            "kinds": Match.Kind.choices,
        },
    )


def _match_etag(request: HttpRequest, match_id: int) -> str | None:
    """A finished match never changes again: its page is validated by its final state."""
    state = match_state(match_id=match_id)
    if state is None or state["status"] in _OPEN:
        return None  # missing (404 follows) or still changing (the page reloads itself)
    finished = state["finished_at"].timestamp() if state["finished_at"] else 0
    return f"match-{match_id}-{state['status']}-{finished:.6f}-{int(state['rated'])}"


@domain_errors
@conditional(_match_etag)
def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    """A match's page; a finished match's page is rendered once for anonymous readers.

    Logged-in readers may see their own bots' logs on it, so theirs is rendered for them.
    """
    etag = None if request.user.is_authenticated else _match_etag(request, match_id)
    if etag is None:
        return _render_match(request, match_id)
    key = f"match-page:{etag}"
    body = cache.get(key)
    if body is None:
        response = _render_match(request, match_id)
        if response.status_code == 200:
            cache.set(key, response.content, PAGE_CACHE_S)
        return response
    return HttpResponse(body)


def _render_match(request: HttpRequest, match_id: int) -> HttpResponse:
    """The match, its replay embedded for the viewer, and the user's own bots' logs.

    The replay goes into the page (``json_script``) rather than being fetched, so the
    viewer needs no second request and works wherever the page does.
    """
    match = match_get(match_id=match_id)
    replay = _replay(match)
    return render(
        request,
        "arena/matches/detail.html",
        {
            "match": match,
            "replay": replay,
            "error": _public_error(match, replay),
            "logs": _own_logs(request, match),
            "refresh_s": REFRESH_S if match.status in _OPEN else None,
            "replay_url": reverse("api-match-replay", args=[match.pk]),
            "winner_bot": {"a": match.bot_a, "b": match.bot_b}.get(match.outcome),
        },
    )


_OPEN = (Match.Status.QUEUED, Match.Status.RUNNING)


def _replay(match: Match) -> dict[str, Any] | None:
    if match.status != Match.Status.DONE or not match.has_replay:
        return None
    try:
        return replay_io.loads(replay_bytes(match_id=match.pk))
    except NotFound:  # deleted between the two reads
        return None


def _own_logs(request: HttpRequest, match: Match) -> list[MatchLog]:
    """The logs of the seats whose bot the user owns: never another author's output.

    (Staff get every seat from the selector; the page still shows a user only their own.)
    """
    user = request.user
    if not user.is_authenticated or user.pk not in (match.bot_a.owner_id, match.bot_b.owner_id):
        return []
    try:
        logs = match_log_list(match=match, user=user)
    except Forbidden:
        return []
    return [log for log in logs if log.bot.owner_id == user.pk]


def _public_error(match: Match, replay: dict[str, Any] | None) -> dict[str, Any] | None:
    """Who lost by a fault, where and why: the replay's public record, or the match row's."""
    error = (replay or {}).get("result", {}).get("error") if replay else None
    if error is None and match.error_kind:
        error = {"seat": match.error_seat, "kind": match.error_kind, "detail": match.error_detail}
    if not error:
        return None
    seat = error.get("seat")
    where = []
    if error.get("game"):
        where.append(f"game {error['game']}")
    elif "game" in error:
        where.append("before the first game")
    if error.get("hand"):
        where.append(f"hand {error['hand']}")
    phase = _PHASES.get(error.get("phase") or "")
    return {
        "seat": seat,
        "bot": match.bot_a if seat == 0 else match.bot_b if seat == 1 else None,
        "kind": error.get("kind", ""),
        "what": _FAULTS.get(error.get("kind", ""), error.get("kind", "failed")),
        "where": ", ".join(where) + (f" ({phase})" if phase else ""),
        "detail": error.get("detail", ""),
    }
