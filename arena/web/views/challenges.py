"""Challenge pages: the user's challenges, asking for one, and one challenge's verdict.

Who sees a challenge is the selector's rule (the challenger, the rivals' owners, staff);
anyone else gets the site's 404 page.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from arena.errors import DomainError, TooManyRequests
from arena.selectors.challenges import (
    challenge_choices,
    challenge_get,
    challenge_list,
    challenge_rows,
    challenge_view,
    version_game,
)
from arena.services.challenges import challenge_create, challenge_quota_left, matches_per_day
from arena.web.errors import domain_errors
from arena.web.forms import ChallengeForm

__all__ = ["challenge_detail", "challenge_index", "challenge_new"]

PAGE_SIZE = 30
#: Seconds between reloads of a challenge's page while matches are left to play.
REFRESH_S = 10


@login_required
def challenge_index(request: HttpRequest) -> HttpResponse:
    """The challenges the user may see, newest first, with each one's score so far."""
    page = Paginator(challenge_list(user=request.user), PAGE_SIZE).get_page(request.GET.get("page"))
    rows = challenge_rows(challenges=list(page))
    return render(
        request,
        "arena/challenges/list.html",
        {"page": page, "rows": rows, "left": challenge_quota_left(user=request.user)},
    )


def _initial(request: HttpRequest) -> dict[str, object]:
    initial: dict[str, object] = {}
    for name in ("version", "rival"):
        value = request.GET.get(name, "")
        if value.isdigit():
            initial["rivals" if name == "rival" else name] = (
                [int(value)] if name == "rival" else int(value)
            )
    return initial


def _game_of(request: HttpRequest, initial: dict[str, object]) -> str | None:
    """The game the form is for: as asked (``?game=``, or the posted form's), else the game
    of the posted or preselected version, or of the preselected rival."""
    asked = request.POST.get("game") or request.GET.get("game")
    if asked:
        return asked
    posted = request.POST.get("version", "")
    if posted.isdigit():
        return version_game(version_id=int(posted))
    chosen = initial.get("version") or (initial.get("rivals") or [None])[0]  # type: ignore[index]
    return version_game(version_id=chosen) if isinstance(chosen, int) else None


@login_required
def challenge_new(request: HttpRequest) -> HttpResponse:
    """Ask for a challenge, for one game at a time; ``?rival=<version id>``, ``?version=`` and
    ``?game=`` preselect the form."""
    initial = _initial(request)
    choices = challenge_choices(user=request.user, game=_game_of(request, initial))
    if "version" not in initial and choices.versions:
        current = [c for c in choices.versions if c.current]
        initial["version"] = (current or choices.versions)[0].version_id
    form = ChallengeForm(request.POST or None, initial=initial, choices=choices)
    status = 200
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            challenge = challenge_create(
                user=request.user,
                version_id=data["version"],
                rival_version_ids=data["rivals"],
                matches=data["match_count"],
            )
        except TooManyRequests as exc:
            form.add_error("match_count", exc.message)
            status = 429
        except DomainError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect("challenge", challenge_id=challenge.pk)
    context = {
        "form": form,
        "choices": choices,
        "has_versions": bool(choices.versions),
        "left": challenge_quota_left(user=request.user),
        "per_day": matches_per_day(),
    }
    return render(request, "arena/challenges/new.html", context, status=status)


@login_required
@domain_errors
def challenge_detail(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """The verdict (score with its 95% interval), the table, and every match of it."""
    view = challenge_view(challenge=challenge_get(challenge_id=challenge_id, user=request.user))
    return render(
        request,
        "arena/challenges/detail.html",
        {"view": view, "refresh_s": REFRESH_S if not view.summary.done else None},
    )
