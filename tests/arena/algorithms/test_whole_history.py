"""The whole-history fit: the same posterior as the ``trueskillthroughtime`` package's, fast."""

from __future__ import annotations

import random

import numpy as np
import pytest
import trueskillthroughtime as ttt
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.algorithms import whole_history as wh


def _history(seed: int, players: int, seats: int, matches: int, tie_share: float = 0.0):
    """Random matches of players of random skill; each table listed in finishing order."""
    rng = random.Random(seed)
    skill = [rng.gauss(wh.MU, 4) for _ in range(players)]
    tables, placings = [], []
    for _ in range(matches):
        table = rng.sample(range(players), seats)
        table.sort(key=lambda p: -(skill[p] + rng.gauss(0, wh.BETA)))
        placing = list(range(seats))
        if rng.random() < tie_share:
            placing[1] = placing[0]  # the first two share first place
        tables.append(table)
        placings.append(placing)
    return tables, placings


def _package(players, tables, placings, draw_probability):
    """The package's own posterior: one batch (every match at the same time), no drift."""
    composition = [[[str(p)] for p in table] for table in tables]
    # The package wants higher numbers for better places.
    results = [[float(len(row) - place) for place in row] for row in placings]
    priors = {
        str(p): ttt.Player(ttt.Gaussian(wh.MU, wh.SIGMA), wh.BETA, 0.0) for p in range(players)
    }
    history = ttt.History(
        composition,
        results,
        times=[0] * len(composition),
        priors=priors,
        p_draw=draw_probability,
        gamma=0.0,
    )
    history.convergence(epsilon=1e-6, iterations=12, verbose=False)
    curves = history.learning_curves()
    return [curves[str(p)][-1][1] for p in range(players)]


@pytest.mark.parametrize(
    ("seats", "tie_share"),
    [(2, 0.0), (2, 0.1), (3, 0.0), (4, 0.0), (4, 0.1)],
    ids=["two", "two-ties", "three", "four", "four-ties"],
)
def test_it_finds_the_packages_posterior(seats, tie_share):
    players = 8
    matches = {2: 40, 3: 20, 4: 15}[seats]  # the package takes seconds over bigger tables
    tables, placings = _history(
        seats * 10 + int(tie_share * 10), players, seats, matches, tie_share
    )
    expected = _package(players, tables, placings, 0.1)
    fit = wh.fit_history(
        players,
        tables,
        placings,
        prior_mu=[wh.MU] * players,
        prior_sigma=[wh.SIGMA] * players,
        draw_probability=0.1,
        tolerance=1e-8,
        max_iterations=400,
    )
    assert fit.converged
    mu = np.array([g.mu for g in expected])
    # The package's sweeps settle the differences first and the common level last (slowly:
    # see ``whole_history._level``), so the level is held to a looser tolerance.
    assert np.allclose(fit.mu - fit.mu.mean(), mu - mu.mean(), atol=1e-4)
    assert fit.mu.mean() == pytest.approx(mu.mean(), abs=0.02)
    assert np.allclose(fit.sigma, [g.sigma for g in expected], atol=1e-4)


def test_the_seat_order_does_not_matter():
    """A table may list its seats in any order: only the placings say who was ahead. (The
    package itself must be given tables in finishing order: with three or more seats in
    another order it hands the places' messages to the wrong seats.)"""
    tables, placings = _history(5, 6, 4, 30)
    rng = random.Random(1)
    shuffled_tables, shuffled_placings = [], []
    for table, placing in zip(tables, placings, strict=True):
        seats = list(range(len(table)))
        rng.shuffle(seats)
        shuffled_tables.append([table[s] for s in seats])
        shuffled_placings.append([placing[s] for s in seats])
    options = {"prior_mu": [wh.MU] * 6, "prior_sigma": [wh.SIGMA] * 6, "tolerance": 1e-8}
    one = wh.fit_history(6, tables, placings, **options)
    other = wh.fit_history(6, shuffled_tables, shuffled_placings, **options)
    assert np.allclose(one.mu, other.mu, atol=1e-6)
    assert np.allclose(one.sigma, other.sigma, atol=1e-6)


def test_the_order_of_the_matches_does_not_matter():
    """Unlike the online update, a whole-history fit weighs an early match with what is
    known now: the same matches in another order give the same ratings."""
    tables, placings = _history(6, 6, 2, 50)
    options = {"prior_mu": [wh.MU] * 6, "prior_sigma": [wh.SIGMA] * 6, "tolerance": 1e-8}
    forward = wh.fit_history(6, tables, placings, **options)
    backward = wh.fit_history(6, tables[::-1], placings[::-1], **options)
    assert np.allclose(forward.mu, backward.mu, atol=1e-6)


