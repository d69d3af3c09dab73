"""Tournaments of any game (round robin, Swiss, double elimination, promotion by placing),
their entries and sign-ups, and organisers' schedules for them."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone

from arena.algorithms.tournament_options import (
    DEFAULTS,
    ENTRIES,
    FORMATS,
    OPTIONS,
    SCHEDULE_OPTIONS,
    OptionError,
    Seats,
    options_check,
    table_size_default,
)
from arena.crontabs import CrontabError, crontab_parse
from arena.models.games import validate_game
from engine.registry import GAMES

__all__ = [
    "Tournament",
    "TournamentEntry",
    "TournamentSchedule",
    "TournamentSignup",
    "game_seats",
    "validate_crontab",
]


def validate_crontab(value: str) -> None:
    """The same check the services and the API make (``arena.crontabs.crontab_parse``)."""
    try:
        crontab_parse(value)
    except CrontabError as exc:
        raise ValidationError(exc.message, code="bad_crontab") from None


def game_seats(game: str) -> Seats | None:
    """The table sizes ``game`` is played at; None for a game the arena does not host."""
    found = GAMES.get(game)
    return None if found is None else Seats(found.min_players, found.max_players)


def _options_clean(options: dict[str, Any], *, now: Any = None) -> None:
    """The options checked as the services and the API check them, as a ValidationError
    on the field of every bad one (the admin's forms show each there)."""
    seats = game_seats(options.get("game", ""))
    if seats is None:
        return  # the game field's own validator says so
    try:
        options_check(seats=seats, now=now, **{k: v for k, v in options.items() if k != "game"})
    except OptionError as exc:
        raise ValidationError(
            {error.field: ValidationError(error.message, code=error.code) for error in exc.errors}
        ) from None


def _new_seed() -> int:
    return secrets.randbits(63)


class TournamentOptionFields(models.Model):
    """The options a tournament is played with, declared once: a Tournament has them, and
    a TournamentSchedule creates each of its tournaments with its own (checked by
    ``arena.algorithms.tournament_options``; the defaults are the round robin's)."""

    #: The formats and entries, as ``arena.algorithms.tournament_options`` defines them
    #: (what each is: its FORMATS and ENTRIES).
    # The stubs know no (value, label) members in TextChoices' functional form.
    Format = models.TextChoices(  # type: ignore[call-overload]
        "Format", [(value.upper(), (value, label)) for value, (label, _) in FORMATS.items()]
    )
    Entry = models.TextChoices(  # type: ignore[call-overload]
        "Entry", [(value.upper(), (value, label)) for value, (label, _) in ENTRIES.items()]
    )

    format = models.CharField(max_length=20, choices=Format.choices, default=DEFAULTS.format)
    entry = models.CharField(max_length=10, choices=Entry.choices, default=DEFAULTS.entry)
    #: ``top``: how many of the ladder are invited.
    entry_limit = models.PositiveIntegerField(null=True, blank=True)
    #: Seats at each table (the game's smallest when left empty; fewer when fewer bots
    #: play, never below the game's smallest).
    table_size = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Left empty: the game's smallest table."
    )
    #: Swiss: how many rounds (null: ceil(log2 N) + 1, fixed at the start).
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    #: Matches each pairing (each table of a round) plays, each a whole match of the game's
    #: own rules (a Lie 21 match is itself best of seven games), each with its own deals.
    matches_per_pairing = models.PositiveSmallIntegerField(default=DEFAULTS.matches_per_pairing)
    #: Each match's deals played once per seat rotation (``duplicate_create``).
    duplicate = models.BooleanField(default=DEFAULTS.duplicate)
    #: Whether its matches go into the ratings.
    rated = models.BooleanField(default=DEFAULTS.rated)
    #: CPU seconds per move and CPU bank of its matches (null: the arena's
    #: ``ARENA_MOVE_TIMEOUT_S`` / ``ARENA_TIME_BANK_S``); ``matches.match_limits``.
    move_timeout_s = models.FloatField(null=True, blank=True)
    time_bank_s = models.FloatField(null=True, blank=True)

    class Meta:
        abstract = True


