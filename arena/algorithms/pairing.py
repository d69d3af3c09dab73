"""Whom the ladder seats together: pairing that targets what the ratings do not yet know.

The displayed ranking orders the ladder by each version's rating (``arena.algorithms
.whole_history``). What it does not know yet is, for each pair of versions close in that
order, whether they are the right way round: with ratings ``N(mu_a, sigma_a²)`` and
``N(mu_b, sigma_b²)``, the fit puts them the wrong way round with probability
``Phi(-|mu_a - mu_b| / sqrt(sigma_a² + sigma_b²))`` (:func:`doubt`). The ladder seats pairs
one more match of which is expected to take the most off the number of pairs the ranking
has the wrong way round (a one-step look-ahead, the "knowledge gradient"; :func:`pair_gains`):

1. a match of two tells the fit about their skills' difference: how much follows from
   TrueSkill's model (each performs its skill plus ``N(0, BETA²)``; the closer and the less
   known the two, the more a result says), and the fit's variances shrink by what that
   information adds to them: the pair's difference most, each seat's rating alone too;
2. for the pair itself and every pair at most :data:`HORIZON` places apart with one of them
   at the table, the chance it is the wrong way round after the match, averaged over what
   the match may show, is set against the chance now: the difference is what the match is
   expected to settle of that pair, and the pair's gain is the sum. A pair the fit cannot
   tell apart and that has met often is a coin toss whatever one more match says, so it
   gains little; so does a pair ordered beyond doubt. A match also settles pairs its seats
   were not compared in: a version whose place is in doubt above and below gains from any
   match that narrows its rating;
3. the ladder draws a pair at most :data:`REACH` places apart with probability proportional
   to its gain (a draw, not the best pair every time: a pair the fit is confidently wrong
   about still comes back now and then, and two workers asking at once get different
   tables; always seating the best pair measured worse), and fills a bigger table with the
   free versions nearest to the pair in the order (those between the two first, then
   outwards, a side at random).

When the versions still free are all further apart than :data:`REACH` (a small ladder with
most of it playing), the free versions next to each other among the free are candidates,
so nobody waits for lack of a neighbour.

Why a look-ahead rather than the doubt alone: the best design an oracle knowing the true
order finds (``benchmarks/ranking_bound.py``) for a game of much luck spreads its matches
over versions up to six or seven places apart, not only neighbours, and so does the
look-ahead where the fit's doubt reaches that far, while it keeps to neighbours where it
does not. Filling bigger tables by the same look-ahead (each two seats as a share of a
comparison) measured worse than filling them with the pair's neighbours, so the look-ahead
chooses the pair only. The figures are in ``benchmarks/ranking_convergence.py``'s docstring.

Cost: the gains of every candidate pair are computed once per call of :func:`pick_tables`
(numpy: ``2 * HORIZON + 1`` target pairs per candidate, 12 Gauss-Hermite nodes each). A
call for a tick's four tables took 24 ms on a ladder of 1,000 versions and 240 ms on one
of 10,000 (this 2-core machine at load 2), against 6 and 50 ms for drawing by the doubt
alone: some 6 ms a match at 1,000 versions. The ladder tick calls it once per game a
minute.

New versions start with a wide rating (sigma 25/3), so every pair they are in is doubtful
and they play often until their place is firm. The ladder (``arena.services.ladder``) reads
the ladder's ratings in order with one query and hands them to :func:`pick_tables`; the
benchmark hands it its in-memory field, so both run exactly this policy.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Collection, Hashable, Sequence
from typing import Protocol, TypeVar

import numpy as np
import numpy.typing as npt
from scipy import special

from arena.algorithms.whole_history import BETA

__all__ = [
    "HORIZON",
    "REACH",
    "Rated",
    "candidate_pairs",
    "doubt",
    "nearest",
    "pair_gains",
    "pick_table",
    "pick_tables",
]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

#: Pairs at most this many places apart in the displayed order are candidate tables.
REACH = 6
#: A match is credited with what it settles of pairs at most this many places apart.
HORIZON = 4
# Gauss-Hermite nodes and weights for averaging over a standard normal.
_NODES, _WEIGHTS = np.polynomial.hermite_e.hermegauss(12)
_WEIGHTS = _WEIGHTS / _WEIGHTS.sum()


class Rated(Protocol):
    """What pairing reads of a version: its displayed rating and that rating's sigma."""

    @property
    def rating(self) -> float: ...

    @property
    def rating_sigma(self) -> float: ...


