"""Ratings per bot version, with one history row per rated match.

A version has its own rating and record. Two estimates of its skill live on its row:

* the **displayed rating** (``rating``, ``rating_sigma``): the whole-history fit over every
  rated match (``arena.services.rating_fit``), refitted off the request path as results
  arrive; the ladder, pages, API and CSV show it with its 95% interval and rank by it;
* the **live TrueSkill rating** (``mu``, ``sigma``): updated at once by each match as it is
  recorded (``arena.services.ratings``), for pairing the next matches and for each match's
  rating change.

A new upload starts from its bot's previous version (``prior_mu``, the previous version's
displayed rating, with the uncertainty reset), so a rewrite is measured afresh instead of
inheriting the old version's certainty. The bot's ladder entry is its active version's
rating (``current``).
"""

from __future__ import annotations

from typing import Protocol

from django.db import models

from arena.models.games import validate_game

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3
#: Two-sided 95% normal quantile: the displayed interval is rating ± Z95 rating_sigma.
Z95 = 1.959963984540054
#: A displayed rating is provisional while its sigma is above this (an interval wider than
#: about ± 5): its place on the ladder is not firm yet.
PROVISIONAL_SIGMA = 2.5

#: A Rating row's live TrueSkill estimate (``score`` is ``mu - 3 sigma``): what a match changes
#: at once. Named here, once, for the layers that read or write them (services, selectors, admin).
LIVE_RATING_FIELDS = ("mu", "sigma", "score")
#: A Rating row's match record: what each rated match counts.
RECORD_FIELDS = (
    "matches",
    "wins",
    "draws",
    "losses",
    "first_places",
    "placing_sum",
    "faults",
)


class _Figures(Protocol):
    rating: float
    rating_sigma: float
    matches: int
    placing_sum: int


class DisplayedRating:
    """The figures every page, CSV and the API derive from a displayed rating, written once
    for a ``Rating`` row and for a ladder entry read as plain values
    (``arena.selectors.ladder.LadderEntry``)."""

    __slots__ = ()

    @property
    def rating_low(self: _Figures) -> float:
        """The low end of the displayed rating's 95% interval."""
        return self.rating - Z95 * self.rating_sigma

    @property
    def rating_high(self: _Figures) -> float:
        return self.rating + Z95 * self.rating_sigma

    @property
    def provisional(self: _Figures) -> bool:
        """Its place is not firm yet: too few matches for a narrow interval."""
        return self.rating_sigma > PROVISIONAL_SIGMA

    @property
    def mean_place(self: _Figures) -> float | None:
        """Mean place, 1 = first (docs/api.md, "Places")."""
        return 1 + self.placing_sum / self.matches if self.matches else None


class Rating(DisplayedRating, models.Model):
    version = models.OneToOneField("BotVersion", on_delete=models.CASCADE, related_name="rating")
    # Copied from the version so the ladder reads one table.
    bot = models.ForeignKey("Bot", on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=32, validators=[validate_game])
    #: The bot's active version: the one rating its ladder entry shows.
    current = models.BooleanField(default=False)
    mu = models.FloatField(default=DEFAULT_MU)
    sigma = models.FloatField(default=DEFAULT_SIGMA)
    # mu - 3 sigma of the live TrueSkill rating (what matchmaking's "anyone" walk orders by).
    score = models.FloatField(default=DEFAULT_MU - 3 * DEFAULT_SIGMA)
    #: Where the whole-history fit starts this version: its bot's previous version's
    #: displayed rating when this one was created (25 for a bot's first version).
    prior_mu = models.FloatField(default=DEFAULT_MU)
    #: The displayed rating: the whole-history fit's posterior mean (what the ladder ranks by).
    rating = models.FloatField(default=DEFAULT_MU)
    #: Its posterior standard deviation: the 95% interval is rating ± 1.96 rating_sigma.
    rating_sigma = models.FloatField(default=DEFAULT_SIGMA)
    #: When the fit last wrote this row (None: never fitted yet, the prior is shown).
    fitted = models.DateTimeField(null=True, blank=True)
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
            models.Index(fields=["game", "current", "-rating", "id"], name="rating_ladder"),
            models.Index(fields=["bot", "-version"], name="rating_bot_versions"),
            # Matchmaking's walks (arena.services.ladder): nearest in mu, most uncertain,
            # fewest matches; each reads a few rows of an index, however long the ladder.
            models.Index(fields=["game", "current", "mu", "id"], name="rating_by_mu"),
            models.Index(fields=["game", "current", "-sigma", "id"], name="rating_by_sigma"),
            models.Index(fields=["game", "current", "matches", "id"], name="rating_by_matches"),
        ]
        ordering = ["-rating", "id"]

    def __str__(self) -> str:
        low, high = self.rating_low, self.rating_high
        return f"version {self.version_id} {self.game}: {self.rating:.2f} ({low:.2f}-{high:.2f})"

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.matches if self.matches else None

    @property
    def fault_rate(self) -> float | None:
        return self.faults / self.matches if self.matches else None


