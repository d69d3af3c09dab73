"""Pairing by doubt: pairs close in the displayed order, drawn by the chance the ratings have
them the wrong way round."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.algorithms import pairing


@dataclass(frozen=True)
class Entry:
    name: str
    rating: float
    rating_sigma: float = 1.0


def ladder(*ratings: float, sigma: float = 1.0) -> list[Entry]:
    """Entries best first, named a, b, c ..."""
    entries = [Entry(chr(ord("a") + k), r, sigma) for k, r in enumerate(ratings)]
    return sorted(entries, key=lambda e: -e.rating)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (Entry("x", 25, 1), Entry("y", 25, 1), 0.5),  # level: a coin toss
        (Entry("x", 26, 1), Entry("y", 25, 1), 0.5 * math.erfc(1 / 2)),  # 1 / sqrt(2) sd
        (Entry("x", 30, 0.1), Entry("y", 25, 0.1), 0.0),  # settled beyond doubt
        (Entry("x", 25, 0), Entry("y", 25, 0), 0.0),  # no spread at all
    ],
)
def test_doubt_is_the_chance_of_the_wrong_order(a, b, expected):
    assert pairing.doubt(a, b) == pytest.approx(expected, abs=1e-12)
    assert pairing.doubt(b, a) == pairing.doubt(a, b)


def gains(order: list[Entry], *pairs: tuple[int, int], horizon: int = pairing.HORIZON):
    """The gains of ``pairs`` (positions) as tables of two on ``order``."""
    mu = np.array([entry.rating for entry in order])
    variance = np.array([entry.rating_sigma**2 for entry in order])
    first, second = (np.array(side) for side in zip(*pairs, strict=True))
    return pairing.pair_gains(mu, variance, first, second, horizon=horizon)


def test_a_level_pair_that_met_often_gives_way_to_one_a_match_can_settle():
    """Both pairs are a coin toss for the fit; one has a wide spread left (few matches), the
    other has met so often that one more result will hardly tell them apart."""
    fresh = [Entry("x", 25, 4), Entry("y", 25, 4)]
    worn = [Entry("x", 25, 0.5), Entry("y", 25, 0.5)]
    assert pairing.doubt(*fresh) == pairing.doubt(*worn) == 0.5
    assert gains(fresh, (0, 1))[0] > 5 * gains(worn, (0, 1))[0] > 0


def test_a_pair_settled_beyond_doubt_gains_nothing_and_a_closer_one_more():
    assert gains(ladder(40, 20), (0, 1))[0] == pytest.approx(0, abs=1e-12)
    assert gains(ladder(26, 25, sigma=2), (0, 1))[0] > gains(ladder(30, 25, sigma=2), (0, 1))[0]


def test_the_gain_is_the_expected_fall_in_pairs_the_wrong_way_round():
    """A table of two on a ladder of two, against a Monte Carlo of the model the gain
    assumes: the difference's posterior after one comparison, by Bayes on a grid."""
    mu, sigma = 1.0, 3.0
    (gain,) = gains(
        [Entry("a", 25 + mu, sigma / math.sqrt(2)), Entry("b", 25, sigma / math.sqrt(2))], (0, 1)
    )
    grid = np.linspace(mu - 8 * sigma, mu + 8 * sigma, 4001)
    prior = np.exp(-((grid - mu) ** 2) / (2 * sigma**2))
    noise = math.sqrt(2) * 25 / 6
    win = 0.5 * np.vectorize(math.erfc)(-grid / (noise * math.sqrt(2)))
    after = 0.0
    for likelihood in (win, 1 - win):
        joint = prior * likelihood
        p_result = joint.sum() / prior.sum()
        wrong = joint[grid < 0].sum() / joint.sum()
        after += p_result * min(wrong, 1 - wrong)
    before = prior[grid < 0].sum() / prior.sum()
    # The gain uses the Gaussian (Laplace) approximation of one result's information, so
    # it is the exact fall to within some percent.
    assert gain == pytest.approx(before - after, rel=0.25)


def test_a_match_settles_pairs_its_seats_were_not_compared_in():
    """c's place against b and d is in doubt; a match of c and e narrows c's rating, so it
    is credited with some of b-c and c-d too, and with a horizon of two a-c as well."""
    order = [
        Entry(name, rating, sigma)
        for name, rating, sigma in [
            ("a", 28, 2),
            ("b", 27, 2),
            ("c", 26, 3),
            ("d", 25, 2),
            ("e", 24, 2),
        ]
    ]
    wide, narrow, own = (gains(order, (2, 4), horizon=h)[0] for h in (2, 1, 0))
    assert wide > narrow > own > 0


