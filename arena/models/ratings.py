"""TrueSkill ratings per bot version, with one history row per rated match.

A version has its own rating and record: a new upload starts from its bot's previous
version's mu with sigma reset (``arena.services.ratings.rating_for_version``), so a rewrite
is measured afresh instead of inheriting the old version's certainty. The bot's ladder entry
is its active version's rating (``current``).
"""

from __future__ import annotations

from django.db import models

from arena.models.games import validate_game

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3


class Rating(models.Model):
    version = models.OneToOneField("BotVersion", on_delete=models.CASCADE, related_name="rating")
    # Copied from the version so the ladder reads one table.
    bot = models.ForeignKey("Bot", on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=32, validators=[validate_game])
    #: The bot's active version: the one rating its ladder entry shows.
    current = models.BooleanField(default=False)
    mu = models.FloatField(default=DEFAULT_MU)
    sigma = models.FloatField(default=DEFAULT_SIGMA)
    # mu - 3 sigma, stored so the ladder can be sorted and paginated by an index.
    score = models.FloatField(default=DEFAULT_MU - 3 * DEFAULT_SIGMA)
    matches = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)  # first place alone
    draws = models.PositiveIntegerField(default=0)  # first place shared
    losses = models.PositiveIntegerField(default=0)  # any other place
    first_places = models.PositiveIntegerField(default=0)  # alone or shared
    placing_sum = models.PositiveIntegerField(default=0)  # for the mean placing (0 = first)
    faults = models.PositiveIntegerField(default=0)  # matches it lost by its own fault
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [
            models.Index(fields=["game", "current", "-score", "id"], name="rating_ladder"),
            models.Index(fields=["bot", "-version"], name="rating_bot_versions"),
            # Matchmaking's walks (arena.services.ladder): nearest in mu, most uncertain,
            # fewest matches; each reads a few rows of an index, however long the ladder.
            models.Index(fields=["game", "current", "mu", "id"], name="rating_by_mu"),
            models.Index(fields=["game", "current", "-sigma", "id"], name="rating_by_sigma"),
            models.Index(fields=["game", "current", "matches", "id"], name="rating_by_matches"),
        ]
        ordering = ["-score", "id"]

    def __str__(self) -> str:
        return f"version {self.version_id} {self.game}: {self.mu:.2f} ± {self.sigma:.2f}"

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.matches if self.matches else None

    @property
    def mean_place(self) -> float | None:
        """Mean place, 1 = first (docs/api.md, "Places")."""
        return 1 + self.placing_sum / self.matches if self.matches else None

    @property
    def fault_rate(self) -> float | None:
        return self.faults / self.matches if self.matches else None

    @property
    def low(self) -> float:
        """The lower end of mu ± 3 sigma (the conservative score the ladder sorts by)."""
        return self.mu - 3 * self.sigma

    @property
    def high(self) -> float:
        return self.mu + 3 * self.sigma


class RatingHistory(models.Model):
    """A version's rating right after one rated match; feeds the rating charts."""

    version = models.ForeignKey(
        "BotVersion", on_delete=models.CASCADE, related_name="rating_history"
    )
    bot = models.ForeignKey("Bot", on_delete=models.CASCADE, related_name="rating_history")
    game = models.CharField(max_length=32, validators=[validate_game])
    match = models.ForeignKey("Match", on_delete=models.CASCADE, related_name="rating_changes")
    mu = models.FloatField()
    sigma = models.FloatField()
    score = models.FloatField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # A match is rated once: a second attempt to add its row fails.
            models.UniqueConstraint(fields=["match", "version"], name="rating_once_per_match")
        ]
        indexes = [
            models.Index(fields=["bot", "created"], name="rating_history_bot"),
            models.Index(fields=["version", "created"], name="rating_history_version"),
        ]
        ordering = ["created", "id"]
        verbose_name_plural = "rating history"

    def __str__(self) -> str:
        return f"version {self.version_id} after match {self.match_id}: {self.score:.2f}"
