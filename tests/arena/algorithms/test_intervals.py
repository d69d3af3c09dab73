"""The score-share interval: one method for challenges, comparisons and crosstables."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.algorithms.intervals import score_share, wilson

unit = st.tuples(st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]), st.integers(1, 4))


def test_nothing_played_has_no_score_and_no_interval():
    share = score_share([])
    assert (share.score, share.low, share.high, share.units) == (None, None, None, 0)
    assert share.verdict == "unsure"


def test_each_match_counts_once_so_a_partial_duplicate_set_weighs_what_was_played():
    # Nine full sets of two (six won, three level) and one set cut short after one lost match.
    units = [(1.0, 2)] * 6 + [(0.5, 2)] * 3 + [(0.0, 1)]
    share = score_share(units)
    assert share.matches == 19 and share.units == 10
    assert share.score == pytest.approx((12 + 3) / 19)  # 78.9%, not (6 + 1.5) / 10 = 75%


def test_four_wins_of_four_are_not_certainty():
    share = score_share([(1.0, 1)] * 4)
    assert share.score == 1.0 and share.high == 1.0 and share.low < 0.75


def test_one_match_is_never_significant():
    assert not score_share([(1.0, 1)]).significant
    assert not score_share([(0.0, 2)]).significant


def test_a_long_clear_run_is_significant_on_its_side():
    assert score_share([(1.0, 1)] * 30 + [(0.0, 1)] * 5).verdict == "better"
    assert score_share([(0.0, 1)] * 30 + [(1.0, 1)] * 5).verdict == "worse"


def test_independent_matches_give_about_the_binomial_interval():
    rng = random.Random(7)
    units = [(float(rng.random() < 0.6), 1) for _ in range(400)]
    share = score_share(units)
    low, high = wilson(share.score, 400)
    assert share.low == pytest.approx(low, abs=0.01) and share.high == pytest.approx(high, abs=0.01)


def test_duplicate_sets_whose_luck_cancels_give_a_narrower_interval_than_single_matches():
    paired = score_share([(0.5, 2)] * 20 + [(1.0, 2)] * 10)
    single = score_share([(1.0, 1)] * 40 + [(0.0, 1)] * 20)
    assert paired.score == pytest.approx(single.score)
    assert paired.high - paired.low < single.high - single.low


@given(st.lists(unit, min_size=1, max_size=40))
def test_the_interval_lies_in_0_1_and_contains_the_score(units):
    share = score_share(units)
    assert 0.0 <= share.low <= share.score <= share.high <= 1.0


@given(st.lists(unit, min_size=1, max_size=40))
def test_the_interval_is_the_mirror_image_for_the_other_side(units):
    share = score_share(units)
    other = score_share([(1.0 - s, w) for s, w in units])
    assert other.low == pytest.approx(1.0 - share.high)
    assert other.high == pytest.approx(1.0 - share.low)


def test_three_wins_of_three_are_not_significant():
    # An exact two-sided binomial test gives p = 0.25; the interval must not call it.
    assert score_share([(1.0, 1)] * 3).verdict == "unsure"
    assert score_share([(1.0, 1)] * 4).verdict == "unsure"  # p = 0.125
    assert score_share([(1.0, 1)] * 8).verdict == "better"  # p = 0.008


def test_single_matches_have_about_as_many_effective_matches_as_played():
    share = score_share([(1.0, 1)] * 30 + [(0.0, 1)] * 20)
    assert 45 < share.effective <= 50


# Unit scores (with their chances) of model worlds: duplicate sets of two matches whose luck
# mostly cancels (a split set is 1/2), and single matches at a table of three (1/2: between).
DUPLICATE_SETS = ([0.5, 1.0, 0.0], [0.6, 0.25, 0.15], 2)
MOSTLY_SPLIT_SETS = ([0.5, 1.0, 0.0], [0.9, 0.07, 0.03], 2)
THREE_SEATS = ([0.0, 0.25, 0.5, 0.75, 1.0], [0.1, 0.1, 0.3, 0.3, 0.2], 1)


@pytest.mark.parametrize("world", [DUPLICATE_SETS, MOSTLY_SPLIT_SETS, THREE_SEATS])
@pytest.mark.parametrize("units", [10, 30, 100])
def test_the_interval_covers_the_true_score_at_least_95_percent_of_the_time(world, units):
    """The effective size is not capped at the matches played (issue 32's audit found a
    comment saying it was): uncapped, the interval still covers the true score as often as
    it says, in worlds where it is far more than the matches played."""
    values, chances, weight = world
    truth = sum(v * p for v, p in zip(values, chances, strict=True))
    rng = random.Random(units)
    runs = 1000
    covered = 0
    for _ in range(runs):
        share = score_share([(rng.choices(values, chances)[0], weight) for _ in range(units)])
        covered += share.low <= truth <= share.high
    assert covered / runs >= 0.935, covered / runs


def test_duplicate_sets_whose_luck_cancels_count_for_more_matches_than_were_played():
    rng = random.Random(3)
    values, chances, weight = MOSTLY_SPLIT_SETS
    share = score_share([(rng.choices(values, chances)[0], weight) for _ in range(30)])
    assert share.matches == 60 and share.effective > 1.5 * share.matches
    # Single won-or-lost matches: a little fewer than played, n(n+1)/(n+2).
    single = score_share([(1.0, 1)] * 30 + [(0.0, 1)] * 20)
    assert single.effective == pytest.approx(50 * 51 / 52)