def test_candidates_are_the_pairs_at_most_reach_places_apart():
    order = ladder(30, 29, 28, 27, 26)
    first, second = pairing.candidate_pairs(order, reach=2)
    pairs = sorted(zip(first.tolist(), second.tolist(), strict=True))
    assert pairs == [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3), (2, 4), (3, 4)]
    first, second = pairing.candidate_pairs(order, reach=1, taken={2})
    assert sorted(zip(first.tolist(), second.tolist(), strict=True)) == [(0, 1), (3, 4)]


def test_the_pair_in_doubt_is_drawn_and_the_settled_ones_hardly_ever():
    """Two bots level in the middle of a ladder spread far apart: they are the table."""
    order = ladder(60, 45, 30.1, 30, 15, 0, sigma=1.0)
    rng = random.Random(1)
    drawn = Counter(tuple(sorted(pairing.pick_table(order, 2, rng))) for _ in range(200))
    assert drawn[(2, 3)] >= 195, drawn


def test_draws_follow_the_gains():
    """Two doubtful pairs far apart, one gaining about twice what the other does: drawn
    about twice as often."""
    order = [Entry("a", 40, 3), Entry("b", 39.5, 3), Entry("c", 20, 3), Entry("d", 18.6, 3)]
    mu, variance = np.array([e.rating for e in order]), np.full(4, 9.0)
    high, low = pairing.pair_gains(mu, variance, np.array([0, 2]), np.array([1, 3]))
    assert high / low == pytest.approx(2, rel=0.25)
    rng = random.Random(7)
    drawn = Counter(tuple(pairing.pick_table(order, 2, rng)) for _ in range(3000))
    assert drawn[(0, 1)] / drawn[(2, 3)] == pytest.approx(high / low, rel=0.15)


def test_a_bigger_table_is_the_pair_and_its_nearest_free_neighbours():
    order = ladder(50, 40, 30.05, 30, 20, 10, 0)
    busy = {4}  # the bot just below the pair is playing
    table = pairing.pick_table(order, 4, random.Random(3), busy=busy)
    assert table is not None
    assert table[:2] == [2, 3]
    assert set(table[2:]) <= {1, 5}, "nearest free places on either side, skipping the busy"
    assert len(set(table)) == 4 and not set(table) & busy


def test_pick_tables_over_a_big_ladder_reach_past_neighbours_where_doubt_does():
    """A thousand versions: tables of two within reach, some of them further apart than
    next-door neighbours where the ratings are wide."""
    rng = random.Random(5)
    order = ladder(*(rng.gauss(25, 5) for _ in range(1000)), sigma=3.0)
    tables = pairing.pick_tables(order, 2, 40, rng)
    index = {id(entry): p for p, entry in enumerate(order)}
    distances = [abs(index[id(a)] - index[id(b)]) for a, b in tables]
    assert len(tables) == 40 and max(distances) <= pairing.REACH
    assert max(distances) > 1


def test_no_table_when_too_few_are_free():
    order = ladder(30, 29, 28)
    assert pairing.pick_table(order, 2, random.Random(1), busy={0, 1}) is None
    assert pairing.pick_table(order, 4, random.Random(1)) is None


def test_free_versions_far_apart_still_play():
    order = ladder(50, 40, 30, 20, 10)
    assert sorted(pairing.pick_table(order, 2, random.Random(1), busy={1, 2, 3})) == [0, 4]


def test_pick_tables_seats_each_entry_once_and_leaves_the_busy_out():
    order = ladder(*range(20, 0, -1), sigma=3.0)
    busy = {order[0].name, order[5].name}
    tables = pairing.pick_tables(
        order, 4, 10, random.Random(2), busy=busy, key=lambda entry: entry.name
    )
    seated = [entry.name for table in tables for entry in table]
    assert len(seated) == len(set(seated))
    assert not set(seated) & busy
    assert len(tables) == 4  # 18 free entries, tables of 4


@settings(max_examples=60, deadline=None)
@given(
    ratings=st.lists(st.floats(0, 50), min_size=2, max_size=12),
    sigma=st.floats(0.01, 9),
    seats=st.integers(2, 4),
    busy=st.sets(st.integers(0, 11), max_size=4),
    seed=st.integers(0, 1000),
)
def test_any_table_is_distinct_free_and_of_the_size(ratings, sigma, seats, busy, seed):
    order = ladder(*ratings, sigma=sigma)
    busy = {p for p in busy if p < len(order)}
    table = pairing.pick_table(order, seats, random.Random(seed), busy=busy)
    free = [p for p in range(len(order)) if p not in busy]
    if table is None:
        assert len(free) < seats  # nothing to seat only when too few are free
        return
    assert len(table) == seats == len(set(table))
    assert not set(table) & busy
    close = any(b - a <= pairing.REACH for a, b in itertools.pairwise(free))
    assert abs(table[0] - table[1]) <= pairing.REACH or not close


def test_nearest_finds_the_closest_ratings():
    entries = ladder(10, 20, 24, 26, 40)
    near = pairing.nearest(entries, 25, 2, random.Random(0))
    assert sorted(e.rating for e in near) == [24, 26]
