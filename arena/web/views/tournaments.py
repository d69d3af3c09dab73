"""Tournament pages: the list, creating one (organisers), one tournament's standings with its
sign-up, start and cancel, and its exports.

Creating is two steps, as organisers expect of anything that queues hundreds of matches:
the form, then what it will play (how many matches, roughly how long at the workers' pace)
to confirm. Every refusal comes from the services and is shown beside the field it is about.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from arena.errors import DomainError, InvalidInput
from arena.http.downloads import csv_response, replays_zip_response, text_response
from arena.models import Tournament
from arena.selectors.accounts import is_organiser
from arena.selectors.games import hosted_game
from arena.selectors.matches import replays_of_tournament
from arena.selectors.schedules import next_scheduled_tournaments
from arena.selectors.standings import (
    crosstable_csv,
    crosstable_rows,
    csv_notes,
    has_match_points,
    standings_csv,
    tournament_rounds,
)
from arena.selectors.tournaments import (
    signup_choices,
    tournament_get,
    tournament_list,
    tournament_signups,
)
from arena.services.tournaments import (
    HOW_TO_READ,
    STANDINGS_VERSION,
    eligible_count,
    seats_of,
    tournament_cancel,
    tournament_create,
    tournament_options_check,
    tournament_participants,
    tournament_plan,
    tournament_signup,
    tournament_standings,
    tournament_start,
    tournament_withdraw,
)
from arena.web.errors import domain_errors
from arena.web.organisers import organiser_required
from arena.web.tournament_forms import TournamentForm
from engine.registry import GAMES

__all__ = [
    "tournament_cancel_view",
    "tournament_crosstable_csv",
    "tournament_csv_notes",
    "tournament_detail",
    "tournament_index",
    "tournament_new",
    "tournament_replays_zip",
    "tournament_signup_view",
    "tournament_standings_csv",
    "tournament_start_view",
    "tournament_withdraw_view",
]

PAGE_SIZE = 30
#: Seconds between reloads of a running tournament's page.
REFRESH_S = 10
#: ... and of a sign-up tournament's page once its deadline has passed (it starts in seconds).
STARTING_REFRESH_S = 3


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
            "can_organise": is_organiser(request.user),
        },
    )


def _game_of(request: HttpRequest) -> str:
    """The game the form is for: the posted one, ``?game=``, or the first hosted game."""
    asked = request.POST.get("game") or request.GET.get("game") or ""
    return asked if asked in GAMES else next(iter(GAMES))


@organiser_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    """Create a tournament of one game (``?game=``): the form, then its plan to confirm.

    A POST with ``review`` checks the form and shows what will be played; one with
    ``confirm`` (the same fields, carried over) creates it, and ``start`` starts it at once.
    """
    game = _game_of(request)
    seats = seats_of(game)
    form = TournamentForm(request.POST or None, seats=seats, initial={"name": ""})
    plan = None
    status = 200
    if request.method == "POST" and form.is_valid():
        options = form.options()
        try:
            if "confirm" in request.POST or "start" in request.POST:
                tournament = tournament_create(
                    name=form.cleaned_data["name"],
                    game=game,
                    seed=form.cleaned_data.get("seed"),
                    created_by=request.user,
                    **options,
                )
                return _created(request, tournament, start="start" in request.POST)
            plan = _plan(game, options)
        except InvalidInput as exc:
            form.add_service_error(exc)
            status = 400
    elif request.method == "POST":
        form.add_option_errors(
            lambda **options: tournament_options_check(game=game, now=timezone.now(), **options)
        )
        status = 400
    return render(
        request,
        "arena/tournaments/new.html",
        {
            "form": form,
            "game": hosted_game(game=game),
            "games": [(name, rules.title) for name, rules in GAMES.items()],
            "plan": plan,
            "seats": seats,
            # The bots that could enter now, for the form's own warning as options change.
            "eligible": eligible_count(game=game),
            "one_table_field": "table_size" if "table_size" in form.fields else "rounds",
        },
        status=status,
    )


def _plan(game: str, options: dict[str, Any]) -> Any:
    """What the tournament would play, after the services' own check of its options; a
    sign-up tournament is planned for every bot that could sign up (at most that)."""
    tournament_options_check(game=game, now=timezone.now(), **options)
    if options["entry"] == Tournament.Entry.TOP:
        probe = Tournament(game=game, entry=options["entry"], entry_limit=options["entry_limit"])
        entrants = len(tournament_participants(game=game, tournament=probe))
    else:
        entrants = len(tournament_participants(game=game))
    return tournament_plan(
        game=game,
        entrants=entrants,
        entrants_known=options["entry"] != Tournament.Entry.SIGNUP,
        **options,
    )


def _created(request: HttpRequest, tournament: Tournament, *, start: bool) -> HttpResponse:
    if start:
        try:
            tournament_start(tournament_id=tournament.pk)
        except DomainError as exc:
            messages.error(request, f"Created, but not started: {exc.message}")
        else:
            messages.success(request, f"{tournament.name} is created and started.")
    else:
        messages.success(request, f"{tournament.name} is created.")
    return redirect("tournament", tournament.pk)


@domain_errors
def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Standings and crosstable: stored once finished, computed live while running."""
    tournament = tournament_get(tournament_id=tournament_id, standings=False)
    results = _results(tournament)
    running = tournament.status == Tournament.Status.RUNNING
    signup = tournament.entry == Tournament.Entry.SIGNUP
    closed = (
        signup
        and tournament.status == Tournament.Status.PENDING
        and tournament.signup_deadline is not None
        and tournament.signup_deadline <= timezone.now()
    )
    refresh = STARTING_REFRESH_S if closed else REFRESH_S if running else None
    return render(
        request,
        "arena/tournaments/detail.html",
        {
            "tournament": tournament,
            "rules": GAMES.get(tournament.game),
            "results": results,
            "signups": list(tournament_signups(tournament=tournament)) if signup else None,
            "signup_open": signup and tournament.status == "pending" and not closed,
            "signup_closed_starting": closed,
            "choices": signup_choices(tournament=tournament, user=request.user) if signup else [],
            "can_organise": is_organiser(request.user),
            "progress": _progress(
                tournament, results["done"], results["total"], results["planned"]
            ),
            "refresh_s": refresh,
        },
    )


