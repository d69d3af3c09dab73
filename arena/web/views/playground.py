"""The playground page of each game (``/games/<game>/play/``): write a bot in the browser,
run it against chosen opponents, watch its matches, upload it as a new version.

The page is one editor (CodeMirror, ``arena/static/arena/editor/``) beside the game's rules,
driven by ``arena/static/arena/playground.js`` through the playground API (the same calls a
script makes: docs/api.md, "Playground"). A match's replay opens inline: the match's own
page, framed by the playground (same origin only), is the site's viewer unchanged.
**Upload as new version** posts the editor's source here and goes through the normal upload
(``bot_version_upload``, within the upload rate limit every upload draws on, and in one
transaction with the new bot it may create, so a refused upload leaves no bot behind): a
version page follows, with its validation.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.files.base import ContentFile
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.http import require_POST

from arena.errors import DomainError, InvalidInput, NotFound, TooManyRequests
from arena.http.requests import SignedInRequest
from arena.models import Bot
from arena.selectors.games import game_starter_bot, hosted_game
from arena.selectors.playground import (
    draft_for,
    opponent_choices,
    playground_match_get,
    playground_replay,
    run_latest_id,
)
from arena.services.bots import bot_create, bot_version_upload
from arena.services.playground import MAX_MATCHES, draft_save, runs_per_hour
from arena.web.docs import doc_render_path
from arena.web.errors import domain_errors
from arena.web.seats import fault_words, game_title, ordinal
from arena.web.security import editor_styles, frameable_by_self
from arena.web.throttling import upload_refusal
from arena.web.views.games import seat_range
from arena.web.views.matches import _game_rows, _log_view, renderer_url

__all__ = ["playground", "playground_match", "playground_upload"]

#: The name the draft goes by in logs and on its match pages.
DRAFT = "your draft"


def _starter(game: str) -> str:
    try:
        return game_starter_bot(game=game).source.decode("utf-8")
    except NotFound:
        return "def act(observation):\n    return observation['legal_actions'][0]\n"


@login_required
@never_cache
@editor_styles
@domain_errors
def playground(request: SignedInRequest, game: str) -> HttpResponse:
    """The editor on the user's draft (or the starter), the rules beside it, the run form."""
    rules = hosted_game(game=game)
    starter = _starter(game)
    draft = draft_for(user=request.user, game=game)
    choices = opponent_choices(user=request.user, game=game)
    groups: dict[str, list[dict[str, str]]] = {}
    for choice in choices:
        groups.setdefault(choice.group, []).append({"ref": choice.ref, "label": choice.label})
    latest = run_latest_id(user=request.user, game=game)
    own_bots = Bot.objects.filter(owner=request.user, game=game, is_active=True).order_by("name")
    doc = doc_render_path(rules.docs_path())
    return render(
        request,
        "arena/playground/page.html",
        {
            "game": rules,
            "seats": seat_range(rules),
            "rules_html": doc.html if doc else "",
            "own_bots": own_bots,
            "max_matches": MAX_MATCHES,
            "runs_per_hour": runs_per_hour(),
            "upload_max": settings.ARENA_UPLOAD_MAX_BYTES,
            "config": {
                "game": game,
                "title": rules.title,
                "minPlayers": rules.min_players,
                "maxPlayers": rules.max_players,
                "maxMatches": MAX_MATCHES,
                "uploadMax": settings.ARENA_UPLOAD_MAX_BYTES,
                # The site writes moments in the server's zone (the ``when`` filter).
                "timeZone": settings.TIME_ZONE,
                "draftId": draft.pk if draft else None,
                "latestRun": latest,
                "opponents": [{"group": name, "choices": items} for name, items in groups.items()],
                "urls": {
                    "drafts": reverse("api-playground-drafts"),
                    "runs": reverse("api-playground-runs"),
                    "opponents": reverse("api-playground-opponents"),
                    "match": reverse("playground-match", args=[game, 0, 0]),
                },
            },
            "source": draft.source if draft else starter,
            "starter": starter,
        },
    )


