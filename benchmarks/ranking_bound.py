"""How much fewer matches any pairing policy can need than random pairing: an information bound.

``ranking_convergence.py`` measures the arena's pairing against random pairing on a synthetic
population (16 bots of graded strength). This script asks what the best possible pairing
could reach on the same population, so a measured ratio can be read against its ceiling:

1. it measures every pair's win rate (``--matches`` per pair, seats alternated), with the
   same players and engine as ``ranking_convergence.py``;
2. it fits Bradley-Terry strengths to those rates (logit scale), taken as the truth;
3. for a *design* (the share of matches each pair gets), the Fisher information of N matches
   gives the variance of every estimated difference ``s_i - s_j`` with an exact estimator,
   hence the expected number of pairs ranked the wrong way round; the matches a design needs
   are the fewest with at most 6 expected discordant pairs (Kendall tau 0.9 on average for 16
   bots: the goal of ``ranking_convergence.py``);
4. it compares random pairing (every pair alike) with the best design found, searched over the
   share given to each distance in the true order, knowing the true order (an oracle).

An adaptive policy does not know the true order, so it can approach this best design but
not beat it by much; duplicate deals are the other lever (``duplicate_variance_ratio`` in
``ranking_convergence.py``). Prints::

    ranking_bound_random: N matches       (random pairing, exact estimator)
    ranking_bound_best: N matches         (best design for an oracle, exact estimator)
    ranking_bound_ratio: R                (random / best: the most pairing can gain)

Usage: ``python benchmarks/ranking_bound.py [--game lie21] [--matches 60]`` (two-seat games).
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ranking_convergence import POPULATION, play, seats_for

#: At most this many discordant pairs expected: Kendall tau >= 0.9 for 16 bots.
DISCORDANT_GOAL = round((1 - 0.9) / 2 * POPULATION * (POPULATION - 1) / 2)
PAIRS = list(itertools.combinations(range(POPULATION), 2))


def win_rates(game: str, matches: int) -> dict[tuple[int, int], float]:
    """Share of points bot i took against bot j (i < j) over ``matches`` matches."""
    rates = {}
    for i, j in PAIRS:
        points = 0.0
        for number in range(matches):
            table = (i, j) if number % 2 == 0 else (j, i)
            placings = play(game, table, 1, 20_000 + number)
            mine, theirs = placings[table.index(i)], placings[table.index(j)]
            points += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
        rates[i, j] = points / matches
    return rates


def fit_strengths(rates: dict[tuple[int, int], float], matches: int) -> list[float]:
    """Bradley-Terry strengths (logit scale, mean 0) by Hunter's MM algorithm, with half a
    win and half a loss added to every pair so that no strength runs off to infinity."""
    wins = [0.0] * POPULATION
    games = dict.fromkeys(PAIRS, matches + 1.0)
    for (i, j), rate in rates.items():
        wins[i] += rate * matches + 0.5
        wins[j] += (1 - rate) * matches + 0.5
    weight = [1.0] * POPULATION
    for _ in range(500):
        new = []
        for k in range(POPULATION):
            denominator = sum(
                n / (weight[i] + weight[j]) for (i, j), n in games.items() if k in (i, j)
            )
            new.append(wins[k] / denominator)
        weight = new
    logs = [math.log(w) for w in weight]
    mean = sum(logs) / len(logs)
    return [value - mean for value in logs]


def _invert(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan inverse of a small positive definite matrix."""
    size = len(matrix)
    rows = [row[:] + [1.0 if i == j else 0.0 for j in range(size)] for i, row in enumerate(matrix)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(rows[r][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        scale = rows[column][column]
        rows[column] = [value / scale for value in rows[column]]
        for r in range(size):
            if r != column and rows[r][column]:
                factor = rows[r][column]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[column], strict=True)]
    return [row[size:] for row in rows]


def difference_variances(
    strengths: Sequence[float], design: dict[tuple[int, int], float]
) -> dict[tuple[int, int], float] | None:
    """Variance of every estimated difference ``s_i - s_j`` after one match spread over the
    pairs by ``design`` (divide by N for N matches): the inverse of the Fisher information,
    grounded at bot 0 since only differences can be estimated. None if the design leaves a
    bot unconnected."""
    info = [[0.0] * (POPULATION - 1) for _ in range(POPULATION - 1)]
    for (i, j), share in design.items():
        p = 1 / (1 + math.exp(strengths[j] - strengths[i]))
        w = share * p * (1 - p)
        for a, b, sign in ((i, i, 1), (j, j, 1), (i, j, -1), (j, i, -1)):
            if a and b:
                info[a - 1][b - 1] += sign * w
    try:
        inverse = _invert(info)
    except ZeroDivisionError:
        return None

    def g(a: int, b: int) -> float:
        return inverse[a - 1][b - 1] if a and b else 0.0

    return {(i, j): g(i, i) + g(j, j) - 2 * g(i, j) for i, j in PAIRS}


def matches_needed(strengths: Sequence[float], design: dict[tuple[int, int], float]) -> float:
    """Fewest matches after which at most DISCORDANT_GOAL pairs are expected misordered, when
    matches are spread over pairs by ``design`` and strengths are estimated exactly (inf if
    no number of matches gets there)."""
    variances = difference_variances(strengths, design)
    if variances is None or min(variances.values()) <= 0:
        return math.inf
    spreads = [(abs(strengths[i] - strengths[j]), variances[i, j]) for i, j in PAIRS]

    def discordant(n: float) -> float:
        return sum(0.5 * math.erfc(gap / math.sqrt(2 * v / n)) for gap, v in spreads)

    low, high = 1.0, 1e7
    if discordant(high) > DISCORDANT_GOAL:
        return math.inf
    while high - low > 0.5:
        middle = (low + high) / 2
        low, high = (low, middle) if discordant(middle) <= DISCORDANT_GOAL else (middle, high)
    return high


def by_distance(order: Sequence[int], shares: Sequence[float]) -> dict[tuple[int, int], float]:
    """A design giving the pairs at distance d in ``order`` (the true order) ``shares[d - 1]``."""
    rank = {bot: position for position, bot in enumerate(order)}
    design = {(i, j): shares[abs(rank[i] - rank[j]) - 1] for i, j in PAIRS}
    total = sum(design.values())
    return {pair: share / total for pair, share in design.items() if share > 0}


def best_design(strengths: Sequence[float]) -> float:
    """Fewest matches found by coordinate search over the share of each distance."""
    order = sorted(range(POPULATION), key=lambda bot: -strengths[bot])
    shares = [1.0] * (POPULATION - 1)
    best = matches_needed(strengths, by_distance(order, shares))
    for step in (4.0, 2.0, 1.4, 1.15):
        improved = True
        while improved:
            improved = False
            for distance in range(POPULATION - 1):
                for factor in (step, 1 / step, 0.0):
                    trial = shares[:]
                    trial[distance] = trial[distance] * factor if factor else 0.0
                    needed = matches_needed(strengths, by_distance(order, trial))
                    if needed < best - 0.5:
                        best, shares, improved = needed, trial, True
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="lie21")
    parser.add_argument("--matches", type=int, default=60, help="matches per pair (default 60)")
    args = parser.parse_args()
    if seats_for(args.game) != 2:
        sys.exit("the bound is for two-seat games (pairs of bots)")
    strengths = fit_strengths(win_rates(args.game, args.matches), args.matches)
    suffix = "" if args.game == "lie21" else f"_{args.game}"
    uniform = matches_needed(strengths, {pair: 1 / len(PAIRS) for pair in PAIRS})
    best = best_design(strengths)
    print(f"ranking_bound_random{suffix}: {uniform:.0f} matches")
    print(f"ranking_bound_best{suffix}: {best:.0f} matches")
    print(f"ranking_bound_ratio{suffix}: {uniform / best:.2f}")


if __name__ == "__main__":
    main()