#: How long a finished tournament's rendered results are kept (they never change).
RESULTS_CACHE_S = 3600
#: Changes with the code and templates that draw the results, so a deployment never serves
#: HTML cached by the code before it.
_RESULTS_DRAWN_BY = hashlib.blake2s(
    b"".join(
        str(path.stat().st_mtime_ns).encode()
        for path in (
            Path(__file__).resolve().parents[2]
            / "templates"
            / "arena"
            / "tournaments"
            / "results.html",
            Path(__file__).resolve().parents[1] / "templatetags" / "tournament_tags.py",
            Path(__file__).resolve().parents[2] / "selectors" / "tournaments.py",
        )
    ),
    digest_size=6,
).hexdigest()


def _results_key(tournament: Tournament) -> str | None:
    """The cache key of a finished tournament's rendered results; None while they change."""
    if tournament.status != Tournament.Status.FINISHED or tournament.finished_at is None:
        return None
    finished = tournament.finished_at.timestamp()
    return (
        f"tournament-results:{tournament.pk}:{STANDINGS_VERSION}:{finished:.6f}:{_RESULTS_DRAWN_BY}"
    )


def _results(tournament: Tournament) -> dict[str, Any]:
    """The results section (standings, bracket or rounds, crosstable) as HTML, with the
    numbers the rest of the page needs. A finished tournament's are rendered once and kept:
    a 32-bot round robin's crosstable is a thousand cells, and they no longer change (its
    stored standings are not even read then). Before the start there are none."""
    if tournament.status == Tournament.Status.PENDING:
        size = 2 if tournament.format == Tournament.Format.DOUBLE_ELIMINATION else None
        return {
            "html": "",
            "seats": size or tournament.table_size or 2,
            "done": 0,
            "total": 0,
            "planned": [0, 0],
        }
    key = _results_key(tournament)
    if key is not None:
        kept = cache.get(key)
        if kept is not None:
            return kept
    standings = tournament_standings(tournament=tournament)
    total, done = standings.get("matches_total", 0), standings.get("matches_done", 0)
    match_points = has_match_points(standings)
    html = render_to_string(
        "arena/tournaments/results.html",
        {
            "tournament": tournament,
            "standings": standings,
            "how_to_read": HOW_TO_READ,
            "crosstable": crosstable_rows(standings),
            "match_points": match_points,
            "rounds": tournament_rounds(standings),
            "swiss": tournament.format == Tournament.Format.SWISS,
            "elimination": tournament.format
            in (Tournament.Format.DOUBLE_ELIMINATION, Tournament.Format.PROMOTION),
        },
    )
    results = {
        "html": mark_safe(html),  # noqa: S308 - rendered by the template engine, escaped there
        "seats": standings.get("seats") or 2,
        "done": done,
        "total": total,
        "planned": standings.get("matches_planned") or [total, total],
    }
    if key is not None:
        cache.set(key, results, RESULTS_CACHE_S)
    return results