@login_required
@require_POST
@domain_errors
def playground_upload(request: SignedInRequest, game: str) -> HttpResponse:
    """**Upload as new version**: the editor's source through the normal upload, into one of
    the user's bots of this game or a new one; then the version's page, validating."""
    hosted_game(game=game)
    back = redirect("playground", game=game)
    # A form sends a textarea's line ends as CRLF: the file keeps the editor's LF.
    source = request.POST.get("source", "").replace("\r\n", "\n")
    try:
        draft_save(user=request.user, game=game, source=source)  # nothing typed is lost
        # The upload budget every upload draws on (the API's and the upload page's).
        refusal = upload_refusal(request)
        if refusal:
            raise TooManyRequests(refusal, code="throttled")
        # One transaction: a refused upload into "a new bot" leaves no bot behind.
        with transaction.atomic():
            bot = _upload_target(request, game)
            version = bot_version_upload(
                bot=bot,
                user=request.user,
                upload=ContentFile(source.encode("utf-8"), name="bot.py"),
            )
    except DomainError as exc:
        line = exc.extra.get("line")
        messages.error(
            request, f"Not uploaded: {exc.message}" + (f" (line {line})" if line else "")
        )
        return back
    messages.success(
        request,
        f"Uploaded as {bot.name} v{version.number}: it is being validated in the sandbox, like "
        "every upload. This page follows its progress.",
    )
    return redirect("bot-version", bot_id=bot.pk, number=version.number)


def _upload_target(request: SignedInRequest, game: str) -> Bot:
    """The user's bot named in the form, or a new one of this game."""
    chosen = request.POST.get("bot", "")
    if chosen == "new":
        name = request.POST.get("name", "").strip()
        if not name:
            raise InvalidInput("name the new bot")
        return bot_create(owner=request.user, name=name, game=game)
    if not (chosen.isascii() and chosen.isdigit() and len(chosen) < 19):
        raise NotFound("Choose one of your bots, or a new one.")
    bot = Bot.objects.filter(pk=int(chosen), owner=request.user, game=game).first()
    if bot is None:
        raise NotFound("Choose one of your bots of this game, or a new one.")
    return bot


@login_required
@never_cache
@frameable_by_self
@xframe_options_sameorigin
@domain_errors
def playground_match(request: HttpRequest, game: str, run_id: int, number: int) -> HttpResponse:
    """One playground match in the site's viewer, with the draft's log by step.

    Only its author sees it (anyone else: 404). ``?embed=1`` is the bare page the playground
    frames inline; the page may be framed by the site itself only.
    """
    match = playground_match_get(user=request.user, run_id=run_id, number=number)
    run = match.run
    if run.game != game:
        raise Http404("No such match in this game's playground.")
    replay = playground_replay(match=match) if match.status == "done" and match.replay else None
    names = _names(match, run)
    log = _log_view(_DraftLog(match), DRAFT, replay) if replay else None
    embed = request.GET.get("embed") == "1"
    return render(
        request,
        "arena/playground/match.html",
        {
            "base": "arena/playground/embed.html" if embed else "arena/base.html",
            "embed": embed,
            "match": {"game": game},  # what viewer.html reads
            "pmatch": match,
            "run": run,
            "game_title": game_title(game),
            "seats": _seat_rows(match, names),
            "fault": _fault_line(match, replay),
            "replay": replay,
            "games": _game_rows(replay),
            "log": log,
            "viewer_logs": [log.for_viewer()] if log and log.entries else None,
            "renderer_url": renderer_url(game),
            "replay_url": reverse("api-playground-replay", args=[run.pk, match.number]),
        },
    )


class _DraftLog:
    """The draft's output in the shape the match pages' log view reads."""

    def __init__(self, match: Any) -> None:
        self.seat = match.draft_seat
        self.steps = match.steps
        self.output = match.output
        self.traceback = match.traceback


def _names(match: Any, run: Any) -> list[str]:
    others = [opponent.get("label", "?") for opponent in run.opponents]
    return [
        DRAFT if seat == match.draft_seat else others.pop(0) for seat in range(match.seat_count)
    ]


def _seat_rows(match: Any, names: list[str]) -> list[dict[str, Any]]:
    rows = []
    for seat, name in enumerate(names):
        placing = match.placings[seat] if len(match.placings) > seat else None
        shared = placing is not None and list(match.placings).count(placing) > 1
        rows.append(
            {
                "seat": seat,
                "label": name,
                "mine": seat == match.draft_seat,
                "place": "" if placing is None else ("=" if shared else "") + ordinal(placing + 1),
                "first": placing == 0,
                "score": match.scores[seat] if len(match.scores) > seat else "",
            }
        )
    return rows


def _fault_line(match: Any, replay: dict[str, Any] | None) -> dict[str, str] | None:
    """The draft's fault as the match pages word one, with its place in the viewer."""
    if not match.fault:
        return None
    where = ""
    if match.fault_link:
        game, _, step = match.fault_link.partition("&")
        number, moment = game.split("=")[1], int(step.split("=")[1])
        where = f"in game {number}, " + (f"after step {moment}" if moment else "at the deal")
    elif replay is not None:
        where = "before the first game"
    return {
        "what": fault_words(match.fault),
        "where": where,
        "detail": match.fault_detail,
        "link": match.fault_link,
    }