R = TypeVar("R", bound=Rated)


def doubt(a: Rated, b: Rated) -> float:
    """The chance that the ratings have ``a`` and ``b`` the wrong way round."""
    spread = math.sqrt(a.rating_sigma**2 + b.rating_sigma**2)
    if spread == 0:
        return 0.0
    return 0.5 * math.erfc(abs(a.rating - b.rating) / (spread * math.sqrt(2)))


def _wrong_way(gap: Floats, variance: Floats) -> Floats:
    """The chance a difference ``N(gap, variance)`` has the other sign than ``gap``."""
    wrong: Floats = 0.5 * special.erfc(np.abs(gap) / np.sqrt(2 * np.maximum(variance, 1e-12)))
    return wrong


def _settled(gap: Floats, variance: Floats, shrink: Floats) -> Floats:
    """What a match that takes ``shrink`` off a difference's variance is expected to take off
    the chance it is the wrong way round: before, minus after averaged over where the mean
    may move (by a normal of variance ``shrink``, the preposterior)."""
    shrink = np.clip(shrink, 0.0, variance)
    moved = gap[..., None] + np.sqrt(shrink)[..., None] * _NODES
    after = _wrong_way(moved, (variance - shrink)[..., None]) @ _WEIGHTS
    settled: Floats = _wrong_way(gap, variance) - after
    return settled


def _information(gap: Floats, variance: Floats) -> Floats:
    """The Fisher information one comparison of two seats gives on their skills' difference
    (TrueSkill's model: each performs its skill plus N(0, BETA²)), at the fit's belief."""
    scale2 = 2 * BETA**2 + variance
    t = gap / np.sqrt(scale2)
    win = special.ndtr(t)
    density = np.exp(-t * t / 2) / math.sqrt(2 * math.pi)
    information: Floats = density**2 / np.maximum(win * (1 - win), 1e-12) / scale2
    return information


def _field(order: Sequence[Rated]) -> tuple[Floats, Floats]:
    mu = np.fromiter((entry.rating for entry in order), float, len(order))
    sigma = np.fromiter((entry.rating_sigma for entry in order), float, len(order))
    return mu, sigma * sigma


def pair_gains(
    mu: Floats, variance: Floats, first: Ints, second: Ints, *, horizon: int = HORIZON
) -> Floats:
    """The gain of each table of two (``first[k]``, ``second[k]``: positions in the order,
    whose ratings are ``mu`` with variances ``variance``): what one match of it is expected
    to take off the chance each pair within ``horizon`` places of either seat is the wrong
    way round, summed (see the module's docstring)."""
    joint = variance[first] + variance[second]
    gap = mu[first] - mu[second]
    information = _information(gap, joint)
    # Information i on the difference shrinks the covariance by S u u' S i / (1 + i u' S u)
    # (u = e_a - e_b, S the ratings' variances): the pair's own variance by joint² k, each
    # seat's alone by its variance² k.
    k = information / (1 + information * joint)
    gains = _settled(gap, joint, joint * joint * k)
    offsets = np.array([o for o in range(-horizon, horizon + 1) if o != 0], dtype=np.int64)
    for seat, other in ((first, second), (second, first)):
        targets = seat[:, None] + offsets
        counted = (targets >= 0) & (targets < len(mu)) & (targets != other[:, None])
        targets = np.clip(targets, 0, len(mu) - 1)
        settled = _settled(
            mu[seat][:, None] - mu[targets],
            variance[seat][:, None] + variance[targets],
            np.broadcast_to((variance[seat] ** 2 * k)[:, None], targets.shape),
        )
        gains = gains + np.sum(settled * counted, axis=1)
    return gains


def candidate_pairs(
    order: Sequence[Rated], *, reach: int = REACH, taken: Collection[int] = ()
) -> tuple[Ints, Ints]:
    """The candidate tables of two: positions in ``order`` (best first) at most ``reach``
    apart, neither of them ``taken``."""
    free = np.ones(len(order), dtype=bool)
    free[list(taken)] = False
    firsts, seconds = [], []
    for distance in range(1, min(reach, len(order) - 1) + 1):
        first = np.arange(len(order) - distance)
        keep = free[first] & free[first + distance]
        firsts.append(first[keep])
        seconds.append(first[keep] + distance)
    if not firsts:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(firsts), np.concatenate(seconds)