def _progress(tournament: Tournament, done: int, total: int, planned: list[int]) -> dict[str, Any]:
    """How far along it is: matches over against what the whole tournament plays (rounds
    are created as it goes), full once it is finished."""
    finished = tournament.status == Tournament.Status.FINISHED
    end = total if finished else max(total, planned[0])
    return {
        "done": done,
        "total": total,
        "end": end,
        "planned": planned,
        "percent": 100 if finished else round(100 * done / end) if end else 0,
    }


@require_POST
@organiser_required
@domain_errors
def tournament_start_view(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_get(tournament_id=tournament_id)
    try:
        tournament_start(tournament_id=tournament.pk)
    except DomainError as exc:
        messages.error(request, f"Not started: {exc.message}")
    else:
        messages.success(request, f"{tournament.name} is started.")
    return redirect("tournament", tournament.pk)


@require_POST
@organiser_required
@domain_errors
def tournament_cancel_view(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_get(tournament_id=tournament_id)
    try:
        tournament_cancel(tournament_id=tournament.pk)
    except DomainError as exc:
        messages.error(request, f"Not cancelled: {exc.message}")
    else:
        messages.success(
            request, f"{tournament.name} is cancelled; its queued matches will not play."
        )
    return redirect("tournament", tournament.pk)


def _bot_id(request: HttpRequest) -> int | None:
    value = request.POST.get("bot", "")
    return int(value) if value.isdigit() and len(value) < 19 else None


@require_POST
@login_required
@domain_errors
def tournament_signup_view(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Sign one of the user's bots up (organisers: a built-in bot too)."""
    tournament = tournament_get(tournament_id=tournament_id)
    bot_id = _bot_id(request)
    if bot_id is None:
        messages.error(request, "Choose one of your bots to sign up.")
        return redirect("tournament", tournament.pk)
    try:
        signup, created = tournament_signup(
            tournament_id=tournament.pk, bot_id=bot_id, user=request.user
        )
    except DomainError as exc:
        messages.error(request, f"Not signed up: {exc.message}")
    else:
        verb = "is signed up" if created else "was already signed up"
        messages.success(request, f"{signup.bot.name} {verb}.")
    return redirect("tournament", tournament.pk)


@require_POST
@login_required
@domain_errors
def tournament_withdraw_view(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_get(tournament_id=tournament_id)
    bot_id = _bot_id(request)
    try:
        if bot_id is None:
            raise InvalidInput("no bot given")
        tournament_withdraw(tournament_id=tournament.pk, bot_id=bot_id, user=request.user)
    except DomainError as exc:
        messages.error(request, f"Not withdrawn: {exc.message}")
    else:
        messages.success(request, "Withdrawn.")
    return redirect("tournament", tournament.pk)


@domain_errors
def tournament_standings_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The standings as a CSV download (the same as the API's ``standings.csv``)."""
    tournament = tournament_get(tournament_id=tournament_id)
    body = standings_csv(tournament_standings(tournament=tournament), tournament=tournament)
    return csv_response(body, f"tournament-{tournament.pk}-standings.csv")


@domain_errors
def tournament_crosstable_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The crosstable, a row per pair, as a CSV download (the API's ``crosstable.csv``)."""
    tournament = tournament_get(tournament_id=tournament_id)
    body = crosstable_csv(tournament_standings(tournament=tournament))
    return csv_response(body, f"tournament-{tournament.pk}-crosstable.csv")


@domain_errors
def tournament_csv_notes(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """What the CSVs' columns mean and how to read their intervals (the API's ``notes.txt``)."""
    tournament = tournament_get(tournament_id=tournament_id)
    body = csv_notes(tournament, how_to_read=HOW_TO_READ)
    return text_response(body, f"tournament-{tournament.pk}-notes.txt")


@domain_errors
def tournament_replays_zip(request: HttpRequest, tournament_id: int) -> StreamingHttpResponse:
    """Every finished match's replay in one zip (the same as the API's ``replays.zip``)."""
    tournament = tournament_get(tournament_id=tournament_id)
    replays = replays_of_tournament(tournament=tournament)
    return replays_zip_response(replays, f"tournament-{tournament.pk}-replays.zip")
