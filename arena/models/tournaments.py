"""Tournaments of any game (round robin, Swiss, double elimination, promotion by placing),
their entries and sign-ups, and organisers' schedules for them."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone

from arena.models.games import validate_game


def validate_crontab(value: str) -> None:
    """The same check the services and the API make (``schedules.crontab_parse``)."""
    from arena.services.errors import InvalidInput
    from arena.services.schedules import crontab_parse

    try:
        crontab_parse(value)
    except InvalidInput as exc:
        raise ValidationError(exc.message, code="bad_crontab") from None


class Tournament(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"  # created, not started: participants not yet frozen
        RUNNING = "running"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    class Format(models.TextChoices):
        #: Two seats: every pair meets once. More seats: a balanced schedule of tables in
        #: which every bot meets every other equally often and sits in every seat equally.
        ROUND_ROBIN = "round_robin", "Round robin"
        #: Rounds paired by score, no rematch where avoidable (``arena.services.formats``).
        SWISS = "swiss", "Swiss"
        #: Two seats: out after two losses; winners' and losers' brackets and a grand final.
        DOUBLE_ELIMINATION = "double_elimination", "Double elimination"
        #: Any table size: rounds of tables, the top half of each table going through.
        PROMOTION = "promotion", "Promotion by placing"

    class Entry(models.TextChoices):
        #: Every active bot of the game with a valid version, at the start.
        ALL = "all", "Every bot of the game"
        #: The bots their owners signed up before ``signup_deadline``; it starts then.
        SIGNUP = "signup", "Sign-up by owners"
        #: The top ``entry_limit`` of the game's ladder (displayed rating), at the start.
        TOP = "top", "Top of the ladder"

    name = models.CharField(max_length=100)
    game = models.CharField(max_length=32, validators=[validate_game])
    format = models.CharField(max_length=20, choices=Format.choices, default=Format.ROUND_ROBIN)
    entry = models.CharField(max_length=10, choices=Entry.choices, default=Entry.ALL)
    #: ``top``: how many of the ladder are invited.
    entry_limit = models.PositiveIntegerField(null=True, blank=True)
    #: ``signup``: sign-up closes, and the tournament starts (within a sweep, ~1 minute).
    signup_deadline = models.DateTimeField(null=True, blank=True)
    seed = models.BigIntegerField()
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

    # Options (validated by ``tournament_create``; the defaults are the round robin's).
    #: Swiss: how many rounds (null: ceil(log2 N) + 1, fixed at the start).
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    #: Matches each table plays per round (each a whole match of the game's own rules).
    games_per_match = models.PositiveSmallIntegerField(default=1)
    #: Each match's deals played once per seat rotation (``duplicate_create``).
    duplicate = models.BooleanField(default=False)
    #: Whether its matches go into the ratings.
    rated = models.BooleanField(default=True)
    #: CPU seconds per move and CPU bank of its matches (null: the arena's
    #: ``ARENA_MOVE_TIMEOUT_S`` / ``ARENA_TIME_BANK_S``); ``matches.match_limits``.
    move_timeout_s = models.FloatField(null=True, blank=True)
    time_bank_s = models.FloatField(null=True, blank=True)
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

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """The options checked as the services and the API check them (the admin's form)."""
        from arena.services.errors import InvalidInput
        from arena.services.tournaments import tournament_options_check

        try:
            tournament_options_check(
                game=self.game,
                format=self.format,
                rounds=self.rounds,
                games_per_match=self.games_per_match,
                entry=self.entry,
                entry_limit=self.entry_limit,
                signup_deadline=self.signup_deadline,
                move_timeout_s=self.move_timeout_s,
                time_bank_s=self.time_bank_s,
                now=None if self.pk else timezone.now(),
            )
        except InvalidInput as exc:
            field = _OPTION_FIELDS.get(exc.code, "format")
            raise ValidationError({field: exc.message}, code=exc.code) from None


class TournamentEntry(models.Model):
    """A participant, frozen at start: the bot version that plays the whole tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    bot = models.ForeignKey("Bot", on_delete=models.CASCADE, related_name="+")
    version = models.ForeignKey("BotVersion", on_delete=models.CASCADE, related_name="+")
    #: 1 = best: by the version's rating (mu) at the start, then bot id. Pairs Swiss round 1,
    #: seeds the bracket and breaks the last tie.
    seed = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
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


class TournamentSchedule(models.Model):
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

    # The options each of its tournaments is created with (the Tournament's fields, checked
    # by the same ``tournament_options_check``). Sign-up entry is not offered: a scheduled
    # tournament starts at its due time, so there is no deadline for owners to sign up by.
    format = models.CharField(
        max_length=20, choices=Tournament.Format.choices, default=Tournament.Format.ROUND_ROBIN
    )
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    games_per_match = models.PositiveSmallIntegerField(default=1)
    duplicate = models.BooleanField(default=False)
    rated = models.BooleanField(default=True)
    entry = models.CharField(
        max_length=10,
        choices=[c for c in Tournament.Entry.choices if c[0] != Tournament.Entry.SIGNUP],
        default=Tournament.Entry.ALL,
    )
    entry_limit = models.PositiveIntegerField(null=True, blank=True)
    move_timeout_s = models.FloatField(null=True, blank=True)
    time_bank_s = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """The options checked as the services and the API check them (the admin's form)."""
        from arena.services.errors import InvalidInput
        from arena.services.schedules import schedule_options_check

        try:
            schedule_options_check(**self.options())
        except InvalidInput as exc:
            raise ValidationError({_OPTION_FIELDS.get(exc.code, "format"): exc.message}) from None

    def options(self) -> dict:
        """The options its tournaments are created with, as ``tournament_create`` takes them."""
        return {name: getattr(self, name) for name in SCHEDULE_OPTIONS}


#: The options a schedule passes on to each tournament it creates.
SCHEDULE_OPTIONS = (
    "game",
    "format",
    "rounds",
    "games_per_match",
    "duplicate",
    "rated",
    "entry",
    "entry_limit",
    "move_timeout_s",
    "time_bank_s",
)

#: Which admin field an InvalidInput code of ``tournament_options_check`` is about.
_OPTION_FIELDS = {
    "unknown_game": "game",
    "bad_rounds": "rounds",
    "bad_games_per_match": "games_per_match",
    "bad_entry": "entry",
    "bad_entry_limit": "entry_limit",
    "bad_signup_deadline": "signup_deadline",
    "bad_move_timeout": "move_timeout_s",
    "bad_time_bank": "time_bank_s",
}
