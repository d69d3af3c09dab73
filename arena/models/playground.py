"""The playground: an author's draft of a bot, and the unrated runs it plays from the site.

Nothing here is a bot version, a ``Match`` or a seat: a playground match is never rated,
never counted in a ladder's, a version's or a bot's statistics, never part of the pause
rule, and never shown to anyone but the draft's author. The draft's source, its runs and
their replays and logs belong to the author alone.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from arena.models.games import validate_game


class PlaygroundDraft(models.Model):
    """The source an author is editing for one game (one draft per author and game)."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="playground_drafts"
    )
    game = models.CharField(max_length=32, validators=[validate_game])
    source = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "game"], name="playground_draft_per_game")
        ]
        ordering = ["-updated", "-id"]

    def __str__(self) -> str:
        return f"draft {self.pk} ({self.game}) of user {self.owner_id}"


class PlaygroundRun(models.Model):
    """One press of **Run**: the draft as it was, its opponents and its matches."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="playground_runs"
    )
    game = models.CharField(max_length=32, validators=[validate_game])
    #: The draft's source as it was run (the draft may change while the run plays).
    source = models.TextField()
    sha256 = models.CharField(max_length=64)
    #: The other seats, in the order chosen: ``[{"ref", "label", "builtin" | "version_id"}]``.
    opponents = models.JSONField(default=list)
    matches_requested = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["owner", "-created"], name="playground_run_recent")]
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"playground run {self.pk} ({self.game})"


class PlaygroundMatch(models.Model):
    """One match of a run, played on the playground queue; its result, replay and the
    draft's own output (the other seats' output is never kept: it is their owners')."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"  # the platform could not play it (not the draft's fault)

    run = models.ForeignKey(PlaygroundRun, on_delete=models.CASCADE, related_name="matches")
    number = models.PositiveSmallIntegerField()  # 1, 2, ... within the run
    seed = models.BigIntegerField()
    seat_count = models.PositiveSmallIntegerField()
    draft_seat = models.PositiveSmallIntegerField()  # seats turn round the table by number
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0)
    claim_token = models.CharField(max_length=32, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    duration_s = models.FloatField(null=True, blank=True)
    reason = models.CharField(max_length=16, blank=True)
    games_played = models.PositiveSmallIntegerField(default=0)
    placings = models.JSONField(default=list, blank=True)  # per seat, 0 = first
    scores = models.JSONField(default=list, blank=True)  # match points per seat
    fault = models.CharField(max_length=16, blank=True)  # the draft's own fault, if any
    fault_detail = models.CharField(max_length=500, blank=True)
    #: Where the viewer shows the draft's fault: ``game=1&step=4`` ("" when there is none).
    fault_link = models.CharField(max_length=40, blank=True)
    replay = models.BinaryField(null=True, blank=True)  # gzip JSON, docs/replay-format.md
    output = models.TextField(blank=True)  # what the draft printed (and its traceback)
    traceback = models.TextField(blank=True)
    steps = models.JSONField(default=list, blank=True)  # the output filed by step
    failure_reason = models.TextField(blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["run", "number"], name="playground_match_number")
        ]
        indexes = [
            models.Index(fields=["status", "started_at"], name="playground_match_status"),
        ]
        ordering = ["run", "number"]

    def __str__(self) -> str:
        return f"match {self.number} of playground run {self.run_id}"
