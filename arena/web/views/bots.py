"""Bot pages: the list, a bot's page, creating a bot, uploading a version, owner actions.

Who sees what is decided here once and tested in tests/arena/web/views/test_access.py:
everybody sees a bot, its versions' numbers and statuses, its matches and ratings; only its
owner sees the versions' file names, validation logs and error output, and downloads the
source.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from arena.errors import DomainError
from arena.http.downloads import replays_zip_response
from arena.http.requests import SignedInRequest
from arena.models import Bot, BotVersion, Rating
from arena.selectors.bots import (
    RatingPoint,
    bot_current_rating,
    bot_get,
    bot_list,
    bot_page_get,
    bot_rating_history,
    bot_version_get,
    bot_versions_for_page,
    version_rating,
    version_rating_history,
    version_source,
    version_status,
)
from arena.selectors.challenges import version_comparison
from arena.selectors.head_to_head import bot_head_to_head_table
from arena.selectors.ladder import version_rank
from arena.selectors.matches import bot_recent_match_ids, match_list, replays_of_bot
from arena.selectors.stats import version_stats
from arena.services.bots import bot_create, bot_deactivate, bot_update, bot_version_upload
from arena.web.errors import domain_errors
from arena.web.forms import BotCreateForm, BotDescriptionForm, UploadForm
from arena.web.match_rows import table_rows
from arena.web.seats import game_title
from arena.web.throttling import upload_refusal
from engine.registry import GAMES

__all__ = [
    "bot_deactivate_view",
    "bot_detail",
    "bot_edit",
    "bot_index",
    "bot_new",
    "bot_replays_zip",
    "bot_upload",
    "version_detail",
    "version_source_download",
    "version_status_json",
]

PAGE_SIZE = 50
VERSIONS_SHOWN = 20
RECENT_MATCHES_SHOWN = 20
#: Opponents in its head-to-head table, the most played (a ladder bot meets thousands).
HEAD_TO_HEAD_SHOWN = 25
_BOT_FILTERS = ("owner", "search", "game")


def _is_owner(request: HttpRequest, bot: Bot) -> bool:
    return request.user.is_authenticated and request.user.pk == bot.owner_id


def bot_index(request: HttpRequest) -> HttpResponse:
    """Every bot by name; ``?owner=`` is how a user finds their own ("My bots")."""
    filters = {name: request.GET[name] for name in _BOT_FILTERS if request.GET.get(name)}
    try:
        bots = bot_list(filters=filters)
    except ValidationError:
        # A hand-edited query string (an unknown game): say so instead of listing everything.
        bots, filters["invalid"] = Bot.objects.none(), "1"
    page = Paginator(bots, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "arena/bots/list.html", {"page": page, "filters": filters})


@login_required
def bot_new(request: SignedInRequest) -> HttpResponse:
    """Create a bot, and upload its first version in the same step when a file is given.

    Both happen in one transaction: a rejected file leaves no bot behind, so the author can
    fix the file and submit the same name again.
    """
    # A game's page links here with ?game=: the author chose it there.
    initial = {"game": request.GET["game"]} if request.GET.get("game") in GAMES else None
    form = BotCreateForm(request.POST or None, request.FILES or None, initial=initial)
    if request.method == "POST" and form.is_valid() and form.cleaned_data["file"]:
        refusal = upload_refusal(request)
        if refusal:
            form.add_error("file", refusal)
            return render(request, "arena/bots/new.html", {"form": form}, status=429)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        field = "name"
        try:
            with transaction.atomic():
                bot = bot_create(
                    owner=request.user,
                    name=data["name"],
                    game=data["game"],
                    description=data["description"],
                )
                version = None
                if data["file"]:
                    field = "file"
                    version = bot_version_upload(bot=bot, user=request.user, upload=data["file"])
        except ValidationError as exc:
            form.add_error(None, exc)
        except DomainError as exc:
            form.add_error(field, exc.message)
        else:
            messages.success(request, f"Bot {bot.name} created.")
            if version is None:
                return redirect("bot", bot_id=bot.pk)
            return redirect("bot-version", bot_id=bot.pk, number=version.number)
    # Errors re-render the form with a 200, as Django's form views do: the page is fine,
    # the input is not (a 4xx would also log a console error in every browser).
    return render(request, "arena/bots/new.html", {"form": form})


@domain_errors
def bot_detail(request: HttpRequest, bot_id: int) -> HttpResponse:
    """The bot's public page; its owner also gets the actions and the versions' logs.

    Eight queries whatever the bot's history (tests/arena/web/views/test_queries.py): the bot
    with its owner and active version, its newest versions with their ratings, its rating
    chart, its recent matches (their ids, then the matches and their seats: one query joining all
    three cost PostgreSQL five times as much to plan), its head-to-head with the opponents'
    names, and its comparison; its rank comes from the ladder's kept order (docs/deploy.md,
    "Load and scale").
    """
    bot = bot_page_get(bot_id=bot_id)
    is_owner = _is_owner(request, bot)
    versions = list(bot_versions_for_page(bot=bot, user=request.user)[:VERSIONS_SHOWN])
    rated = [version.rating for version in versions if _has_rating(version)]
    current = next((rating for rating in rated if rating.current), None)
    if current is None and len(versions) == VERSIONS_SHOWN:
        current = bot_current_rating(bot=bot)  # on a version older than those shown
    if current is not None:
        current.bot = bot  # its rank reads whether the bot is on the ladder
    head_to_head = bot_head_to_head_table(bot=bot, limit=HEAD_TO_HEAD_SHOWN)
    numbers = {version.pk: version.number for version in versions}
    return render(
        request,
        "arena/bots/detail.html",
        {
            "bot": bot,
            "is_owner": is_owner,
            "game_title": game_title(bot.game),
            "current": current,
            "rank": version_rank(rating=current) if current is not None else None,
            # Ratings are per version: each version has its own record.
            "versions": [
                (version, version.rating if _has_rating(version) else None) for version in versions
            ],
            "history": bot_rating_history(bot=bot, version_numbers=numbers),
            "matches": table_rows(bot_recent_match_ids(bot=bot, limit=RECENT_MATCHES_SHOWN)),
            "head_to_head": head_to_head.rows,
            "opponents_met": head_to_head.opponents,
            "head_to_head_capped": head_to_head.capped,
            "head_to_head_matches": head_to_head.matches,
            "comparison": (
                version_comparison(version=bot.active_version) if bot.active_version else None
            ),
            "can_challenge": _can_challenge(request, bot),
            "description_form": (
                BotDescriptionForm(initial={"description": bot.description}) if is_owner else None
            ),
        },
    )


def _has_rating(version: BotVersion) -> bool:
    """Whether the version has a rating (read with it: no query either way)."""
    try:
        version.rating  # noqa: B018
    except Rating.DoesNotExist:
        return False
    return True


def _can_challenge(request: HttpRequest, bot: Bot) -> bool:
    """Whether to offer "Challenge this bot": a logged-in user, a bot on the ladder."""
    return (
        request.user.is_authenticated
        and bot.is_active
        and bot.active_version_id is not None
        and not _is_owner(request, bot)
    )


@login_required
@require_POST
@domain_errors
def bot_edit(request: HttpRequest, bot_id: int) -> HttpResponse:
    """Save the description (the service refuses anyone but the owner: a 403 here)."""
    bot = bot_get(bot_id=bot_id)
    form = BotDescriptionForm(request.POST)
    if not form.is_valid():
        said = form.errors.get("description", ["Invalid description."])
        messages.error(request, " ".join(str(message) for message in said))
        return redirect("bot", bot_id=bot.pk)
    bot_update(bot=bot, user=request.user, description=form.cleaned_data["description"])
    messages.success(request, "Description saved.")
    return redirect("bot", bot_id=bot.pk)


@login_required
@require_POST
@domain_errors
def bot_deactivate_view(request: HttpRequest, bot_id: int) -> HttpResponse:
    """Take the bot off the ladder for good (owner only, by the service)."""
    bot = bot_deactivate(bot=bot_get(bot_id=bot_id), user=request.user)
    messages.success(request, f"{bot.name} is deactivated: it has left the ladder.")
    return redirect("bot", bot_id=bot.pk)


@login_required
@domain_errors
def bot_upload(request: HttpRequest, bot_id: int) -> HttpResponse:
    """The upload form; a rejected file is explained on the page and nothing is stored."""
    bot = bot_get(bot_id=bot_id)
    if not _is_owner(request, bot):
        raise PermissionDenied("Only the bot's owner may upload versions.")
    form = UploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        refusal = upload_refusal(request)
        if refusal:
            form.add_error("file", refusal)
            context = {"bot": bot, "form": form}
            return render(request, "arena/bots/upload.html", context, status=429)
        try:
            version = bot_version_upload(
                bot=bot, user=request.user, upload=form.cleaned_data["file"]
            )
        except DomainError as exc:
            form.add_error("file", exc.message)
        else:
            return redirect("bot-version", bot_id=bot.pk, number=version.number)
    return render(request, "arena/bots/upload.html", {"bot": bot, "form": form})


@domain_errors
def version_detail(request: HttpRequest, bot_id: int, number: int) -> HttpResponse:
    """A version's validation: progress while pending, then the verdict (logs: owner only);
    once it has played, its statistics, its comparison with the previous version, its rating
    over time and its matches."""
    bot = bot_get(bot_id=bot_id)
    version = bot_version_get(bot=bot, number=number)
    played = version.status == BotVersion.Status.VALID
    stats = version_stats(version=version) if played else None
    return render(
        request,
        "arena/bots/version.html",
        {
            "bot": bot,
            "version": version,
            "is_owner": _is_owner(request, bot),
            "status_url": reverse("bot-version-status", args=[bot.pk, version.number]),
            "comparison": version_comparison(version=version) if played else None,
            "stats": stats,
            "game_stats": game_stat_rows(bot.game, stats.game_stats) if stats else [],
            "rating": version_rating(version=version) if played else None,
            "history": _as_points(version) if played else [],
            "matches": list(match_list(filters={"version": str(version.pk)})[:20])
            if played
            else [],
        },
    )


def _number(value: float, digits: int) -> str:
    """2.5 -> "2.5", 16.0 -> "16" (no decimals that mean nothing)."""
    return f"{value:.{digits}f}".rstrip("0").rstrip(".")


def game_stat_rows(game: str, values: dict[str, float | None]) -> list[dict[str, str]]:
    """The game's own numbers as the version page shows them: each with its unit (a share as
    a percentage, a count as so many a match, as the means they are) and what it means, as
    the game declares (``stats_meaning``); a number the game does not explain is shown
    plainly."""
    meanings = getattr(GAMES.get(game), "stats_meaning", {}) or {}
    rows = []
    for name, value in values.items():
        unit, meaning = meanings.get(name, ("number", ""))
        if value is None:
            text = "—"
        elif unit == "share":
            text = f"{value * 100:.1f}%"
        elif unit == "count":
            text = f"{_number(value, 1)} a match"
        else:
            text = _number(value, 2)
        rows.append({"name": name, "text": text, "meaning": meaning})
    return rows


def _as_points(version: BotVersion) -> list[RatingPoint]:
    """The version's rating history in the shape the bot page's chart draws (the matches a
    refit has reached)."""
    return [
        RatingPoint(row.rating, row.rating_sigma, version.number)
        for row in version_rating_history(version=version)
        if row.rating is not None and row.rating_sigma is not None  # a refit writes both
    ]


@require_GET
@never_cache
@domain_errors
def version_status_json(request: HttpRequest, bot_id: int, number: int) -> JsonResponse:
    """What the validation page polls: the status only (public, like the API's)."""
    return JsonResponse(version_status(bot_id=bot_id, number=number))


@login_required
@never_cache
@domain_errors
def version_source_download(request: HttpRequest, bot_id: int, number: int) -> HttpResponse:
    """The uploaded file as an attachment; the selector refuses anyone but the owner."""
    bot = bot_get(bot_id=bot_id)
    version = bot_version_get(bot=bot, number=number)
    data = version_source(version=version, user=request.user)  # owner only, else Forbidden
    kind = "application/zip" if version.kind == BotVersion.Kind.ZIP else "text/x-python"
    response = HttpResponse(data, content_type=kind)
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=version.filename or f"bot-v{version.number}.{version.kind}"
    )
    return response


@login_required
@never_cache
@domain_errors
def bot_replays_zip(request: HttpRequest, bot_id: int) -> HttpResponseBase:
    """The replays of the bot's newest finished matches in one zip (owner only; ``?version=``
    keeps one version's), streamed (``arena.http.downloads``)."""
    bot = bot_get(bot_id=bot_id)
    raw = request.GET.get("version", "")
    if raw and not (raw.isascii() and raw.isdigit() and len(raw) < 10):
        # Not "every version": a mistyped link would hand back far more than was asked for.
        return HttpResponseBadRequest("version must be a version number: 1, 2, 3...")
    version = int(raw) if raw else None
    replays = replays_of_bot(bot=bot, user=request.user, version=version)  # else Forbidden
    suffix = f"-v{version}" if version is not None else ""
    return replays_zip_response(replays, f"{bot.name}{suffix}-replays.zip")
