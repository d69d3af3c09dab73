"""Whom the ladder seats together: pairing that targets what the ratings do not yet know.

The displayed ranking orders the ladder by each version's rating (``arena.algorithms
.whole_history``). What it does not know yet is, for each pair of versions close in that
order, whether they are the right way round: with ratings ``N(mu_a, sigma_a²)`` and
``N(mu_b, sigma_b²)``, the fit puts them the wrong way round with probability
``Phi(-|mu_a - mu_b| / sqrt(sigma_a² + sigma_b²))`` (:func:`doubt`). A match between two
versions the fit already orders with confidence teaches it little; one between versions it
cannot tell apart teaches it most. So the ladder:

1. lists the pairs at most :data:`REACH` places apart in the displayed order (the pairs an
   oracle's best design plays too: ``arena.algorithms.design``);
2. draws one with probability proportional to its doubt times the spread of its difference,
   ``sqrt(sigma_a² + sigma_b²)`` (:func:`weight`): what one more match between them is
   expected to take off the chance they are the wrong way round. Two versions that have met
   often and are still level are a coin toss whatever a few more matches say, so they give
   way to pairs a match can still settle. It is a draw, not the heaviest pair every time: a
   pair the fit is confidently wrong about still comes back now and then, and two workers
   asking at once get different tables;
3. seats it, filling a bigger table with the free versions nearest to the pair in the order
   (those between the two first, then outwards, a side at random).

When the versions still free are all further apart than :data:`REACH` (a small ladder with
most of it playing), any two of them are candidates, so nobody waits for lack of a
neighbour.

Measured in ``benchmarks/ranking_convergence.py`` against the bound of
``benchmarks/ranking_bound.py`` (the fewest matches even a design knowing the true order
needs): drawing by doubt stops spending matches on pairs whose results have already
settled them, and ranks the benchmark's fields in 0.95 (Lie 21), 1.01 (Liars), 1.25
(Twenty One, seeds 1-20) and 1.19 (Tieng Len, seeds 1-20) times the matches of the best
fixed design (seeds 1-10 unless said; the figures and their spread are in the benchmark's
docstring).

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

__all__ = [
    "REACH",
    "Rated",
    "doubt",
    "doubtful_pairs",
    "nearest",
    "pick_table",
    "pick_tables",
    "weight",
]

#: Pairs at most this many places apart in the displayed order are candidates.
REACH = 2


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


def weight(a: Rated, b: Rated) -> float:
    """How much a match between ``a`` and ``b`` is expected to settle their order: the doubt
    times the spread of their difference (a one-step look-ahead: a match shrinks the spread
    by an amount that matters in proportion to it)."""
    return doubt(a, b) * math.sqrt(a.rating_sigma**2 + b.rating_sigma**2)


def doubtful_pairs(
    order: Sequence[R], *, reach: int = REACH, taken: Collection[int] = ()
) -> tuple[list[tuple[int, int]], list[float]]:
    """The candidate pairs (positions in ``order``, best first, neither of them ``taken``)
    and their weights (:func:`weight`)."""
    pairs, weights = [], []
    for distance in range(1, reach + 1):
        for a in range(len(order) - distance):
            b = a + distance
            if a not in taken and b not in taken:
                pairs.append((a, b))
                weights.append(weight(order[a], order[b]))
    return pairs, weights


def pick_table(
    order: Sequence[R],
    seats: int,
    rng: random.Random,
    *,
    busy: Collection[int] = (),
    reach: int = REACH,
) -> list[int] | None:
    """Positions in ``order`` (the ladder, best first) of one table of ``seats``: a pair
    drawn by doubt and the free versions nearest to it; None when fewer than ``seats``
    versions are free. ``busy`` holds positions already seated elsewhere."""
    taken = set(busy)
    if len(order) - len(taken) < seats:
        return None
    pairs, weights = doubtful_pairs(order, reach=reach, taken=taken)
    if not pairs:  # the free versions are far apart in the order: any two of them
        pairs, weights = doubtful_pairs(order, reach=len(order), taken=taken)
    total = sum(weights)
    if total > 0:
        a, b = rng.choices(pairs, weights=weights)[0]
    else:  # every candidate pair is settled beyond doubt: any of them
        a, b = rng.choice(pairs)
    table = [a, b]
    # Fill a bigger table: between the two first, then outwards from the pair.
    table += [p for p in range(a + 1, b) if p not in taken][: seats - 2]
    left, right = a - 1, b + 1
    while len(table) < seats:
        while left >= 0 and left in taken:
            left -= 1
        while right < len(order) and right in taken:
            right += 1
        sides = [side for side in (left, right) if 0 <= side < len(order)]
        if not sides:
            return None
        side = rng.choice(sides)
        table.append(side)
        if side == left:
            left -= 1
        else:
            right += 1
    return table


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
    tables = []
    for _ in range(count):
        positions = pick_table(order, seats, rng, busy=taken)
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
