"""Schedule pages: recurring tournaments, their crontab in words and next due times, their
past runs; organisers create, edit, pause, resume and delete them.

Creating and editing are two steps like a tournament's: the form, then the crontab read back
in words with its next three due times (UTC, the server's zone) and what each run plays, to
confirm. The services keep beat's task in step, with the same rule as the API: a crontab
edit starts no extra run.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from arena.crontabs import CrontabError, crontab_describe, next_due_times
from arena.errors import InvalidInput
from arena.selectors.accounts import is_organiser
from arena.selectors.games import hosted_game
from arena.selectors.schedules import schedule_get, schedule_list, schedule_runs, schedule_view
from arena.services.schedules import (
    schedule_create,
    schedule_delete,
    schedule_options_check,
    schedule_update,
)
from arena.services.tournaments import seats_of, tournament_participants, tournament_plan
from arena.web.errors import domain_errors
from arena.web.organisers import organiser_required
from arena.web.tournament_forms import ScheduleForm
from engine.registry import GAMES

__all__ = [
    "schedule_delete_view",
    "schedule_detail",
    "schedule_edit",
    "schedule_index",
    "schedule_new",
    "schedule_pause",
    "schedule_resume",
]


def schedule_index(request: HttpRequest) -> HttpResponse:
    """Every schedule with its crontab in words and next run; paused ones marked."""
    views = [
        schedule_view(schedule=s, count=1)
        for s in schedule_list().select_related("periodic_task__crontab")
    ]
    return render(
        request,
        "arena/schedules/list.html",
        {"views": views, "can_organise": is_organiser(request.user)},
    )


@domain_errors
def schedule_detail(request: HttpRequest, schedule_id: int) -> HttpResponse:
    schedule = schedule_get(schedule_id=schedule_id)
    return render(
        request,
        "arena/schedules/detail.html",
        {
            "view": schedule_view(schedule=schedule),
            "schedule": schedule,
            "runs": schedule_runs(schedule=schedule),
            "game_rules": GAMES.get(schedule.game),
            "can_organise": is_organiser(request.user),
        },
    )


def _crontab_described(crontab: str) -> tuple[str, list[Any]]:
    """The crontab in words and its next three due times; InvalidInput on ``crontab``."""
    try:
        return crontab_describe(crontab), next_due_times(crontab, after=timezone.now())
    except CrontabError as exc:
        raise InvalidInput(
            exc.message, code="bad_crontab", extra={"fields": {"crontab": [exc.message]}}
        ) from None


def _checked(game: str, crontab: str, options: dict[str, Any]) -> None:
    """The crontab and the options checked together: one InvalidInput naming every bad
    field (the crontab's first)."""
    found: list[InvalidInput] = []
    for check in (
        lambda: _crontab_described(crontab),
        lambda: schedule_options_check(game=game, **options),
    ):
        try:
            check()
        except InvalidInput as exc:
            found.append(exc)
    if found:
        fields: dict[str, Any] = {}
        for refusal in found:
            fields.update(refusal.field_messages())
        raise InvalidInput(found[0].message, code=found[0].code, extra={"fields": fields})


def _preview(game: str, crontab: str, options: dict[str, Any]) -> dict[str, Any]:
    """The crontab in words, its next three due times and what each run would play now."""
    _checked(game, crontab, options)
    described, runs = _crontab_described(crontab)
    plan = tournament_plan(
        game=game,
        entrants=len(tournament_participants(game=game)),
        entrants_known=True,
        **options,
    )
    return {"described": described, "runs": runs, "plan": plan}


def _form_page(request: HttpRequest, *, game: str, instance: Any = None) -> HttpResponse:
    """The schedule form for ``game`` (new, or editing ``instance``): review, then save."""
    seats = seats_of(game)
    initial = None
    if instance is not None:
        initial = {
            "name": instance.name,
            "crontab": instance.crontab,
            "enabled": instance.enabled,
            **instance.options(),
        }
    form = ScheduleForm(request.POST or None, seats=seats, initial=initial)
    preview = None
    status = 200
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        options = form.options()
        try:
            if "confirm" in request.POST:
                _checked(game, data["crontab"], options)
                fields = {
                    "name": data["name"],
                    "crontab": data["crontab"],
                    "enabled": data["enabled"],
                }
                if instance is None:
                    saved = schedule_create(game=game, created_by=request.user, **fields, **options)
                    messages.success(request, f"{saved.name} is scheduled.")
                else:
                    saved = schedule_update(schedule=instance, game=game, **fields, **options)
                    messages.success(request, f"{saved.name} is saved.")
                return redirect("schedule", saved.pk)
            preview = _preview(game, data["crontab"], options)
        except InvalidInput as exc:
            form.add_service_error(exc)
            status = 400
    elif request.method == "POST":
        form.add_option_errors(lambda **options: schedule_options_check(game=game, **options))
        crontab = form.cleaned_data.get("crontab")
        if crontab is not None and "crontab" not in form.errors:
            try:
                _crontab_described(crontab)
            except InvalidInput as exc:
                form.add_service_error(exc)
        status = 400
    return render(
        request,
        "arena/schedules/form.html",
        {
            "form": form,
            "game": hosted_game(game=game),
            "games": [(name, rules.title) for name, rules in GAMES.items()],
            "schedule": instance,
            "preview": preview,
        },
        status=status,
    )


@organiser_required
def schedule_new(request: HttpRequest) -> HttpResponse:
    asked = request.POST.get("game") or request.GET.get("game") or ""
    return _form_page(request, game=asked if asked in GAMES else next(iter(GAMES)))


@organiser_required
@domain_errors
def schedule_edit(request: HttpRequest, schedule_id: int) -> HttpResponse:
    schedule = schedule_get(schedule_id=schedule_id)
    asked = request.POST.get("game") or request.GET.get("game") or schedule.game
    return _form_page(request, game=asked if asked in GAMES else schedule.game, instance=schedule)


@require_POST
@organiser_required
@domain_errors
def schedule_pause(request: HttpRequest, schedule_id: int) -> HttpResponse:
    schedule = schedule_update(schedule=schedule_get(schedule_id=schedule_id), enabled=False)
    messages.success(request, f"{schedule.name} is paused: nothing runs until it is resumed.")
    return redirect("schedule", schedule.pk)


@require_POST
@organiser_required
@domain_errors
def schedule_resume(request: HttpRequest, schedule_id: int) -> HttpResponse:
    schedule = schedule_update(schedule=schedule_get(schedule_id=schedule_id), enabled=True)
    messages.success(
        request, f"{schedule.name} is resumed: it runs at its next due time, not for those missed."
    )
    return redirect("schedule", schedule.pk)


@organiser_required
@domain_errors
def schedule_delete_view(request: HttpRequest, schedule_id: int) -> HttpResponse:
    """GET asks to confirm; POST deletes (its past tournaments stay)."""
    schedule = schedule_get(schedule_id=schedule_id)
    if request.method == "POST":
        name = schedule.name
        schedule_delete(schedule=schedule)
        messages.success(request, f"{name} is deleted; its past tournaments stay.")
        return redirect("schedules")
    return render(
        request,
        "arena/schedules/delete.html",
        {"schedule": schedule, "runs": len(schedule_runs(schedule=schedule))},
    )
