"""Match pages: the list, and one match with its replay viewer, result and the owner's logs."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Protocol

from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import PrefixNode, static
from django.urls import reverse

from arena.errors import Forbidden, NotFound
from arena.freshness import LocalCopies
from arena.http.compression import compress, compressed_answer
from arena.models import Match
from arena.selectors.bots import bot_brief
from arena.selectors.matches import (
    MatchState,
    MatchWithReplay,
    match_get,
    match_ids_list,
    match_log_list,
    match_state,
    replay_bytes,
)
from arena.selectors.tournaments import tournament_brief
from arena.web.errors import domain_errors
from arena.web.freshness import ValidatedRequest, conditional, shared_page, validated
from arena.web.gamefiles import renderer_static_path
from arena.web.match_rows import TableRowsPaginator
from arena.web.seats import (
    SeatView,
    fault_words,
    game_title,
    ordinal,
    result_line,
    seat_views,
)
from engine import replay as replay_io
from engine.registry import GAMES
from engine.steplogs import fault_moments, step_entries

__all__ = ["match_detail", "match_index", "replay_open"]

PAGE_SIZE = 50
#: How long an anonymous reader's rendered page of a finished match is kept (its bots' names
#: and owners could change meanwhile, in the admin; nothing else on it does).
PAGE_CACHE_S = 600
#: Seconds between reloads of a match that is still queued or running.
REFRESH_S = 5
_MATCH_FILTERS = ("bot", "opponent", "version", "status", "kind", "game", "tournament")

#: Seconds an anonymous reader's match list page is reused: new matches show within this
#: (a little later while one request renders the next, the others get the last one).
LIST_CACHE_S = 5
#: After this long without a reader, a match list page is rendered afresh by whoever asks.
LIST_KEEP_S = 60


def match_index(request: HttpRequest) -> HttpResponse:
    """Matches, newest first; anonymous readers share one rendering every few seconds.

    The list changes with every match played, so it has no cheap validator; a short shared
    rendering, renewed by one request while the others still get the previous one, is what
    keeps it off the database under load.
    """
    if request.user.is_authenticated:
        return _render_match_index(request)
    key = "match-list:" + hashlib.blake2s(request.get_full_path().encode()).hexdigest()
    return shared_page(
        request,
        key,
        lambda: _render_match_index(request),
        fresh_s=LIST_CACHE_S,
        keep_s=LIST_KEEP_S,
    )


def _render_match_index(request: HttpRequest) -> HttpResponse:
    """Matches, newest first, filtered by the same parameters as the API's list.

    With ``?bot=`` the page is that bot's: its name heads it and each row reads from its
    side (its placing, and who faulted).
    """
    filters = {name: request.GET[name] for name in _MATCH_FILTERS if request.GET.get(name)}
    invalid = False
    try:
        # The page's ids are sliced (and the list counted) from the bare, filtered match
        # table; its rows are read by key (TableRowsPaginator): match_list's joins and
        # prefetch would only make both queries' SQL slower to build.
        matches = match_ids_list(filters=filters)
    except ValidationError:
        matches, invalid = Match.objects.none(), True
    subject = opponent = tournament = None
    if not invalid and filters.get("bot"):
        subject = bot_brief(bot_id=int(filters["bot"]))
    if not invalid and filters.get("opponent"):
        opponent = bot_brief(bot_id=int(filters["opponent"]))
    if not invalid and filters.get("tournament"):
        tournament = tournament_brief(tournament_id=int(filters["tournament"]))
    page = TableRowsPaginator(matches, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "arena/matches/list.html",
        {
            "page": page,
            "filters": filters,
            "invalid": invalid,
            "subject": subject,
            "opponent": opponent,
            "tournament": tournament,
            "statuses": Match.Status.choices,
            "kinds": Match.Kind.choices,
            "games": [(name, game.title) for name, game in GAMES.items()],
        },
    )


class _MatchPageRequest(ValidatedRequest):
    """A match page's request: its state, read once for the validator, kept for the view."""

    match_state: MatchState | None


def _match_etag(request: _MatchPageRequest, match_id: int) -> str | None:
    """A finished match never changes again: its page is validated by its final state."""
    state = match_state(match_id=match_id)
    request.match_state = state
    if state is None or state["status"] in _OPEN:
        return None  # missing (404 follows) or still changing (the page reloads itself)
    finished = state["finished_at"].timestamp() if state["finished_at"] else 0
    return f"match-{match_id}-{state['status']}-{finished:.6f}-{int(state['rated'])}"


def _final(state: MatchState) -> bool:
    """Whether nothing about the match will change: played and rated (or never to be
    rated), or failed. A match played but not rated yet still gets its rating changes."""
    if state["status"] == Match.Status.FAILED:
        return True
    return state["status"] == Match.Status.DONE and (state["rated"] or not state["ranked"])