class RatingFit(models.Model):
    """The last whole-history fit of one game's ratings: when, over what, how long it took."""

    game = models.CharField(max_length=32, unique=True, validators=[validate_game])
    fitted = models.DateTimeField()
    matches = models.PositiveIntegerField(default=0)  # rated matches the fit read
    versions = models.PositiveIntegerField(default=0)  # versions it rated
    iterations = models.PositiveSmallIntegerField(default=0)
    converged = models.BooleanField(default=True)
    duration_ms = models.FloatField(default=0.0)  # reading, fitting and writing

    def __str__(self) -> str:
        return f"{self.game} fit over {self.matches} matches at {self.fitted:%Y-%m-%d %H:%M:%S}"


class RatingHistory(models.Model):
    """A version's ratings right after one rated match: the live TrueSkill rating the match
    left (``mu``, ``sigma``, ``score``), and the displayed rating the next refit gave it
    (``rating``, ``rating_sigma``); the charts draw the displayed one."""

    version = models.ForeignKey(
        "BotVersion", on_delete=models.CASCADE, related_name="rating_history"
    )
    bot = models.ForeignKey("Bot", on_delete=models.CASCADE, related_name="rating_history")
    game = models.CharField(max_length=32, validators=[validate_game])
    match = models.ForeignKey("Match", on_delete=models.CASCADE, related_name="rating_changes")
    mu = models.FloatField()
    sigma = models.FloatField()
    score = models.FloatField()
    #: The displayed rating after this match: written by the first refit that includes it
    #: (null until then). What the rating charts and sparklines draw.
    rating = models.FloatField(null=True, blank=True)
    rating_sigma = models.FloatField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # A match is rated once: a second attempt to add its row fails.
            models.UniqueConstraint(fields=["match", "version"], name="rating_once_per_match")
        ]
        indexes = [
            # A bot's chart, newest first, read from the index alone (the values drawn are
            # in it: PostgreSQL's covering columns; elsewhere the key alone).
            models.Index(
                fields=["bot", "created", "id"],
                include=["rating", "rating_sigma", "version"],
                name="rating_history_bot",
            ),
            # A version's chart and a ladder row's sparkline, newest first, from the index.
            models.Index(
                fields=["version", "created", "id"],
                include=["rating"],
                name="rating_history_version",
            ),
            # The refit's "rows not given a displayed rating yet": a few rows, however long
            # the history.
            models.Index(
                fields=["game"],
                name="rating_history_unfitted",
                condition=models.Q(rating__isnull=True),
            ),
        ]
        ordering = ["created", "id"]
        verbose_name_plural = "rating history"

    def __str__(self) -> str:
        return f"version {self.version_id} after match {self.match_id}: {self.score:.2f}"
