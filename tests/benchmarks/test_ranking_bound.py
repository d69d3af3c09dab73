"""The information bound of benchmarks/ranking_bound.py, checked against designs whose
variances are known in closed form (a complete graph and a chain of equal bots)."""

from __future__ import annotations

import itertools
import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import ranking_bound as bound

N = bound.POPULATION
EQUAL = [0.0] * N  # every match a coin toss: Fisher information 1/4 per match


def test_complete_design_variance_matches_the_closed_form() -> None:
    """Uniform over all pairs: information (1/4)(1/P)(N I - J), so Var(s_i - s_j) = 2P/(N/4)."""
    pairs = len(bound.PAIRS)
    variances = bound.difference_variances(EQUAL, dict.fromkeys(bound.PAIRS, 1 / pairs))
    assert variances is not None
    for value in variances.values():
        assert value == pytest.approx(2 * pairs * 4 / N)


def test_chain_design_variances_add_up_along_the_chain() -> None:
    """Only neighbours play, each pair 1/(N-1) of the matches: each link has variance
    4(N-1), and a difference across k links k times that."""
    chain = {(i, i + 1): 1 / (N - 1) for i in range(N - 1)}
    variances = bound.difference_variances(EQUAL, chain)
    assert variances is not None
    for i, j in itertools.combinations(range(N), 2):
        assert variances[i, j] == pytest.approx((j - i) * 4 * (N - 1))


def test_a_design_that_leaves_a_bot_out_needs_infinitely_many_matches() -> None:
    strengths = [0.3 * (N - k) for k in range(N)]
    without_last = {pair: 1.0 for pair in bound.PAIRS if N - 1 not in pair}
    assert bound.difference_variances(strengths, without_last) is None
    assert math.isinf(bound.matches_needed(strengths, without_last))


def test_near_pairs_beat_random_pairs_on_a_graded_field_and_search_finds_no_worse() -> None:
    strengths = [0.28 * (N - k) for k in range(N)]
    within_three = bound.by_distance(list(range(N)), [1.0] * 3 + [0.0] * (N - 4))
    uniform = bound.matches_needed(strengths, dict.fromkeys(bound.PAIRS, 1 / len(bound.PAIRS)))
    near = bound.matches_needed(strengths, within_three)
    assert near < uniform
    assert bound.best_design(strengths) <= near + 0.5
    # Wider gaps between the bots: fewer matches to order them.
    assert bound.matches_needed([2 * s for s in strengths], within_three) < near
