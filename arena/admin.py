"""The Django admin for every arena model: for staff to look into things and fix them.

Uploaded code, results and replays are immutable records, so their fields are read-only
here and new ones cannot be added by hand (uploads go through the checks in
``arena.services.bots``; matches are played by the workers). Lists select what they show
in one query, and the big tables skip the exact row count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from arena.algorithms.tournament_options import OPTIONS

if TYPE_CHECKING:
    from django.contrib.admin.options import _FieldsetSpec
from arena.errors import DomainError
from arena.models import (
    Bot,
    BotVersion,
    Match,
    MatchLog,
    MatchSeat,
    Rating,
    RatingHistory,
    Replay,
    Tournament,
    TournamentEntry,
    TournamentSchedule,
    TournamentSignup,
)
from arena.models.games import game_choices
from arena.models.matches import (
    MATCH_RESULT_FIELDS,
    MATCH_TIME_FIELDS,
    SEAT_OUTCOME_FIELDS,
    SEAT_RATING_FIELDS,
)
from arena.models.ratings import LIVE_RATING_FIELDS, RECORD_FIELDS


class _GameChoiceForm(forms.ModelForm):
    """A model form whose ``game`` is a choice of the hosted games (the field stores a plain
    name: adding a game is a folder, not a migration)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "game" in self.fields:
            self.fields["game"] = forms.ChoiceField(
                choices=[("", "---------"), *game_choices()],
                help_text="A hosted game.",
                initial=self.fields["game"].initial,
            )


class _RecordAdmin(admin.ModelAdmin):
    """Rows the platform writes: viewable and deletable, never added by hand."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "game", "is_active", "is_builtin", "active_version", "created")
    list_filter = ("game", "is_active", "is_builtin")
    search_fields = ("name", "owner__username")
    autocomplete_fields = ("owner",)
    raw_id_fields = ("active_version",)
    list_select_related = ("owner", "active_version__bot__owner")
    readonly_fields = ("created",)
    date_hierarchy = "created"


@admin.register(BotVersion)
class BotVersionAdmin(_RecordAdmin):
    list_display = ("__str__", "status", "kind", "size", "created", "validated_at")
    list_filter = ("status", "kind", "bot__game")
    search_fields = ("bot__name", "bot__owner__username", "sha256", "filename")
    raw_id_fields = ("bot",)
    list_select_related = ("bot__owner",)
    readonly_fields = (
        "bot",
        "number",
        "file",
        "filename",
        "kind",
        "sha256",
        "size",
        "created",
        "validation_log",
        "error_output",
        "validated_at",
    )


class MatchLogInline(admin.TabularInline):
    model = MatchLog
    extra = 0
    can_delete = False
    fields = ("seat", "bot", "output", "traceback", "steps")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class MatchSeatInline(admin.TabularInline):
    model = MatchSeat
    extra = 0
    can_delete = False
    fields = ("seat", "bot", "version", *SEAT_OUTCOME_FIELDS, *SEAT_RATING_FIELDS)
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(_RecordAdmin):
    list_display = ("id", "game", "kind", "status", "seat_count", "reason", "created", "duration_s")
    list_filter = ("status", "kind", "game", "reason", "rated", "ranked")
    search_fields = ("=id", "seats__bot__name")
    raw_id_fields = ("tournament",)
    show_full_result_count = False  # COUNT(*) over every match, on every page: no
    date_hierarchy = "created"
    inlines = (MatchSeatInline, MatchLogInline)
    readonly_fields = (
        "game",
        "kind",
        "tournament",
        "seed",
        "options",
        "seat_count",
        "ranked",
        "duplicate_key",
        "attempts",
        "claimed_by",
        *MATCH_TIME_FIELDS,
        *MATCH_RESULT_FIELDS,
        "replay_link",
    )

    @admin.display(description="replay")
    def replay_link(self, match: Match) -> str:
        url = reverse("api-match-replay", args=[match.pk])
        return format_html('<a href="{}">{}</a>', url, url)


@admin.register(MatchSeat)
class MatchSeatAdmin(_RecordAdmin):
    list_display = ("match", "seat", "bot", "version", "placing", "score", "fault")
    list_filter = ("fault", "match__game")
    search_fields = ("=match__id", "bot__name")
    raw_id_fields = ("match", "bot", "version")
    list_select_related = ("match", "bot__owner", "version__bot__owner")
    show_full_result_count = False
    readonly_fields = (*MatchSeatInline.fields, "match")


@admin.register(Replay)
class ReplayAdmin(_RecordAdmin):
    list_display = ("match", "size", "format")
    list_filter = ("format",)
    search_fields = ("=match__id",)
    raw_id_fields = ("match",)
    list_select_related = ("match",)
    show_full_result_count = False
    # ``data`` is kilobytes of gzip: shown as a link to the decoded document instead.
    fields = ("match", "size", "format", "document")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Replay]:
        return super().get_queryset(request).defer("data")

    @admin.display(description="document")
    def document(self, replay: Replay) -> str:
        url = reverse("api-match-replay", args=[replay.match_id])
        return format_html('<a href="{}">{}</a>', url, url)


@admin.register(MatchLog)
class MatchLogAdmin(_RecordAdmin):
    list_display = ("match", "seat", "bot")
    search_fields = ("=match__id", "bot__name")
    raw_id_fields = ("match", "bot")
    list_select_related = ("match", "bot__owner")
    show_full_result_count = False
    readonly_fields = ("match", "seat", "bot", "output", "traceback", "steps")


@admin.register(Rating)
class RatingAdmin(_RecordAdmin):
    list_display = (
        "version",
        "game",
        "current",
        "score",
        "mu",
        "sigma",
        "matches",
        "wins",
        "draws",
        "losses",
        "faults",
    )
    list_filter = ("game", "current")
    search_fields = ("bot__name", "bot__owner__username")
    raw_id_fields = ("bot", "version")
    list_select_related = ("version__bot__owner",)
    ordering = ("game", "-score", "id")
    readonly_fields = (
        "version",
        "bot",
        "game",
        "current",
        *LIVE_RATING_FIELDS,
        *RECORD_FIELDS,
        "updated",
    )


@admin.register(RatingHistory)
class RatingHistoryAdmin(_RecordAdmin):
    list_display = ("version", "game", "match", "score", "mu", "sigma", "created")
    list_filter = ("game",)
    search_fields = ("bot__name", "=match__id")
    raw_id_fields = ("version", "bot", "match")
    list_select_related = ("version__bot__owner", "match")
    show_full_result_count = False
    readonly_fields = ("version", "bot", "game", "match", "mu", "sigma", "score", "created")


class TournamentEntryInline(admin.TabularInline):
    model = TournamentEntry
    extra = 0
    can_delete = False
    raw_id_fields = ("bot", "version")
    readonly_fields = ("bot", "version")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # entries are frozen by tournament_start


class TournamentSignupInline(admin.TabularInline):
    """Sign-ups are their owners' (the API); staff may remove one, not add one."""

    model = TournamentSignup
    extra = 0
    raw_id_fields = ("bot",)
    readonly_fields = ("bot", "created")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