#: This process's copies of the final match pages read most (the newest matches'), in front
#: of the shared cache's: such a page no longer changes.
_FINAL_PAGES = LocalCopies(size=256, ttl_s=60)


def _final_key(match_id: int) -> str:
    return f"match-final:{match_id}"


def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    """A match's page. An anonymous reader of a match that can no longer change gets the
    page rendered once, from the cache, without reading the database (it is kept under the
    match's id with its validator, so a 304 costs one cache read too; the newest are also
    kept in the process for a minute, ``_FINAL_PAGES``, and cost no round trip)."""
    if not request.user.is_authenticated:
        key = _final_key(match_id)
        kept = _FINAL_PAGES.get(key)
        if kept is None:
            kept = cache.get(key)
            if kept is not None:
                _FINAL_PAGES.set(key, kept)
        if kept is not None:
            value, stored = kept
            return validated(request, value, lambda: compressed_answer(request, stored))
    return _match_detail(request, match_id)


@domain_errors
@conditional(_match_etag)
def _match_detail(request: _MatchPageRequest, match_id: int) -> HttpResponse:
    """A match's page; a finished match's page is rendered once for anonymous readers.

    Logged-in readers may see their own bots' logs on it, so theirs is rendered for them.
    """
    etag = None if request.user.is_authenticated else request.validator
    state = request.match_state  # never None with a validator
    if etag is None or state is None:
        return _render_match(request, match_id)
    if _final(state):
        response = _render_match(request, match_id)
        if response.status_code != 200:
            return response
        stored = compress(response.content)
        cache.set(_final_key(match_id), (etag, stored), PAGE_CACHE_S)
        _FINAL_PAGES.set(_final_key(match_id), (etag, stored))
        return compressed_answer(request, stored)
    return shared_page(
        request,
        f"match-page:{etag}",
        lambda: _render_match(request, match_id),
        fresh_s=PAGE_CACHE_S,
        keep_s=PAGE_CACHE_S,
    )


def _render_match(request: HttpRequest, match_id: int) -> HttpResponse:
    """The match, its replay embedded for the viewer, and the logs the user may read.

    The replay goes into the page (``json_script``) rather than being fetched, so the
    viewer needs no second request and works wherever the page does.
    """
    match = match_get(match_id=match_id)
    seats = seat_views(match)
    replay = _replay(match)
    logs = _visible_logs(request, match, seats, replay)
    faults = _faults(match, seats, replay)
    return render(
        request,
        "arena/matches/detail.html",
        {
            "match": match,
            "game_title": game_title(match.game),
            "seats": seats,
            "headline": result_line(seats) if match.status == Match.Status.DONE else "",
            "totals": _totals(match),
            "faults": faults,
            "ended_in": _ended_in(match, faults, replay),
            "replay": replay,
            "games": _game_rows(replay),
            "logs": logs,
            "viewer_logs": [log.for_viewer() for log in logs if log.entries] if replay else None,
            "renderer_url": renderer_url(match.game),
            "refresh_s": REFRESH_S if match.status in _OPEN else None,
            "replay_url": reverse("api-match-replay", args=[match.pk]),
        },
    )


_OPEN = (Match.Status.QUEUED, Match.Status.RUNNING)


def renderer_url(game: str) -> str:
    """Where the game's renderer module is served. A game without one still gets a URL:
    the viewer then says the replay cannot be drawn, instead of the page failing."""
    path = renderer_static_path(game)
    try:
        return static(path)
    except ValueError:  # not in the collected manifest
        return PrefixNode.handle_simple("STATIC_URL") + path


def _replay(match: MatchWithReplay) -> dict[str, Any] | None:
    if match.status != Match.Status.DONE or not match.has_replay:
        return None
    try:
        return replay_io.loads(replay_bytes(match_id=match.pk))
    except NotFound:  # deleted between the two reads
        return None


def _totals(match: Match) -> list[tuple[str, list[Any]]]:
    """The game's per-seat totals over the match (``{"points": [..]}``), seat by seat."""
    totals = match.totals if isinstance(match.totals, dict) else {}
    return [
        (key, list(values))
        for key, values in totals.items()
        if isinstance(values, list) and len(values) == match.seat_count
    ]


