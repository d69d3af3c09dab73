"""Plackett-Luce with ties (Davidson-Luce): a model of a whole table's placings, for any size.

Bot ``i`` has a strength ``s_i`` (logit scale). A table's placings are read from the top: of
the seats not yet placed, the group ``G`` that shares the next place is drawn with a weight
``delta_|G| * exp(mean of s over G)`` against every other group that could have (every
nonempty subset of the seats left). ``delta_1`` is 1; ``delta_k`` (k >= 2) says how often k
seats tie. Without ties this is Plackett-Luce, and with two seats Bradley-Terry (with
Davidson's tie model) (Turner, van Etten, Firth and Kosmidis 2020, "Modelling rankings in
R: the PlackettLuce package").

``benchmarks/ranking_bound.py`` fits it to the benchmark population's measured results and
takes the fit as the truth its information bound (:mod:`arena.algorithms.design`) is
computed against: every table's Fisher information comes from :func:`information`.

>>> model = fit(2, [[0, 1]] * 30 + [[1, 0]] * 10, [[0, 1]] * 40)
>>> round(float(model.strengths[0] - model.strengths[1]), 3)  # log(30 / 10)
1.099
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np

__all__ = ["Model", "fit", "information", "log_likelihood", "probabilities", "weak_orders"]


@dataclass(frozen=True)
class Model:
    """Strengths (mean 0) and the log tie weights ``log_delta[k]`` of groups of k >= 2 seats
    (absent: such ties never happen)."""

    strengths: np.ndarray
    log_delta: dict[int, float] = field(default_factory=dict)

    def sizes(self) -> tuple[int, ...]:
        """The group sizes that can share a place."""
        return (1, *sorted(self.log_delta))


@cache
def _subsets(remaining: int, sizes: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The groups of ``remaining`` seats that may share the next place: a (groups, remaining)
    matrix of mean weights (1/|G| on G's seats) and each group's size."""
    groups = [
        combo
        for size in sizes
        if size <= remaining
        for combo in itertools.combinations(range(remaining), size)
    ]
    weights = np.zeros((len(groups), remaining))
    for row, combo in enumerate(groups):
        weights[row, list(combo)] = 1.0 / len(combo)
    return weights, np.array([len(combo) for combo in groups])


