"""Matches, their replays, and the bots' private output from them."""

from __future__ import annotations

from django.db import models

from arena.models.games import GAME_CHOICES


class Match(models.Model):
    """One best-of-7 match between two bot versions; seat 0 is ``version_a``."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"  # the platform could not play it (not a bot's fault)

    class Kind(models.TextChoices):
        LADDER = "ladder"
        TOURNAMENT = "tournament"

    class Outcome(models.TextChoices):
        A = "a", "A won"
        B = "b", "B won"
        DRAW = "draw", "Draw"

    game = models.CharField(max_length=32, choices=GAME_CHOICES, default="lie21")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.LADDER)
    tournament = models.ForeignKey(
        "Tournament", null=True, blank=True, on_delete=models.CASCADE, related_name="matches"
    )
    version_a = models.ForeignKey("BotVersion", on_delete=models.CASCADE, related_name="+")
    version_b = models.ForeignKey("BotVersion", on_delete=models.CASCADE, related_name="+")
    # The bots are copied from the versions so lists by bot need no join.
    bot_a = models.ForeignKey("Bot", on_delete=models.CASCADE, related_name="+")
    bot_b = models.ForeignKey("Bot", on_delete=models.CASCADE, related_name="+")
    seed = models.BigIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0)
    claimed_by = models.CharField(max_length=64, blank=True)
    # Fencing token of the attempt that holds the claim: only that attempt may record the
    # result, so a superseded attempt (presumed dead, but only slow) cannot record twice.
    claim_token = models.CharField(max_length=32, blank=True)
    # Last sign of life of the current attempt (refreshed while it plays), or when the row
    # was last queued again. A running row whose heartbeat is stale was left by a dead worker.
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    duration_s = models.FloatField(null=True, blank=True)

    # The result, filled once when the match is recorded.
    outcome = models.CharField(max_length=4, choices=Outcome.choices, blank=True)
    reason = models.CharField(max_length=16, blank=True)  # match_points/sweep/game_cap/error
    match_points_a = models.PositiveSmallIntegerField(default=0)
    match_points_b = models.PositiveSmallIntegerField(default=0)
    game_wins_a = models.PositiveSmallIntegerField(default=0)
    game_wins_b = models.PositiveSmallIntegerField(default=0)
    points_a = models.PositiveIntegerField(default=0)
    points_b = models.PositiveIntegerField(default=0)
    sweeps_a = models.PositiveSmallIntegerField(default=0)
    sweeps_b = models.PositiveSmallIntegerField(default=0)
    games_played = models.PositiveSmallIntegerField(default=0)
    error_kind = models.CharField(max_length=16, blank=True)
    error_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    error_detail = models.CharField(max_length=500, blank=True)  # public, platform-written
    failure_reason = models.TextField(blank=True)  # why the platform failed it
    rated = models.BooleanField(default=False)

    class Meta:
        indexes = [
            models.Index(fields=["status", "created"], name="match_status_created"),
            models.Index(fields=["-created", "-id"], name="match_recent"),
            models.Index(fields=["tournament", "status"], name="match_tournament_status"),
            models.Index(fields=["bot_a", "-created"], name="match_bot_a_recent"),
            models.Index(fields=["bot_b", "-created"], name="match_bot_b_recent"),
            models.Index(fields=["game", "kind", "-created"], name="match_game_kind_recent"),
        ]
        ordering = ["-created", "-id"]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"match {self.pk}: {self.bot_a_id} vs {self.bot_b_id}"

    #: ``failure_reason`` of the matches a cancelled tournament did not get to play.
    CANCELLED = "tournament cancelled"

    @property
    def winner_seat(self) -> int | None:
        return {"a": 0, "b": 1}.get(self.outcome)

    @property
    def was_cancelled(self) -> bool:
        return self.status == self.Status.FAILED and self.failure_reason == self.CANCELLED


class Replay(models.Model):
    """The match's replay document, gzip-compressed JSON (see docs/replay-format.md)."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, primary_key=True)
    data = models.BinaryField()
    size = models.PositiveIntegerField(help_text="Compressed size in bytes.")
    format = models.PositiveSmallIntegerField()

    def __str__(self) -> str:
        return f"replay of match {self.match_id}"


class MatchLog(models.Model):
    """What one bot printed and raised during a match: shown to that bot's owner only."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="logs")
    seat = models.PositiveSmallIntegerField()
    bot = models.ForeignKey("Bot", on_delete=models.CASCADE, related_name="match_logs")
    output = models.TextField(blank=True)
    traceback = models.TextField(blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="log_per_seat")]

    def __str__(self) -> str:
        return f"log of seat {self.seat} in match {self.match_id}"
