"""Tournaments (round robin of best-of-7 matches) and organisers' schedules for them."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from arena.models.games import GAME_CHOICES


class Tournament(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"  # created, not started: participants not yet frozen
        RUNNING = "running"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    class Format(models.TextChoices):
        ROUND_ROBIN_BO7 = "round_robin_bo7", "Round robin, best of 7"

    name = models.CharField(max_length=100)
    game = models.CharField(max_length=32, choices=GAME_CHOICES, default="lie21")
    format = models.CharField(max_length=20, choices=Format.choices, default=Format.ROUND_ROBIN_BO7)
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

    class Meta:
        indexes = [
            models.Index(fields=["status", "-created"], name="tournament_status"),
            models.Index(fields=["game", "-created"], name="tournament_game"),
        ]
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return self.name


class TournamentEntry(models.Model):
    """A participant, frozen at start: the bot version that plays the whole tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    bot = models.ForeignKey("Bot", on_delete=models.CASCADE, related_name="+")
    version = models.ForeignKey("BotVersion", on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "bot"], name="one_entry_per_bot")
        ]

    def __str__(self) -> str:
        return f"{self.bot} in {self.tournament}"


class TournamentSchedule(models.Model):
    """An organiser's recurring tournament (e.g. nightly), run by django-celery-beat."""

    name = models.CharField(max_length=100)
    game = models.CharField(max_length=32, choices=GAME_CHOICES, default="lie21")
    crontab = models.CharField(
        max_length=100,
        default="0 3 * * *",
        help_text="minute hour day-of-month month day-of-week, e.g. '0 3 * * *' (nightly)",
    )
    enabled = models.BooleanField(default=True)
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

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name