@pytest.mark.slow
def test_a_warm_start_and_matches_added_later_reach_the_same_fit():
    tables, placings = _history(7, 10, 4, 120)
    options = {"prior_mu": [wh.MU] * 10, "prior_sigma": [wh.SIGMA] * 10}
    cold = wh.fit_history(10, tables, placings, tolerance=1e-8, **options)
    history = wh.History(10, **options)
    for table, placing in zip(tables, placings, strict=True):
        history.add(wh.Results.from_tables([table], [placing]))
        warm = history.fit(tolerance=1e-8)
    assert np.allclose(warm.mu, cold.mu, atol=1e-5)
    started = wh.fit_history(
        10,
        tables,
        placings,
        tolerance=1e-8,
        start_mu=cold.mu + 1,
        start_sigma=cold.sigma,
        **options,
    )
    assert np.allclose(started.mu, cold.mu, atol=1e-5)


def test_a_version_without_matches_keeps_its_prior():
    fit = wh.fit_history(
        3, [[0, 1]] * 4, [[0, 1]] * 4, prior_mu=[25, 25, 31], prior_sigma=[wh.SIGMA] * 3
    )
    assert fit.mu[2] == pytest.approx(31)
    assert fit.sigma[2] == pytest.approx(wh.SIGMA)
    assert fit.mu[0] > 25 > fit.mu[1]


def test_no_matches_is_the_prior():
    fit = wh.fit_results(2, wh.Results.from_tables([], []), prior_mu=[20, 30], prior_sigma=[1, 2])
    assert list(fit.mu) == [20, 30]
    assert list(fit.sigma) == [1, 2]


def test_separate_groups_keep_their_own_level():
    """Two groups that never met: each group's level comes from its own priors."""
    tables = [[0, 1]] * 20 + [[2, 3]] * 20
    placings = [[0, 1]] * 40
    fit = wh.fit_history(
        4, tables, placings, prior_mu=[25, 25, 35, 35], prior_sigma=[wh.SIGMA] * 4, tolerance=1e-8
    )
    assert (fit.mu[0] + fit.mu[1]) / 2 == pytest.approx(25, abs=1e-4)
    assert (fit.mu[2] + fit.mu[3]) / 2 == pytest.approx(35, abs=1e-4)


@settings(max_examples=40, deadline=None)
@given(
    wins=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=30),
    tie=st.booleans(),
)
def test_more_wins_never_rank_lower_and_the_interval_holds_the_rating(wins, tie):
    """Properties: the fit converges to finite numbers, intervals contain their ratings,
    sigma never grows past the prior, and the level stays at the priors' (25)."""
    tables = [[a, b] for a, b in wins if a != b] or [[0, 1]]
    placings = [[0, 0] if tie and k % 3 == 0 else [0, 1] for k in range(len(tables))]
    fit = wh.fit_history(
        5, tables, placings, prior_mu=[25] * 5, prior_sigma=[wh.SIGMA] * 5, tolerance=1e-7
    )
    assert np.all(np.isfinite(fit.mu))
    assert np.all(fit.sigma <= wh.SIGMA + 1e-9)
    low, high = fit.interval(0)
    assert low < fit.mu[0] < high
    assert float(np.mean(fit.mu)) == pytest.approx(25, abs=1e-3)


@pytest.mark.parametrize(
    ("placings", "expected"),
    [
        ([[0, 1], [0, 1]], 0.001),  # no ties: the floor
        ([[0, 0], [0, 1]], 0.5),
        ([[0, 1, 2, 3], [0, 0, 2, 2]], 2 / 6),
    ],
)
def test_the_tie_rate_counts_neighbouring_places(placings, expected):
    tables = [list(range(len(row))) for row in placings]
    assert wh.tie_rate(wh.Results.from_tables(tables, placings)) == pytest.approx(expected)


def test_the_draw_margin_matches_the_package():
    assert wh.draw_margin(0.1) == pytest.approx(
        ttt.compute_margin(0.1, (2 * wh.BETA**2) ** 0.5), rel=1e-6
    )


def test_the_local_tournament_rates_as_the_arena_does():
    """``python -m engine tournament`` shows the same rating as the arena's ladder would for
    the same matches (the same model, prior, noise and tie margin)."""
    from types import SimpleNamespace

    from engine.tournament import LocalTournament, _rate

    tables, placings = _history(11, 4, 4, 12)
    placings[0] = [0, 0, 2, 3]  # a tie, so the margin comes from the matches too
    local = LocalTournament(game="liars", names=["a", "b", "c", "d"])
    results = [
        (table, SimpleNamespace(placings=tuple(placing)))
        for table, placing in zip(tables, placings, strict=True)
    ]
    _rate(local, results)
    fitted = wh.fit_history(
        4,
        tables,
        placings,
        prior_mu=[wh.MU] * 4,
        prior_sigma=[wh.SIGMA] * 4,
        draw_probability=wh.tie_rate(wh.Results.from_tables(tables, placings)),
        tolerance=1e-8,
    )
    assert local.ratings is not None
    shown = np.array(local.ratings)
    assert np.allclose(shown[:, 0] - shown[:, 0].mean(), fitted.mu - fitted.mu.mean(), atol=0.01)
    assert np.allclose(shown[:, 1], fitted.sigma, atol=0.01)
