"""TrueSkill ratings per bot and game, with one history row per rated match."""

from __future__ import annotations

from django.db import models

from arena.models.games import GAME_CHOICES

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3


class Rating(models.Model):
    bot = models.ForeignKey("Bot", on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=32, choices=GAME_CHOICES, default="lie21")
    mu = models.FloatField(default=DEFAULT_MU)
    sigma = models.FloatField(default=DEFAULT_SIGMA)
    # mu - 3 sigma, stored so the ladder can be sorted and paginated by an index.
    score = models.FloatField(default=DEFAULT_MU - 3 * DEFAULT_SIGMA)
    matches = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["bot", "game"], name="rating_per_bot_game")]
        indexes = [models.Index(fields=["game", "-score", "id"], name="rating_ladder")]
        ordering = ["-score", "id"]

    def __str__(self) -> str:
        return f"{self.bot_id} {self.game}: {self.mu:.2f} ± {self.sigma:.2f}"

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.matches if self.matches else None


class RatingHistory(models.Model):
    """A bot's rating right after one rated match; feeds the rating charts."""

    bot = models.ForeignKey("Bot", on_delete=models.CASCADE, related_name="rating_history")
    game = models.CharField(max_length=32, choices=GAME_CHOICES, default="lie21")
    match = models.ForeignKey("Match", on_delete=models.CASCADE, related_name="rating_changes")
    mu = models.FloatField()
    sigma = models.FloatField()
    score = models.FloatField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # A match is rated once: a second attempt to add its row fails.
            models.UniqueConstraint(fields=["match", "bot"], name="rating_once_per_match")
        ]
        indexes = [models.Index(fields=["bot", "created"], name="rating_history_bot")]
        ordering = ["created", "id"]
        verbose_name_plural = "rating history"

    def __str__(self) -> str:
        return f"{self.bot_id} after match {self.match_id}: {self.score:.2f}"
