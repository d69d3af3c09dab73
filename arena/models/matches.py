"""Matches (any number of seats), their seats, their replays, and the bots' private output."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from arena.models.games import validate_game


class Match(models.Model):
    """One match of a game between bot versions, one :class:`MatchSeat` per seat."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"  # the platform could not play it (not a bot's fault)

    class Kind(models.TextChoices):
        LADDER = "ladder"
        TOURNAMENT = "tournament"
        CHALLENGE = "challenge"  # an owner's unrated challenge
        COMPARISON = "comparison"  # a new version against its bot's previous one, unrated

    game = models.CharField(max_length=32, validators=[validate_game])
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.LADDER)
    tournament = models.ForeignKey(
        "Tournament", null=True, blank=True, on_delete=models.CASCADE, related_name="matches"
    )
    challenge = models.ForeignKey(
        "Challenge", null=True, blank=True, on_delete=models.CASCADE, related_name="matches"
    )
    seed = models.BigIntegerField()
    #: The game's options for this match (empty: the game's defaults).
    options = models.JSONField(default=dict, blank=True)
    seat_count = models.PositiveSmallIntegerField(default=2)
    #: Whether the result goes into the ratings (challenges and comparisons do not).
    ranked = models.BooleanField(default=True)
    #: Matches playing the same deals with the seats rotated share a key (duplicate play).
    duplicate_key = models.CharField(max_length=32, blank=True, db_index=True)
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

    # The result, filled once when the match is recorded (per seat: MatchSeat).
    reason = models.CharField(max_length=16, blank=True)  # the game's word, or "fault"
    games_played = models.PositiveSmallIntegerField(default=0)
    #: The game's per-seat totals over the match (Lie 21: game_wins, points, sweeps).
    totals = models.JSONField(default=dict, blank=True)
    failure_reason = models.TextField(blank=True)  # why the platform failed it
    rated = models.BooleanField(default=False)  # the ratings saw it (or had nothing to see)

    #: Swiss and elimination tournaments: the round, the table in it and the match of that
    #: table (several with games per match or duplicate deals). Unique together, so a round
    #: is created once however often "round finished" is delivered. Null in round robins.
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    leg = models.PositiveSmallIntegerField(default=0)

    class Meta:
        indexes = [
            models.Index(fields=["status", "created"], name="match_status_created"),
            models.Index(fields=["-created", "-id"], name="match_recent"),
            models.Index(fields=["tournament", "status"], name="match_tournament_status"),
            models.Index(fields=["game", "kind", "-created"], name="match_game_kind_recent"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round_number", "table_number", "leg"],
                condition=models.Q(round_number__isnull=False),
                name="one_match_per_round_table_leg",
            )
        ]
        ordering = ["-created", "-id"]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"match {self.pk} ({self.game})"

    #: ``failure_reason`` of the matches a cancelled tournament did not get to play.
    CANCELLED = "tournament cancelled"

    @property
    def was_cancelled(self) -> bool:
        return self.status == self.Status.FAILED and self.failure_reason == self.CANCELLED


#: When a match was made and played: created, started, finished and how long it took.
MATCH_TIME_FIELDS = ("created", "started_at", "finished_at", "duration_s")
#: A match's result, filled once when it is recorded (or why the platform failed it).
MATCH_RESULT_FIELDS = ("reason", "games_played", "totals", "failure_reason", "rated")
#: What a match's result writes on each of its seats (its recording).
SEAT_OUTCOME_FIELDS = ("placing", "score", "fault", "fault_detail")
#: What rating a match writes on each of its seats: the live estimate before and after.
#: Named here, once, for the layers that read or write them (services, selectors, admin).
SEAT_RATING_FIELDS = ("mu_before", "sigma_before", "mu_after", "sigma_after")


class MatchSeat(models.Model):
    """One seat of a match: who sat there and, once recorded, how it placed."""

    # Indexed by seat_match_results (Meta), which also holds what a bot page reads of it.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats", db_index=False)
    seat = models.PositiveSmallIntegerField()
    version = models.ForeignKey("BotVersion", on_delete=models.CASCADE, related_name="seats")
    # Copied from the version so lists by bot need no join.
    bot = models.ForeignKey("Bot", on_delete=models.CASCADE, related_name="seats")
    placing = models.PositiveSmallIntegerField(null=True, blank=True)  # 0 = first
    score = models.IntegerField(default=0)  # match points
    fault = models.CharField(max_length=16, blank=True)  # the fault kind, if this seat failed
    fault_detail = models.CharField(max_length=500, blank=True)  # public, platform-written
    mu_before = models.FloatField(null=True, blank=True)
    sigma_before = models.FloatField(null=True, blank=True)
    mu_after = models.FloatField(null=True, blank=True)
    sigma_after = models.FloatField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="seat_per_match")]
        indexes = [
            # A bot's matches, newest first, with how it did in each: its page's recent
            # matches and head-to-head read this index alone (docs/deploy.md, "Load and
            # scale"). Covering columns are PostgreSQL's; elsewhere the key alone.
            models.Index(
                fields=["bot", "-match"],
                include=["seat", "placing", "score"],
                name="seat_bot_recent",
            ),
            models.Index(fields=["version", "-match"], name="seat_version_recent"),
            # A match's seats (the foreign key's index), with who sat there and how it did:
            # a head-to-head reads its opponents here without their rows.
            models.Index(
                fields=["match"], include=["bot", "placing", "score"], name="seat_match_results"
            ),
        ]
        ordering = ["match", "seat"]

    def __str__(self) -> str:
        return f"seat {self.seat} of match {self.match_id}"

    @property
    def score_delta(self) -> float | None:
        """Change of the conservative score (mu - 3 sigma) this match made."""
        mu_before, sigma_before = self.mu_before, self.sigma_before
        mu_after, sigma_after = self.mu_after, self.sigma_after
        if mu_before is None or sigma_before is None or mu_after is None or sigma_after is None:
            return None
        return (mu_after - 3 * sigma_after) - (mu_before - 3 * sigma_before)

    @property
    def mu_delta(self) -> float | None:
        if self.mu_before is None or self.mu_after is None:
            return None
        return self.mu_after - self.mu_before


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
    #: The output filed by step: ``[{"game", "step", "phase", "text"}]`` (the viewer shows
    #: each line beside the step it belongs to).
    steps = models.JSONField(default=list, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="log_per_seat")]

    def __str__(self) -> str:
        return f"log of seat {self.seat} in match {self.match_id}"


class Challenge(models.Model):
    """Unrated matches an owner asked for: its version against chosen rivals (a challenge), or
    a new version against its bot's previous one (a comparison, started by the platform)."""

    class Kind(models.TextChoices):
        CHALLENGE = "challenge"
        COMPARISON = "comparison"

    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.CHALLENGE)
    game = models.CharField(max_length=32, validators=[validate_game])
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="challenges",
    )
    version = models.ForeignKey(
        "BotVersion", on_delete=models.CASCADE, related_name="challenges"
    )  # the challenger
    #: The other versions at the table, in the order chosen (ids).
    opponents = models.JSONField(default=list)
    matches_requested = models.PositiveSmallIntegerField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            models.Index(fields=["created_by", "-created"], name="challenge_user_recent"),
            models.Index(fields=["version", "-created"], name="challenge_version_recent"),
        ]
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.kind} {self.pk} of version {self.version_id}"
