"""Bots and their immutable uploaded versions."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models

from arena.models.games import validate_game

BOT_NAME = RegexValidator(
    r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,47}$",
    "Bot names are 1-48 letters, digits, '_', '-' or '.', starting with a letter or digit.",
)


class Bot(models.Model):
    """A bot an author maintains; it plays with its active (latest valid) version."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bots"
    )
    name = models.CharField(max_length=48, validators=[BOT_NAME])
    game = models.CharField(max_length=32, validators=[validate_game])
    description = models.TextField(blank=True, max_length=2000)
    active_version = models.ForeignKey(
        "BotVersion", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    is_active = models.BooleanField(default=True, help_text="Inactive bots leave the ladder.")
    is_builtin = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="bot_name_per_owner")]
        indexes = [
            models.Index(fields=["game", "is_active"], name="bot_game_active"),
            models.Index(fields=["name"], name="bot_name"),
            # Which bots are on a ladder, from the index alone: a ladder's order and its
            # pages in another order join their ratings to it (the rows hold descriptions).
            models.Index(fields=["id"], condition=models.Q(is_active=True), name="bot_active_ids"),
        ]
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return f"{self.owner.username}/{self.name}"


def version_upload_to(version: BotVersion, filename: str) -> str:
    suffix = ".zip" if version.kind == BotVersion.Kind.ZIP else ".py"
    return f"bots/{version.bot_id}/{version.sha256}{suffix}"


class BotVersion(models.Model):
    """One upload of a bot: never changed after it is stored, only validated."""

    class Status(models.TextChoices):
        PENDING = "pending"
        VALID = "valid"
        INVALID = "invalid"

    class Kind(models.TextChoices):
        PY = "py"
        ZIP = "zip"

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    file = models.FileField(upload_to=version_upload_to, max_length=200)
    filename = models.CharField(max_length=200, help_text="The name it was uploaded with.")
    kind = models.CharField(max_length=3, choices=Kind.choices)
    sha256 = models.CharField(max_length=64)
    size = models.PositiveIntegerField()
    created = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    validation_log = models.TextField(blank=True, help_text="Platform messages; owner only.")
    error_output = models.TextField(blank=True, help_text="The bot's own output; owner only.")
    validated_at = models.DateTimeField(null=True, blank=True)
    validation_queued_at = models.DateTimeField(
        null=True, blank=True, help_text="When the sweeper last queued its validation again."
    )
    validation_requeues = models.PositiveSmallIntegerField(
        default=0, help_text="Times the sweeper queued a stuck validation again."
    )
    paused_at = models.DateTimeField(
        null=True, blank=True, help_text="Taken off the ladder for its faults (public)."
    )
    pause_reason = models.CharField(max_length=300, blank=True, help_text="Why (public).")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["bot", "number"], name="version_number_per_bot")
        ]
        indexes = [
            models.Index(fields=["bot", "-created"], name="version_bot_created"),
            models.Index(fields=["status"], name="version_status"),
            models.Index(fields=["bot", "sha256"], name="version_bot_sha"),
        ]
        ordering = ["-number"]

    def __str__(self) -> str:
        return f"{self.bot} v{self.number}"

    @property
    def is_paused(self) -> bool:
        return self.paused_at is not None
