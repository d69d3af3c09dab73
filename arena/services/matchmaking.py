"""Whom the ladder seats together: the policy, as pure functions on ratings (no database).

The ladder (``arena.services.ladder``) feeds these with rows it reads by indexed queries;
``benchmarks/ranking_convergence.py`` feeds them with an in-memory population, so the
benchmark measures exactly the policy the arena runs.

The policy, after Halite's matchmaking and TrueSkill's own advice:

* a **focal** bot is drawn by Halite's 25/65/10 mix of rules (:data:`FOCAL_MIX`): a quarter
  of the time among the least certain ratings (high sigma), mostly anyone on the ladder, and
  sometimes among the least played, each time at random among the few at the top (so equal
  ratings do not favour low ids);
* its opponents come from the bots **nearest in mu** (:func:`nearest`), a small pool of
  :data:`NEAREST_PER_SEAT` per open seat: measured in ``benchmarks/ranking_convergence.py``,
  a narrow pool settles the order in fewer matches than a wide one;
* among the candidate tables the one of best **TrueSkill match quality** is chosen (the
  probability of a draw: high where the outcome is most uncertain, which is where a result
  teaches the ratings most), halved for every recent meeting with an opponent, so the same
  pair does not meet again and again (:func:`best_table`).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

import trueskill

__all__ = [
    "FOCAL_MIX",
    "FOCAL_POOL",
    "NEAREST_PER_SEAT",
    "SIGMA_SETTLED",
    "Rated",
    "best_table",
    "focal_rule",
    "nearest",
    "pick_focal",
]

#: How the focal bot is picked (Halite's 25/65/10 mix of seed rules): a quarter of the time
#: among the least certain ratings, mostly anyone, sometimes among the least played. Measured
#: against 65/25/10 in ``benchmarks/ranking_convergence.py``: fewer matches to a settled order.
FOCAL_MIX = ((0.25, "uncertain"), (0.90, "anyone"), (1.00, "new"))
#: Opponents are drawn from this many bots nearest in mu per open seat.
NEAREST_PER_SEAT = 2
#: The focal bot is drawn among this many at the top of its rule's order.
FOCAL_POOL = 4
#: Ratings with sigma at or below this are settled: the "uncertain" rule skips them.
SIGMA_SETTLED = 2.5


class Rated(Protocol):
    mu: float
    sigma: float
    matches: int


R = TypeVar("R", bound=Rated)


def focal_rule(rng: random.Random) -> str:
    """Which rule picks the next focal bot: ``uncertain``, ``new`` or ``anyone``."""
    draw = rng.random()
    return next(name for bound, name in FOCAL_MIX if draw < bound)


def pick_focal(candidates: Sequence[R], rule: str, rng: random.Random) -> R | None:
    """The focal bot among ``candidates`` by ``rule`` (in-memory version of the ladder's
    indexed queries)."""
    if rule == "uncertain":
        pool = sorted((c for c in candidates if c.sigma > SIGMA_SETTLED), key=lambda c: -c.sigma)
    elif rule == "new":
        pool = sorted(candidates, key=lambda c: c.matches)
    else:
        pool = list(candidates)
        rng.shuffle(pool)
    return rng.choice(pool[:FOCAL_POOL]) if pool else None


def nearest(candidates: Sequence[R], mu: float, count: int, rng: random.Random) -> list[R]:
    """The ``count`` candidates nearest to ``mu``; equal distances in random order."""
    keyed = [(round(abs(c.mu - mu), 6), rng.random(), index) for index, c in enumerate(candidates)]
    return [candidates[index] for *_, index in sorted(keyed)[:count]]


def best_table(
    env: trueskill.TrueSkill,
    focal: R,
    candidates: Sequence[R],
    seats: int,
    met: Counter,
    key: Callable[[R], object],
    *,
    limit: int = 60,
) -> list[R] | None:
    """The focal bot and ``seats - 1`` candidates of best match quality, halved per recent
    meeting (``met[key(candidate)]``); None when there are too few candidates."""
    if len(candidates) < seats - 1:
        return None
    best: tuple[float, list[R]] | None = None
    for others in itertools.islice(itertools.combinations(candidates, seats - 1), limit):
        table = [focal, *others]
        groups = [(env.create_rating(r.mu, r.sigma),) for r in table]
        quality = env.quality(groups) * 0.5 ** sum(met[key(r)] for r in others)
        if best is None or quality > best[0]:
            best = (quality, table)
    return best[1] if best else None
