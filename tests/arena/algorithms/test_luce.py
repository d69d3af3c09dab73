"""Plackett-Luce with ties: probabilities, information and the fit, on tables of any size."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.algorithms import luce


@pytest.mark.parametrize(
    ("seats", "sizes", "count"),
    [(2, (1,), 2), (2, (1, 2), 3), (3, (1,), 6), (4, (1,), 24), (4, (1, 2, 3, 4), 75)],
)
def test_every_result_of_a_table_is_listed_once(seats, sizes, count):
    """Orderings, and with ties the ordered set partitions (Fubini numbers: 3, 13, 75)."""
    orders = luce.weak_orders(seats, sizes)
    assert len(orders) == len(set(orders)) == count


def test_two_seats_is_bradley_terry_and_davidson():
    model = luce.Model(np.array([0.5, 0.0]), {2: np.log(0.4)})
    orders, p = luce.probabilities(model, [0, 1])
    by_order = dict(zip(orders, p, strict=True))
    a, b, nu = np.exp(0.5), 1.0, 0.4
    total = a + b + nu * np.sqrt(a * b)
    assert by_order[((0,), (1,))] == pytest.approx(a / total)
    assert by_order[((0, 1),)] == pytest.approx(nu * np.sqrt(a * b) / total)


def test_bradley_terry_information_is_p_times_one_minus_p():
    model = luce.Model(np.array([0.5, 0.0]))
    p = 1 / (1 + np.exp(-0.5))
    information = luce.information(model, [[0, 1]])[0]
    assert information == pytest.approx(np.array([[1, -1], [-1, 1]]) * p * (1 - p))


@settings(max_examples=30, deadline=None)
@given(
    strengths=st.lists(st.floats(-2, 2), min_size=4, max_size=4),
    tie=st.floats(-3, 0),
)
def test_probabilities_sum_to_one_and_information_sees_no_common_shift(strengths, tie):
    model = luce.Model(np.array(strengths), {2: tie})
    _, p = luce.probabilities(model, [0, 1, 2, 3])
    assert p.sum() == pytest.approx(1)
    information = luce.information(model, [[0, 1, 2, 3]])[0]
    assert information == pytest.approx(information.T)
    assert information.sum(axis=1) == pytest.approx(np.zeros(4), abs=1e-9)
    assert np.all(np.linalg.eigvalsh(information) > -1e-9)


def test_the_fit_finds_the_strengths_it_was_given():
    model = luce.Model(np.array([0.4, -0.1, -0.4, 0.1]), {2: -1.0})
    rng = np.random.default_rng(0)
    orders, _ = luce.probabilities(model, [0, 1, 2, 3])
    tables, placings = [], []
    by_table = {}  # 24 seat orders: each one's probabilities computed once (6 ms a call)
    for _ in range(4000):
        table = list(rng.permutation(4))
        key = tuple(table)
        if key not in by_table:
            by_table[key] = luce.probabilities(model, table)[1]
        result = orders[rng.choice(len(orders), p=by_table[key])]
        placing = [0] * 4
        for place, group in enumerate(result):
            for seat in group:
                placing[seat] = place
        tables.append(table)
        placings.append(placing)
    fitted = luce.fit(4, tables, placings)
    assert fitted.strengths == pytest.approx(model.strengths, abs=0.08)
    assert fitted.log_delta[2] == pytest.approx(-1.0, abs=0.15)
    assert luce.log_likelihood(fitted, tables, placings) >= luce.log_likelihood(
        model, tables, placings
    )


def test_pairs_of_every_kind_fit_as_counted():
    """30 wins against 10: the difference is log 3; both directions of every seat order."""
    tables = [[0, 1]] * 30 + [[1, 0]] * 10
    placings = [[0, 1]] * 40
    assert float(np.diff(luce.fit(2, tables, placings).strengths)[0]) == pytest.approx(
        -np.log(3), abs=1e-3
    )
    assert list(itertools.chain(*luce.weak_orders(2, (1,)))) == [(0,), (1,), (1,), (0,)]