class Tournament(TournamentOptionFields):
    class Status(models.TextChoices):
        PENDING = "pending"  # created, not started: participants not yet frozen
        RUNNING = "running"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    name = models.CharField(max_length=100)
    game = models.CharField(max_length=32, validators=[validate_game])
    #: ``signup``: sign-up closes, and the tournament starts (within a sweep, ~1 minute).
    signup_deadline = models.DateTimeField(null=True, blank=True)
    #: Fixes every deal and pairing, so a tournament replays; random when left empty.
    seed = models.BigIntegerField(blank=True, help_text="Left empty: a random one.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    schedule = models.ForeignKey(
        "TournamentSchedule",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournaments",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created = models.DateTimeField(auto_now_add=True)
    scheduled_for = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Computed when the last match is recorded: ranking, points and the crosstable.
    standings = models.JSONField(null=True, blank=True)

    #: Bots given a bye, as ``[round, bot id, points]`` (written with the round, under a lock).
    byes = models.JSONField(default=list, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "-created"], name="tournament_status"),
            models.Index(fields=["game", "-created"], name="tournament_game"),
        ]
        constraints = [
            # A schedule runs once per due time, however often its task is delivered.
            models.UniqueConstraint(
                fields=["schedule", "scheduled_for"],
                condition=models.Q(schedule__isnull=False),
                name="one_tournament_per_due_time",
            )
        ]
        ordering = ["-created", "-id"]
        permissions = [
            ("organise_tournaments", "Can create, start, cancel and schedule tournaments"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        """A seed and a table size are always stored: a tournament replays from its row."""
        if self.seed is None:
            self.seed = _new_seed()
        if self.table_size is None and (seats := game_seats(self.game)) is not None:
            self.table_size = table_size_default(seats)
        super().save(*args, **kwargs)

    def clean(self) -> None:
        """The options checked as the services and the API check them (the admin's form)."""
        _options_clean(
            {"game": self.game, **{name: getattr(self, name) for name in OPTIONS}},
            now=None if self.pk else timezone.now(),
        )


class TournamentEntry(models.Model):
    """A participant, frozen at start: the bot version that plays the whole tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    bot = models.ForeignKey("Bot", on_delete=models.CASCADE, related_name="+")
    version = models.ForeignKey("BotVersion", on_delete=models.CASCADE, related_name="+")
    #: 1 = best: by the version's rating (mu) at the start, then bot id. Pairs Swiss round 1,
    #: seeds the bracket and breaks the last tie.
    seed = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "tournament entries"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "bot"], name="one_entry_per_bot")
        ]

    def __str__(self) -> str:
        return f"{self.bot} in {self.tournament}"


class TournamentSignup(models.Model):
    """A bot its owner entered into a sign-up tournament (its version is frozen at the start)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="signups")
    bot = models.ForeignKey("Bot", on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "bot"], name="one_signup_per_bot")
        ]
        ordering = ["created", "id"]

    def __str__(self) -> str:
        return f"{self.bot} signed up for {self.tournament}"


#: The entries a schedule offers (its field's choices, and the API's): not sign-up, as a
#: scheduled tournament starts at its due time, with no deadline for owners to sign up by.
SCHEDULE_ENTRIES = [c for c in Tournament.Entry.choices if c[0] != Tournament.Entry.SIGNUP]


class TournamentSchedule(TournamentOptionFields):
    """An organiser's recurring tournament (e.g. nightly), run by django-celery-beat."""

    name = models.CharField(max_length=100)
    game = models.CharField(max_length=32, validators=[validate_game])
    crontab = models.CharField(
        max_length=100,
        default="0 3 * * *",
        validators=[validate_crontab],
        help_text="minute hour day-of-month month day-of-week, e.g. '0 3 * * *' (nightly)",
    )
    enabled = models.BooleanField(default=True)
    #: Due times before this are never run: when the schedule was made, or its crontab last
    #: changed (so editing a crontab only changes future due times).
    due_after = models.DateTimeField(default=timezone.now)
    periodic_task = models.OneToOneField(
        "django_celery_beat.PeriodicTask",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created = models.DateTimeField(auto_now_add=True)

    # The options each of its tournaments is created with are TournamentOptionFields' (checked
    # by the same ``options_check``), but for the entries offered (SCHEDULE_ENTRIES).
    entry = models.CharField(
        max_length=10,
        choices=SCHEDULE_ENTRIES,
        default=DEFAULTS.entry,
    )

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """The options checked as the services and the API check them (the admin's form);
        the entry field offers no sign-up (its choices)."""
        _options_clean(self.options())

    def options(self) -> dict:
        """The options its tournaments are created with, as ``tournament_create`` takes them."""
        return {"game": self.game, **{name: getattr(self, name) for name in SCHEDULE_OPTIONS}}
