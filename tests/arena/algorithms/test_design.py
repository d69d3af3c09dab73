"""The information bound (``arena.algorithms.design``), checked against designs whose
variances are known in closed form (a complete graph and a chain of equal bots), for pairs
and for bigger tables."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from arena.algorithms import design, luce

N = 16
EQUAL = luce.Model(np.zeros(N))  # every match a coin toss: Fisher information 1/4 per match
PAIRS = np.array(list(itertools.combinations(range(N), 2)))


def _pairs_design(shares: dict[tuple[int, int], float]) -> design.Design:
    tables = np.array(list(shares))
    weights = np.array(list(shares.values()))
    return design.Design(tables, weights / weights.sum())


def test_the_goal_is_kendall_tau_point_nine():
    assert design.discordance_goal(16) == 6  # 120 pairs, tau 0.9: 6 the wrong way round


def test_complete_design_variance_matches_the_closed_form():
    """Uniform over all pairs: information (1/4)(1/P)(N I - J), so Var(s_i - s_j) = 2P/(N/4)."""
    informations = luce.information(EQUAL, PAIRS)
    variances = design.difference_variances(N, design.uniform(PAIRS), informations)
    assert variances is not None
    for i, j in PAIRS:
        assert variances[i, j] == pytest.approx(2 * len(PAIRS) * 4 / N)


def test_chain_design_variances_add_up_along_the_chain():
    """Only neighbours play, each pair 1/(N-1) of the matches: each link has variance
    4(N-1), and a difference across k links k times that."""
    chain = _pairs_design({(i, i + 1): 1.0 for i in range(N - 1)})
    variances = design.difference_variances(N, chain, luce.information(EQUAL, chain.tables))
    assert variances is not None
    for i, j in PAIRS:
        assert variances[i, j] == pytest.approx((j - i) * 4 * (N - 1))


def test_a_design_that_leaves_a_bot_out_needs_infinitely_many_matches():
    model = luce.Model(np.array([0.3 * (N - k) for k in range(N)]))
    without_last = _pairs_design({(i, j): 1.0 for i, j in PAIRS if N - 1 not in (i, j)})
    informations = luce.information(model, without_last.tables)
    variances = design.difference_variances(N, without_last, informations)
    assert variances is None
    assert math.isinf(design.matches_needed(model.strengths, variances, 6))


def test_near_pairs_beat_random_pairs_and_the_search_finds_no_worse():
    strengths = np.array([0.28 * (N - k) for k in range(N)])
    model = luce.Model(strengths)
    informations = luce.information(model, PAIRS)
    near_shares = np.array([1.0 if j - i <= 3 else 1e-12 for i, j in PAIRS])
    near = design.Design(PAIRS, near_shares / near_shares.sum())
    uniform = design.matches_needed(
        strengths, design.difference_variances(N, design.uniform(PAIRS), informations), 6
    )
    close = design.matches_needed(strengths, design.difference_variances(N, near, informations), 6)
    assert close < uniform
    best, found = design.best_design(strengths, PAIRS, informations, 6)
    assert best <= close + 0.5
    assert found.shares.sum() == pytest.approx(1)
    # Its own figure is what its design needs.
    again = design.matches_needed(strengths, design.difference_variances(N, found, informations), 6)
    assert again == pytest.approx(best, rel=1e-3)
    # Wider gaps between the bots: fewer matches to order them.
    wider = luce.information(luce.Model(2 * strengths), PAIRS)
    assert (
        design.matches_needed(2 * strengths, design.difference_variances(N, near, wider), 6) < close
    )


def test_tables_of_four_need_fewer_matches_than_pairs():
    """A table of four places six pairs at once: fewer matches than pairs for one order."""
    strengths = np.array([0.28 * (N - k) for k in range(N)])
    model = luce.Model(strengths)
    fours = np.array(list(itertools.combinations(range(N), 4)))
    by_pairs = design.matches_needed(
        strengths,
        design.difference_variances(N, design.uniform(PAIRS), luce.information(model, PAIRS)),
        6,
    )
    by_fours = design.matches_needed(
        strengths,
        design.difference_variances(N, design.uniform(fours), luce.information(model, fours)),
        6,
    )
    assert by_fours < by_pairs / 2