@cache
def weak_orders(seats: int, sizes: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Every possible result of a table: the seats' groups from first place down."""

    def orders(left: tuple[int, ...]) -> list[tuple[tuple[int, ...], ...]]:
        if not left:
            return [()]
        found = []
        for size in sizes:
            for group in itertools.combinations(left, size):
                rest = tuple(seat for seat in left if seat not in group)
                found += [(group, *tail) for tail in orders(rest)]
        return found

    return tuple(orders(tuple(range(seats))))


def _stages(
    placings: Sequence[Sequence[int]], tables: Sequence[Sequence[int]]
) -> dict[int, tuple[list[list[int]], list[tuple[int, ...]]]]:
    """Each match read place by place: per number of seats left, the bots left (in a fixed
    order) and which of them took the next place."""
    stages: dict[int, tuple[list[list[int]], list[tuple[int, ...]]]] = {}
    for table, placing in zip(tables, placings, strict=True):
        left = list(range(len(table)))
        while len(left) > 1:
            best = min(placing[seat] for seat in left)
            group = tuple(k for k, seat in enumerate(left) if placing[seat] == best)
            bots, chosen = stages.setdefault(len(left), ([], []))
            bots.append([table[seat] for seat in left])
            chosen.append(group)
            left = [seat for seat in left if placing[seat] != best]
    return stages


def _group_index(remaining: int, sizes: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    weights, _ = _subsets(remaining, sizes)
    return {tuple(np.flatnonzero(row)): index for index, row in enumerate(weights)}


def log_likelihood(
    model: Model, tables: Sequence[Sequence[int]], placings: Sequence[Sequence[int]]
) -> float:
    """Log-probability of the results under ``model``."""
    total = 0.0
    sizes = model.sizes()
    delta = np.array([0.0, 0.0, *[model.log_delta.get(k, 0.0) for k in range(2, 64)]])
    for remaining, (bots, chosen) in _stages(placings, tables).items():
        weights, group_size = _subsets(remaining, sizes)
        index = _group_index(remaining, sizes)
        linear = model.strengths[np.array(bots)] @ weights.T + delta[group_size]
        picked = np.array([index[group] for group in chosen])
        top = linear.max(axis=1, keepdims=True)
        normaliser = top[:, 0] + np.log(np.exp(linear - top).sum(axis=1))
        total += float((linear[np.arange(len(picked)), picked] - normaliser).sum())
    return total


def fit(
    bots: int,
    tables: Sequence[Sequence[int]],
    placings: Sequence[Sequence[int]],
    *,
    ridge: float = 1e-3,
    iterations: int = 100,
) -> Model:
    """Maximum-likelihood strengths and tie weights (Newton's method on the concave
    log-likelihood; a faint ridge keeps a bot that never lost finite)."""
    observed = {1}
    for placing in placings:
        counts: dict[int, int] = {}
        for place in placing:
            counts[place] = counts.get(place, 0) + 1
        observed.update(counts.values())
    sizes = tuple(sorted(observed))
    ties = [size for size in sizes if size > 1]
    params = bots + len(ties)
    tie_column = {size: bots + k for k, size in enumerate(ties)}
    stages = _stages(placings, tables)
    theta = np.zeros(params)
    for _ in range(iterations):
        gradient = -ridge * theta
        hessian = -ridge * np.eye(params)
        for remaining, (bot_rows, chosen) in stages.items():
            weights, group_size = _subsets(remaining, sizes)
            index = _group_index(remaining, sizes)
            seats = np.array(bot_rows)
            # Each group's features: mean weights on its bots, a one on its tie column.
            features = np.zeros((len(seats), len(weights), params))
            rows = np.arange(len(seats))[:, None]
            for g, row in enumerate(weights):
                np.add.at(features[:, g, :], (rows, seats), row[None, :])
                if group_size[g] > 1:
                    features[:, g, tie_column[int(group_size[g])]] = 1.0
            linear = features @ theta
            linear -= linear.max(axis=1, keepdims=True)
            p = np.exp(linear)
            p /= p.sum(axis=1, keepdims=True)
            picked = np.array([index[group] for group in chosen])
            mean = np.einsum("kg,kgp->kp", p, features)
            gradient += (features[np.arange(len(seats)), picked] - mean).sum(axis=0)
            second = np.einsum("kg,kgp,kgq->pq", p, features, features)
            hessian -= second - mean.T @ mean
        step = np.linalg.solve(hessian, gradient)
        theta -= step
        if np.max(np.abs(step)) < 1e-9:
            break
    strengths = theta[:bots] - theta[:bots].mean()
    return Model(strengths, {size: float(theta[tie_column[size]]) for size in ties})


def _scores(model: Model, tables: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For tables of one size (rows of bots): every result's probability (tables x results)
    and the gradient of its log-probability by each seat's strength (tables x results x
    seats)."""
    sizes = model.sizes()
    count, seats = tables.shape
    orders = weak_orders(seats, sizes)
    strengths = model.strengths[tables]
    log_p = np.zeros((count, len(orders)))
    score = np.zeros((count, len(orders), seats))
    for o, order in enumerate(orders):
        left = list(range(seats))
        for group in order:
            if len(left) == 1:
                break
            weights, group_size = _subsets(len(left), sizes)
            delta = np.array([model.log_delta.get(int(k), 0.0) for k in group_size])
            linear = strengths[:, left] @ weights.T + delta
            top = linear.max(axis=1, keepdims=True)
            p = np.exp(linear - top)
            total = p.sum(axis=1, keepdims=True)
            chosen = _group_index(len(left), sizes)[tuple(left.index(seat) for seat in group)]
            log_p[:, o] += linear[:, chosen] - top[:, 0] - np.log(total[:, 0])
            score[:, o, left] += weights[chosen] - (p / total) @ weights
            left = [seat for seat in left if seat not in group]
    return np.exp(log_p), score


def probabilities(
    model: Model, table: Sequence[int]
) -> tuple[list[tuple[tuple[int, ...], ...]], np.ndarray]:
    """Every possible result of ``table`` (seats' groups from the top) and its probability."""
    p, _ = _scores(model, np.asarray([table]))
    return list(weak_orders(len(table), model.sizes())), p[0]


def information(model: Model, tables: Sequence[Sequence[int]] | np.ndarray) -> np.ndarray:
    """The Fisher information one match of each of ``tables`` (rows of bots, one size)
    carries about its bots' strengths, tie weights known: per table a seats x seats matrix,
    the sum over every possible result of its probability times its score's outer product."""
    p, score = _scores(model, np.asarray(tables))
    matrices: np.ndarray = np.einsum("to,toi,toj->tij", p, score, score)
    return matrices
