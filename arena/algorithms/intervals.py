"""How sure a head-to-head score is: the one method behind every score interval the arena shows.

A head-to-head score is a share of points: per match, 1 for placing ahead of a rival, 1/2 for
level, 0 for behind, averaged over the rivals at the table. Matches come in **units**, the
independent draws: a single match, or a duplicate set (the same deals played with the seats
rotated, so that most of the luck cancels). A unit's weight is the number of its matches that
were played, so a duplicate set cut short counts for what was played, no more:

- the **score** is points / matches played (every match counts once, whatever unit it is in);
- its **uncertainty** comes from the spread of the units' scores around it (the variance of a
  ratio estimator over clusters), after one extra unit won outright and one lost outright, each
  of average size, are counted in (as the Agresti-Coull "plus two" does for a proportion), so
  that four wins out of four do not read as certainty;
- that variance is set against the variance as many independent matches would have (the
  design effect), which turns the matches played into an effective number of matches, and the
  **95% interval** is Wilson's score interval at that size. It always lies within 0-100%,
  always contains the score, and is not symmetric near the ends: pages show it as its two
  ends ("75%, 95% interval 52%-89%"), never as "±".

>>> share = score_share([(1.0, 1), (1.0, 1), (0.5, 1), (0.0, 1)])
>>> share.score, share.low < share.score < share.high
(0.625, True)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Z95", "Share", "score_share", "wilson"]

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Share:
    """A score share in 0..1 with its 95% interval (``None`` throughout when nothing was played)."""

    score: float | None
    low: float | None
    high: float | None
    matches: float  # matches played (the units' weights summed)
    units: int  # independent units (matches, or duplicate sets)
    effective: float | None  # the effective number of matches the interval is drawn at

    @property
    def significant(self) -> bool:
        """The interval leaves out one half: one side is really ahead."""
        return (
            self.low is not None and self.high is not None and (self.low > 0.5 or self.high < 0.5)
        )

    @property
    def verdict(self) -> str:
        """``better`` or ``worse`` when the interval leaves out one half on that side, else
        ``unsure``."""
        if not self.significant:
            return "unsure"
        return "better" if (self.low or 0.0) > 0.5 else "worse"


def wilson(score: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of a proportion ``score`` observed over ``n`` (possibly
    effective, so not whole) trials.

    >>> low, high = wilson(0.5, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    """
    if n <= 0:
        return 0.0, 1.0
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (score + z2 / (2 * n)) / denominator
    half = z * math.sqrt(score * (1 - score) / n + z2 / (4 * n * n)) / denominator
    # Rounding must never leave the score outside its own interval.
    return max(0.0, min(score, centre - half)), min(1.0, max(score, centre + half))


def score_share(units: Iterable[tuple[float, float]]) -> Share:
    """The score and 95% interval of ``units``: ``(score, matches)`` pairs, a unit's score
    being its points per match (0..1) and ``matches`` how many of its matches were played."""
    played = [(float(score), float(weight)) for score, weight in units if weight > 0]
    if not played:
        return Share(None, None, None, 0.0, 0, None)
    total = sum(weight for _, weight in played)
    score = sum(s * weight for s, weight in played) / total
    mean_weight = total / len(played)
    padded = [*played, (1.0, mean_weight), (0.0, mean_weight)]
    padded_total = total + 2 * mean_weight
    centre = sum(s * weight for s, weight in padded) / padded_total
    k = len(padded)
    variance = (
        k / (k - 1) * sum((weight * (s - centre)) ** 2 for s, weight in padded) / padded_total**2
    )
    # The effective number of matches is the matches played over the design effect (the
    # units' variance against the variance of as many independent matches): about the matches
    # played for single won-or-lost matches (n(n+1)/(n+2) of n), more where duplicate sets
    # cancel luck or a result between win and loss is common. It is not capped at the matches
    # played: that would throw away what duplicate sets are for. Small samples are kept
    # honest by the padding instead (its won and lost unit are in the variance), so three
    # wins of three are not "sure"; tests/arena/algorithms/test_intervals.py checks the
    # interval's coverage in model worlds of both kinds.
    binomial = centre * (1 - centre) / padded_total
    effective = total * binomial / variance if variance > 0 else total
    low, high = wilson(score, effective)
    return Share(score, low, high, total, len(played), effective)