def _game_rows(replay: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Game by game: its number, each seat's score and placing, the game's word for it."""
    rows = []
    for game in (replay or {}).get("games", []):
        placings = game.get("placings") or []
        rows.append(
            {
                "number": game["number"],
                "scores": game.get("scores", []),
                "places": [ordinal(p + 1) for p in placings] if placings else [],
                "awarded": game.get("awarded", []),
                "result": game.get("result", ""),
                "fault": game.get("end") == "fault",
                "steps": len(game.get("steps", [])),
            }
        )
    return rows


# --- faults and logs ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FaultView:
    seat: SeatView | None
    kind: str
    what: str  # "crashed"
    detail: str  # public, platform-written
    game: int | None  # the game's number; 0 = before the first game; None = unknown
    where: str  # "step 6: hand 3, answer"
    link: str  # the viewer position, "game=1&step=5" ("" when there is none)


def _faults(match: Match, seats: list[SeatView], replay: dict[str, Any] | None) -> list[FaultView]:
    """Who failed, in which game and step, and why: the replay's public record of it (filed at
    the viewer's step by ``engine.steplogs``, as local replays file it), or the seats' (a match
    recorded without a replay)."""
    # Looked up by the seat a fault names, if it names one.
    by_seat: dict[int | None, SeatView] = {seat.seat: seat for seat in seats}
    found = [
        FaultView(
            seat=by_seat.get(fault.get("seat")),
            kind=fault.get("kind", ""),
            what=fault_words(fault.get("kind", "")),
            detail=fault.get("detail", ""),
            game=fault.get("game") if isinstance(fault.get("game"), int) else None,
            where=fault["where_text"],
            link=fault["link"],
        )
        for fault in fault_moments(replay)
    ]
    if found or replay is not None:
        return found
    return [
        FaultView(
            seat=seat,
            kind=seat.fault,
            what=fault_words(seat.fault),
            detail=seat.fault_detail,
            game=None,
            where="",
            link="",
        )
        for seat in seats
        if seat.fault
    ]


def _ended_in(match: Match, faults: list[FaultView], replay: dict[str, Any] | None) -> str:
    """ "in game 3" (or "before the first game") for a match a fault cut short, else ""."""
    if match.status != Match.Status.DONE or match.reason != "fault":
        return ""
    games = [fault.game for fault in faults if fault.game is not None]
    number = max(games) if games else len((replay or {}).get("games") or [])
    return f"in game {number}" if number else "before the first game"


@dataclass(frozen=True, slots=True)
class LogEntry:
    game: int  # the game's number (0: before the first game)
    step: int | None  # the viewer position: steps played in that game
    label: str  # "Game 1 · step 6 · hand 3, answer"
    text: str


@dataclass(frozen=True, slots=True)
class LogView:
    seat: int
    name: str
    entries: list[LogEntry]
    output: str  # the whole output, shown when it was not filed by step
    traceback: str  # shown once: "" when the output already holds it

    def for_viewer(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "entries": [
                {"game": e.game, "step": e.step, "label": e.label, "text": e.text}
                for e in self.entries
            ],
        }


def _visible_logs(
    request: HttpRequest, match: Match, seats: list[SeatView], replay: dict[str, Any] | None
) -> list[LogView]:
    """The logs of the seats whose bot the user owns (staff: every seat), never another
    author's output: what a bot prints may hold its strategy."""
    user = request.user
    owners = {seat.owner for seat in seats}
    if not user.is_authenticated or not (user.is_staff or user.get_username() in owners):
        return []
    try:
        logs = match_log_list(match=match, user=user)
    except Forbidden:
        return []
    names = {seat.seat: seat.label for seat in seats}
    return [_log_view(log, names.get(log.seat, log.bot.name), replay) for log in logs]


class _LogSource(Protocol):
    """What a log view is made from: a :class:`MatchLog`, or a playground draft's output."""

    @property
    def seat(self) -> int: ...
    @property
    def steps(self) -> list[Any] | None: ...
    @property
    def output(self) -> str: ...
    @property
    def traceback(self) -> str: ...


def _log_view(log: _LogSource, name: str, replay: dict[str, Any] | None) -> LogView:
    entries = [
        LogEntry(game=e["game"], step=e["step"], label=e["label"], text=e["text"])
        for e in step_entries(log.steps or [], replay)
    ]
    printed = "\n".join(entry.text for entry in entries) + "\n" + (log.output or "")
    traceback = log.traceback if log.traceback and log.traceback.strip() not in printed else ""
    return LogView(
        seat=log.seat,
        name=name,
        entries=entries,
        output="" if entries else log.output,
        traceback=traceback,
    )


def replay_open(request: HttpRequest) -> HttpResponse:
    """Open a replay file from the reader's own disk (dropped or chosen) in the viewer.

    Nothing is uploaded: the page's script reads the file in the browser and hands it to the
    same shell and renderers as a match page, which the page lists for every hosted game.
    """
    renderers = {
        name: {"url": renderer_url(name), "title": game.title} for name, game in GAMES.items()
    }
    return render(
        request,
        "arena/matches/open.html",
        {
            "renderers": renderers,
            "shell_url": _static_url("arena/viewer/shell.js"),
            "match": {"game": ""},
            "game_title": "",
            "renderer_url": "",
        },
    )


def _static_url(path: str) -> str:
    try:
        return static(path)
    except ValueError:  # not in the collected manifest
        return PrefixNode.handle_simple("STATIC_URL") + path
