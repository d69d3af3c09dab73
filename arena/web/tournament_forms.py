"""The organisers' forms: a tournament, and a schedule of recurring ones, for one game.

Each form is for one game (the page's game tabs), so its table sizes are the game's own. The
fields check shape only; the options are checked by the services (the one check the API and
the admin make too), whose message lands beside the field it names.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC
from typing import Any

from django import forms

from arena.algorithms.tournament_options import (
    DEFAULTS,
    ENTRIES,
    FORMATS,
    MAX_ENTRY_LIMIT,
    MAX_MATCHES_PER_PAIRING,
    MAX_MOVE_TIMEOUT_S,
    MAX_ROUNDS,
    MAX_TIME_BANK_S,
    MIN_MOVE_TIMEOUT_S,
    OPTIONS,
    SCHEDULE_OPTIONS,
    Seats,
)
from arena.errors import InvalidInput
from arena.web.fields import choice_field

__all__ = ["ScheduleForm", "TournamentForm"]

#: The browser's datetime-local value, read in the server's time zone (UTC).
DATETIME_LOCAL = "%Y-%m-%dT%H:%M"
#: The other options an option's check reads: while one of them is refused by its field, the
#: option is not judged (its message could be wrong).
DEPENDS_ON = {
    "format": ("table_size",),
    "table_size": ("format",),
    "rounds": ("format",),
    "entry_limit": ("entry",),
    "signup_deadline": ("entry",),
}


class _OptionsForm(forms.Form):
    """How the tournament is played: the fields of ``SCHEDULE_OPTIONS``, for one game."""

    format = forms.ChoiceField(
        choices=[(value, label) for value, (label, _) in FORMATS.items()],
        initial=DEFAULTS.format,
        help_text="<br>".join(f"<b>{label}</b>: {about}" for label, about in FORMATS.values()),
    )
    table_size = forms.TypedChoiceField(
        coerce=int,
        empty_value=None,
        required=False,
        label="Seats at each table",
        help_text="Fewer bots than that sit at one smaller table. Double elimination: two.",
    )
    rounds = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ROUNDS,
        help_text="Swiss only. Empty: ceil(log2 N) + 1 rounds for N bots.",
    )
    matches_per_pairing = forms.IntegerField(
        min_value=1,
        max_value=MAX_MATCHES_PER_PAIRING,
        initial=DEFAULTS.matches_per_pairing,
        label="Matches per pairing",
        help_text="How many matches each pairing (each table of a round) plays; each is a "
        "whole match of the game, with its own deals.",
    )
    duplicate = forms.BooleanField(
        required=False,
        initial=DEFAULTS.duplicate,
        label="Duplicate deals",
        help_text="Each match's deals are played once per seat rotation (k matches at a table "
        "of k), so the luck of the cards cancels out.",
    )
    rated = forms.BooleanField(
        required=False,
        initial=DEFAULTS.rated,
        help_text="Its matches count for the ladder's ratings.",
    )
    entry = forms.ChoiceField(
        choices=[(value, label) for value, (label, _) in ENTRIES.items()],
        initial=DEFAULTS.entry,
        label="Who plays",
        help_text="; ".join(f"<b>{label}</b>: {about}" for label, about in ENTRIES.values()),
    )
    entry_limit = forms.IntegerField(
        required=False,
        min_value=2,
        max_value=MAX_ENTRY_LIMIT,
        label="How many of the ladder's top",
        help_text="Top of the ladder only.",
    )
    move_timeout_s = forms.FloatField(
        required=False,
        min_value=MIN_MOVE_TIMEOUT_S,
        max_value=MAX_MOVE_TIMEOUT_S,
        label="CPU seconds per move",
        help_text=f"{MIN_MOVE_TIMEOUT_S:g}-{MAX_MOVE_TIMEOUT_S:g} s. Empty: the arena's. "
        "The wall-clock time per move follows it.",
    )
    time_bank_s = forms.FloatField(
        required=False,
        min_value=0,
        max_value=MAX_TIME_BANK_S,
        label="CPU time bank per match, in seconds",
        help_text=f"0-{MAX_TIME_BANK_S:g} s of overrun a bot may use in a match. Empty: the "
        "arena's.",
    )

    def __init__(self, *args: Any, seats: Seats, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        sizes = range(seats.smallest, seats.largest + 1)
        field = choice_field(self, "table_size")
        field.choices = [("", f"The game's smallest ({seats.smallest})")] + [
            (size, f"{size} seats") for size in sizes
        ]
        if seats.smallest == seats.largest:
            del self.fields["table_size"]  # one table size: nothing to choose
        self.seats = seats

    def options(self) -> dict[str, Any]:
        """The cleaned options, as the services take them."""
        return {
            name: self.cleaned_data.get(name) for name in SCHEDULE_OPTIONS if name in self.fields
        }

    def add_option_errors(self, check: Callable[..., None]) -> None:
        """With some fields refused by their own shape already, run the services' options
        ``check`` on the others too, so that every bad field is shown at once: each refusal
        lands beside its field, except on an option that reads a refused one."""
        refused = set(self.errors)
        # A refused field is left out: the check takes its default and says nothing of it.
        options = {name: value for name, value in self.options().items() if name not in refused}
        try:
            check(**options)
        except InvalidInput as exc:
            for name, messages in exc.field_messages().items():
                if name not in self.fields or name in self.errors:
                    continue
                if refused.intersection(DEPENDS_ON.get(name, ())):
                    continue
                for message in messages:
                    self.add_error(name, message)

    def add_service_error(self, error: InvalidInput) -> None:
        """Show a service's refusal beside the field it names (else above the form)."""
        fields = error.field_messages()
        placed = False
        for name, messages in fields.items():
            if name in self.fields:
                for message in messages:
                    self.add_error(name, message)
                placed = True
        if not placed:
            self.add_error(None, error.message)