#: How the tournament options are grouped on both forms (a tournament's and a schedule's):
#: their fields are declared once (``TournamentOptionFields``), placed here after what the
#: tournament or schedule is.
_OPTION_FIELDSETS: _FieldsetSpec = (
    ("Format", {"fields": ("format", "table_size", "rounds", "matches_per_pairing")}),
    ("Play", {"fields": ("duplicate", "rated", "move_timeout_s", "time_bank_s")}),
)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    """Adding one here makes the same checks as the site and the API (``Tournament.clean``);
    a seed left empty is drawn at random. Organisers without admin access use the site."""

    form = _GameChoiceForm
    list_display = (
        "name",
        "game",
        "format",
        "status",
        "created_by",
        "created",
        "started_at",
        "finished_at",
    )
    list_filter = ("status", "game", "format")
    search_fields = ("name",)
    raw_id_fields = ("schedule", "created_by")
    list_select_related = ("created_by",)
    readonly_fields = ("status", "created", "started_at", "finished_at", "standings", "byes")
    fieldsets: ClassVar[_FieldsetSpec] = (
        (None, {"fields": ("name", "game", "seed", "status", "schedule", "created_by")}),
        *_OPTION_FIELDSETS,
        ("Entry", {"fields": ("entry", "entry_limit", "signup_deadline")}),
        (
            "Progress",
            {
                "fields": (
                    "created",
                    "scheduled_for",
                    "started_at",
                    "finished_at",
                    "standings",
                    "byes",
                )
            },
        ),
    )
    #: What a started tournament can no longer change: it is being (or was) played so.
    LOCKED_WHEN_STARTED = ("game", "seed", *OPTIONS)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        fields = tuple(super().get_readonly_fields(request, obj))
        if obj is not None and obj.status != Tournament.Status.PENDING:
            fields += self.LOCKED_WHEN_STARTED
        return fields

    inlines = (TournamentEntryInline, TournamentSignupInline)
    actions = ("start", "cancel")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        return super().get_queryset(request).defer("standings")

    @admin.action(description="Start the selected pending tournaments")
    def start(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        from arena.services.tournaments import tournament_start

        self._each(request, queryset, tournament_start, "started")

    @admin.action(description="Cancel the selected tournaments")
    def cancel(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        from arena.services.tournaments import tournament_cancel

        self._each(request, queryset, tournament_cancel, "cancelled")

    def _each(self, request: HttpRequest, queryset: QuerySet, action: Any, done: str) -> None:
        """Run a service on each tournament; one refused does not stop the others."""
        for tournament in queryset:
            try:
                action(tournament_id=tournament.pk)
            except DomainError as exc:
                self.message_user(request, f"{tournament}: {exc.message}", messages.ERROR)
            else:
                self.message_user(request, f"{tournament}: {done}.", messages.SUCCESS)


@admin.register(TournamentEntry)
class TournamentEntryAdmin(_RecordAdmin):
    list_display = ("tournament", "bot", "version")
    list_filter = ("tournament__game",)
    search_fields = ("tournament__name", "bot__name")
    raw_id_fields = ("tournament", "bot", "version")
    list_select_related = ("tournament", "bot__owner", "version__bot__owner")
    readonly_fields = ("tournament", "bot", "version")


@admin.register(TournamentSchedule)
class TournamentScheduleAdmin(admin.ModelAdmin):
    """Saving here keeps the beat PeriodicTask in step (arena.services.schedules signals)."""

    form = _GameChoiceForm

    list_display = ("name", "game", "format", "crontab", "enabled", "created_by", "created")
    list_filter = ("enabled", "game", "format")
    search_fields = ("name",)
    raw_id_fields = ("created_by",)
    list_select_related = ("created_by",)
    readonly_fields = ("periodic_task", "due_after", "created")
    fieldsets: ClassVar[_FieldsetSpec] = (
        (None, {"fields": ("name", "game", "crontab", "enabled", "created_by")}),
        *_OPTION_FIELDSETS,
        ("Entry", {"fields": ("entry", "entry_limit")}),
        ("Beat", {"fields": ("due_after", "periodic_task", "created")}),
    )