class _Ladder:
    """The order's ratings and every candidate table of two with its gain, computed once and
    shared by the tables picked together (seating a table only takes its versions out of
    the candidates: no result has changed the ratings in between)."""

    def __init__(self, order: Sequence[Rated], reach: int) -> None:
        self.size = len(order)
        self.mu, self.variance = _field(order)
        self.first, self.second = candidate_pairs(order, reach=reach)
        self.gains = self._gains(self.first, self.second)

    def _gains(self, first: Ints, second: Ints) -> Floats:
        gains: Floats = np.maximum(pair_gains(self.mu, self.variance, first, second), 0.0)
        return gains

    def _pairs(self, taken: Collection[int]) -> tuple[Ints, Ints, Floats]:
        """The free candidate pairs and their gains; when no two free versions are within
        reach (a small ladder with most of it playing), the free versions next to each
        other among the free, so nobody waits for lack of a neighbour."""
        free = np.ones(self.size, dtype=bool)
        free[list(taken)] = False
        keep = free[self.first] & free[self.second]
        if keep.any():
            return self.first[keep], self.second[keep], self.gains[keep]
        left = np.flatnonzero(free)
        first, second = left[:-1], left[1:]
        return first, second, self._gains(first, second)

    def table(self, seats: int, rng: random.Random, taken: Collection[int]) -> list[int] | None:
        """Positions of one table (see :func:`pick_table`)."""
        if self.size - len(taken) < seats:
            return None
        first, second, gains = self._pairs(taken)
        total = float(gains.sum())
        if total > 0:
            pick = rng.choices(range(len(first)), weights=gains.tolist())[0]
        else:  # every candidate pair is settled beyond doubt: any of them
            pick = rng.randrange(len(first))
        return _fill(int(first[pick]), int(second[pick]), seats, self.size, rng, taken)


def _fill(
    a: int, b: int, seats: int, size: int, rng: random.Random, taken: Collection[int]
) -> list[int] | None:
    """The pair ``a`` < ``b`` and, for a bigger table, the free versions nearest to it in the
    order: those between the two first, then outwards, a side at random."""
    table = [a, b]
    table += [p for p in range(a + 1, b) if p not in taken][: seats - 2]
    left, right = a - 1, b + 1
    while len(table) < seats:
        while left >= 0 and left in taken:
            left -= 1
        while right < size and right in taken:
            right += 1
        sides = [side for side in (left, right) if 0 <= side < size]
        if not sides:
            return None
        side = rng.choice(sides)
        table.append(side)
        if side == left:
            left -= 1
        else:
            right += 1
    return table


def pick_table(
    order: Sequence[R],
    seats: int,
    rng: random.Random,
    *,
    busy: Collection[int] = (),
    reach: int = REACH,
) -> list[int] | None:
    """Positions in ``order`` (the ladder, best first) of one table of ``seats``: a pair
    drawn by its gain (:func:`pair_gains`) and, for a bigger table, the free versions
    nearest to it; None when fewer than ``seats`` versions are free. ``busy`` holds
    positions already seated elsewhere."""
    return _Ladder(order, reach).table(seats, rng, set(busy))


def pick_tables(
    order: Sequence[R],
    seats: int,
    count: int,
    rng: random.Random,
    *,
    busy: Collection[Hashable] = (),
    key: Callable[[R], Hashable] = id,
) -> list[list[R]]:
    """Up to ``count`` tables, no version at two of them nor at a table of ``busy`` (keys
    by ``key``)."""
    busy = set(busy)
    taken = {p for p, entry in enumerate(order) if key(entry) in busy}
    ladder = _Ladder(order, REACH)
    tables = []
    for _ in range(count):
        positions = ladder.table(seats, rng, taken)
        if positions is None:
            break
        tables.append([order[p] for p in positions])
        taken.update(positions)
    return tables


def nearest(candidates: Sequence[R], rating: float, count: int, rng: random.Random) -> list[R]:
    """The ``count`` candidates whose rating is nearest to ``rating`` (a new version's
    placement: its first tables, before the ratings know where it belongs); equal distances
    in random order."""
    keyed = [
        (round(abs(c.rating - rating), 6), rng.random(), index)
        for index, c in enumerate(candidates)
    ]
    return [candidates[index] for *_, index in sorted(keyed)[:count]]
