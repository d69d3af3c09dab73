"""Pairing by doubt: pairs close in the displayed order, drawn by the chance the ratings have
them the wrong way round."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from dataclasses import dataclass

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


def test_a_level_pair_that_met_often_gives_way_to_one_a_match_can_settle():
    """Both pairs are a coin toss for the fit; one has a wide spread left (few matches), the
    other has met so often that a few more results will not tell them apart."""
    fresh = (Entry("x", 25, 4), Entry("y", 25, 4))
    worn = (Entry("x", 25, 0.5), Entry("y", 25, 0.5))
    assert pairing.doubt(*fresh) == pairing.doubt(*worn) == 0.5
    assert pairing.weight(*fresh) == pytest.approx(8 * pairing.weight(*worn))


def test_more_matches_less_doubt_and_a_wider_gap_less_doubt():
    assert pairing.doubt(Entry("x", 26, 2), Entry("y", 25, 2)) > pairing.doubt(
        Entry("x", 26, 1), Entry("y", 25, 1)
    )
    assert pairing.doubt(Entry("x", 27, 1), Entry("y", 25, 1)) < pairing.doubt(
        Entry("x", 26, 1), Entry("y", 25, 1)
    )


def test_candidates_are_the_pairs_at_most_reach_places_apart():
    order = ladder(30, 29, 28, 27, 26)
    pairs, weights = pairing.doubtful_pairs(order, reach=2)
    assert sorted(pairs) == [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3), (2, 4), (3, 4)]
    assert len(weights) == len(pairs)
    pairs, _ = pairing.doubtful_pairs(order, reach=1, taken={2})
    assert sorted(pairs) == [(0, 1), (3, 4)]


def test_the_pair_in_doubt_is_drawn_and_the_settled_ones_hardly_ever():
    """Two bots level in the middle of a ladder spread far apart: they are the table."""
    order = ladder(60, 45, 30.1, 30, 15, 0, sigma=1.0)
    rng = random.Random(1)
    drawn = Counter(tuple(sorted(pairing.pick_table(order, 2, rng))) for _ in range(200))
    assert drawn[(2, 3)] >= 195, drawn


def test_draws_follow_the_doubt_times_the_spread():
    """Two doubtful pairs, one twice as doubtful: drawn about twice as often."""
    order = [Entry("a", 40, 1), Entry("b", 39.0, 1), Entry("c", 20, 1), Entry("d", 18.34, 1)]
    high, low = pairing.weight(order[0], order[1]), pairing.weight(order[2], order[3])
    assert high / low == pytest.approx(2, rel=0.1)
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