class TournamentForm(_OptionsForm):
    """A tournament of one game: its name, options, entry and (optional) seed."""

    name = forms.CharField(max_length=100, help_text="1-100 characters, shown everywhere.")
    signup_deadline = forms.DateTimeField(
        required=False,
        input_formats=[DATETIME_LOCAL, "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=DATETIME_LOCAL),
        label="Sign-up deadline (UTC)",
        help_text="Sign-up only: owners sign up until then, and it starts then.",
    )
    seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=2**63 - 1,
        help_text="Fixes every pairing and deal, so the tournament replays. Empty: random.",
    )

    field_order = ("name", *OPTIONS, "seed")

    def clean_signup_deadline(self) -> Any:
        value = self.cleaned_data.get("signup_deadline")
        # The server's time zone is UTC (settings.TIME_ZONE), as the label says.
        return value.astimezone(UTC) if value is not None else None

    def options(self) -> dict[str, Any]:
        return {**super().options(), "signup_deadline": self.cleaned_data.get("signup_deadline")}


class ScheduleForm(_OptionsForm):
    """A recurring tournament of one game: its crontab and the options of each run."""

    name = forms.CharField(max_length=100, help_text="Each run is named after it and its time.")
    crontab = forms.CharField(
        max_length=100,
        initial="0 3 * * *",
        help_text="Five fields: minute hour day-of-month month day-of-week, in UTC. "
        "<code>0 3 * * *</code>: 03:00 every day; <code>0 18 * * 5</code>: Fridays at 18:00; "
        "<code>0 */6 * * *</code>: every six hours.",
    )
    enabled = forms.BooleanField(
        required=False, initial=True, help_text="Off: paused, nothing runs until it is on again."
    )

    field_order = ("name", "crontab", "enabled", *SCHEDULE_OPTIONS)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A scheduled tournament starts at its due time: nobody can sign up before it.
        entry = choice_field(self, "entry")
        entry.choices = [
            (value, label) for value, (label, _) in ENTRIES.items() if value != "signup"
        ]
        entry.help_text = "; ".join(
            f"<b>{label}</b>: {about}"
            for value, (label, about) in ENTRIES.items()
            if value != "signup"
        )
