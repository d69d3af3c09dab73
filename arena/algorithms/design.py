"""How few matches can rank a field: the information bound, for tables of any size.

Given the true strengths of a field of bots and the Fisher information one match of each
possible table carries (:func:`arena.algorithms.luce.information`), a **design** says which
share of the matches each table gets. After N matches spread that way, an exact (efficient)
estimator's strength differences have variances ``v_ij / N`` (the inverse of the summed
information; only differences can be estimated), so pair (i, j) comes out the wrong way round
with probability ``Phi(-|s_i - s_j| / sqrt(v_ij / N))``. The matches a design needs are the
fewest after which at most ``goal`` pairs are expected the wrong way round (Kendall tau 0.9
for 16 bots: 6 of 120 pairs).

:func:`best_design` searches the designs for the fewest matches, knowing the true order (an
oracle): exponentiated gradient over the share of every table, from several starts. No
pairing policy that learns the order as it goes can do much better, so the fewest matches it
finds is the bound the arena's ranking is measured against (``benchmarks/ranking_bound.py``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = [
    "Design",
    "best_design",
    "difference_variances",
    "discordance_goal",
    "expected_discordant",
    "matches_needed",
    "uniform",
]

_erfc = np.vectorize(math.erfc, otypes=[float])


def discordance_goal(bots: int, tau: float = 0.9) -> int:
    """At most this many pairs the wrong way round is Kendall tau >= ``tau``."""
    return round((1 - tau) / 2 * bots * (bots - 1) / 2)


@dataclass(frozen=True)
class Design:
    """A share of the matches for each table (rows of bots, one table size)."""

    tables: np.ndarray  # (tables, seats)
    shares: np.ndarray  # (tables,), summing to 1


def uniform(tables: np.ndarray) -> Design:
    """Random pairing: every table alike."""
    return Design(tables, np.full(len(tables), 1.0 / len(tables)))


def _information_matrix(
    bots: int, tables: np.ndarray, informations: np.ndarray, shares: np.ndarray
) -> np.ndarray:
    matrix = np.zeros((bots, bots))
    rows, cols = tables[:, :, None], tables[:, None, :]
    np.add.at(
        matrix,
        (np.broadcast_to(rows, informations.shape), np.broadcast_to(cols, informations.shape)),
        shares[:, None, None] * informations,
    )
    return matrix


def _covariance(matrix: np.ndarray) -> np.ndarray | None:
    """The inverse of the information on strength differences (the all-ones direction,
    which no result can tell, is filled in so the matrix inverts; contrasts do not see it).
    None when some bot is not connected to the others."""
    bots = len(matrix)
    filled = matrix + np.ones((bots, bots)) / bots
    if np.linalg.cond(filled) > 1e12:
        return None
    return np.linalg.inv(filled)


def difference_variances(bots: int, design: Design, informations: np.ndarray) -> np.ndarray | None:
    """``v[i, j]``: the variance of the estimated ``s_i - s_j`` after one match spread by
    ``design`` (divide by N for N matches). None if the design leaves a bot unconnected."""
    covariance = _covariance(_information_matrix(bots, design.tables, informations, design.shares))
    if covariance is None:
        return None
    diagonal = np.diag(covariance)
    variances: np.ndarray = diagonal[:, None] + diagonal[None, :] - 2 * covariance
    return variances


def _pairs(bots: int) -> tuple[np.ndarray, np.ndarray]:
    first, second = zip(*itertools.combinations(range(bots), 2), strict=True)
    return np.array(first), np.array(second)


def expected_discordant(strengths: np.ndarray, variances: np.ndarray, matches: float) -> float:
    """Expected pairs ordered the wrong way round after ``matches`` matches."""
    i, j = _pairs(len(strengths))
    gaps = np.abs(strengths[i] - strengths[j])
    return float(np.sum(0.5 * _erfc(gaps / np.sqrt(2 * variances[i, j] / matches))))


def matches_needed(strengths: np.ndarray, variances: np.ndarray | None, goal: float) -> float:
    """Fewest matches with at most ``goal`` pairs expected the wrong way round (inf if no
    number of matches gets there)."""
    if variances is None:
        return math.inf
    low, high = 1.0, 1e8
    if expected_discordant(strengths, variances, high) > goal:
        return math.inf
    while high / low > 1.0005:
        middle = math.sqrt(low * high)
        if expected_discordant(strengths, variances, middle) <= goal:
            high = middle
        else:
            low = middle
    return high


def _gradient(
    strengths: np.ndarray, design: Design, informations: np.ndarray, matches: float
) -> np.ndarray | None:
    """d(expected discordant pairs)/d(share of each table), at ``matches`` matches."""
    bots = len(strengths)
    covariance = _covariance(_information_matrix(bots, design.tables, informations, design.shares))
    if covariance is None:
        return None
    diagonal = np.diag(covariance)
    variances = diagonal[:, None] + diagonal[None, :] - 2 * covariance
    gaps = np.abs(strengths[:, None] - strengths[None, :])
    np.fill_diagonal(variances, 1.0)
    x = gaps * np.sqrt(matches / (2 * variances))
    # d/dv of 0.5 erfc(gap sqrt(N / 2v)), for each pair (each counted once: i < j).
    g = np.exp(-x * x) * x / (2 * variances * math.sqrt(math.pi))
    g = np.triu(g, 1)
    g = g + g.T
    laplacian = np.diag(g.sum(axis=1)) - g
    h = covariance @ laplacian @ covariance
    t = design.tables
    # dv_ij/dw_T = -u_ij' I_T u_ij: summed with the weights g, the trace of H[T, T] I_T.
    gradient: np.ndarray = -np.einsum("tab,tab->t", h[t[:, :, None], t[:, None, :]], informations)
    return gradient


def _descend(
    strengths: np.ndarray,
    design: Design,
    informations: np.ndarray,
    goal: float,
    steps: int,
) -> tuple[float, Design]:
    bots = len(strengths)
    best_design = design
    best = matches_needed(strengths, difference_variances(bots, design, informations), goal)
    shares = design.shares.copy()
    rate = 1.0
    current = best
    for _ in range(steps):
        if not math.isfinite(current):
            break
        gradient = _gradient(strengths, Design(design.tables, shares), informations, current)
        if gradient is None:
            break
        scale = np.max(np.abs(gradient)) or 1.0
        trial = shares * np.exp(-rate * gradient / scale)
        trial = np.maximum(trial / trial.sum(), 1e-12)
        trial /= trial.sum()
        candidate = Design(design.tables, trial)
        needed = matches_needed(
            strengths, difference_variances(bots, candidate, informations), goal
        )
        if needed < current:
            shares, current = trial, needed
            rate = min(rate * 1.2, 4.0)
            if needed < best:
                best, best_design = needed, candidate
        else:
            rate *= 0.5
            if rate < 1e-4:
                break
    return best, best_design


def best_design(
    strengths: Sequence[float] | np.ndarray,
    tables: np.ndarray,
    informations: np.ndarray,
    goal: float,
    *,
    steps: int = 400,
) -> tuple[float, Design]:
    """The fewest matches found, and the design that needs them, over the shares of
    ``tables`` (each with its information matrix): descents from random pairing and from
    designs that favour tables of bots close in the true order (the oracle's knowledge)."""
    strengths = np.asarray(strengths, dtype=float)
    rank = np.empty(len(strengths), dtype=int)
    rank[np.argsort(-strengths)] = np.arange(len(strengths))
    spread = rank[tables].max(axis=1) - rank[tables].min(axis=1)
    starts = [uniform(tables)]
    for width in (0.5, 1.0, 2.0, 4.0):
        shares = np.exp(-(spread - spread.min()) / width)
        starts.append(Design(tables, shares / shares.sum()))
    found = [_descend(strengths, start, informations, goal, steps) for start in starts]
    return min(found, key=lambda pair: pair[0])
