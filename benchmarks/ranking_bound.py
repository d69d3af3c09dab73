"""How few matches any pairing could rank the benchmark's field in: an information bound.

``ranking_convergence.py`` measures how many matches the arena needs to rank a synthetic
field (16 bots of graded strength, its ``POPULATION``) with Kendall tau >= 0.9. This script
asks how many the best possible design could need, for each hosted game, on the same field
and at the game's ladder table size, so the arena's figure can be read against it:

1. it measures the field: two-seat games play every pair ``--matches`` times (seats
   alternated); bigger tables play ``--rounds`` rounds, each dealing the 16 bots onto
   tables of the ladder's size at random. Same players and engine as
   ``ranking_convergence.py``;
2. it fits Plackett-Luce strengths with Davidson's ties (``arena.algorithms.luce``; with
   two seats and no ties, Bradley-Terry) to those results, taken as the truth;
3. for a *design* (the share of the matches each possible table gets), the Fisher
   information of N matches gives the variance of every estimated difference
   ``s_i - s_j`` for an exact estimator, hence the expected number of pairs ranked the wrong
   way round; the matches a design needs are the fewest with at most 6 expected
   (``arena.algorithms.design``: Kendall tau 0.9 on average for 16 bots);
4. it compares random tables (every table alike) with the best design found over the share
   of every possible table, knowing the true order (an oracle): exponentiated-gradient
   descents from random tables and from designs of tables close in the true order.

An adaptive policy does not know the true order, so it can approach the best design but not
beat it by much. Prints, for each game (Lie 21 without a suffix)::

    ranking_bound_random_<game>: N matches   (random tables, exact estimator)
    ranking_bound_best_<game>: N matches     (best design for an oracle, exact estimator)
    ranking_bound_gain_<game>: R             (random / best: the most pairing can gain)

Measured on 2026-12-07 with the defaults (``ranking_convergence.py`` computing it):
``ranking_bound_best`` 314 matches for Lie 21, 253 for Liars, 128 for Tieng Len and 818 for
Twenty One (the field is measured with fixed seeds: the same code gives the same figures).

Usage: ``python benchmarks/ranking_bound.py [--game lie21] [--matches 60] [--rounds 1500]``
(every hosted game without ``--game``).
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ranking_convergence import GAMES, POPULATION, TAU_GOAL, play, seats_for, suffix

from arena.algorithms import design, luce


@dataclass(frozen=True)
class Bound:
    game: str
    model: luce.Model
    random: float
    best: float
    design: design.Design


def measure(game: str, matches: int, rounds: int) -> tuple[list[list[int]], list[list[int]]]:
    """The field's results: (tables, placings), as in ``ranking_convergence.play``."""
    seats = seats_for(game)
    tables, placings = [], []
    if seats == 2:
        for i, j in itertools.combinations(range(POPULATION), 2):
            for number in range(matches):
                table = [i, j] if number % 2 == 0 else [j, i]
                tables.append(table)
                placings.append(play(game, table, 1, 20_000 + number))
        return tables, placings
    rng = random.Random(3)
    number = 0
    for _ in range(rounds):
        bots = list(range(POPULATION))
        rng.shuffle(bots)
        for start in range(0, POPULATION - seats + 1, seats):
            table = bots[start : start + seats]
            tables.append(table)
            placings.append(play(game, table, 1, 30_000 + number))
            number += 1
    return tables, placings


def bound(game: str, matches: int = 60, rounds: int = 1500) -> Bound:
    """The game's field measured and fitted, and the matches random and best designs need."""
    tables, placings = measure(game, matches, rounds)
    model = luce.fit(POPULATION, tables, placings)
    candidates = np.array(list(itertools.combinations(range(POPULATION), seats_for(game))))
    informations = luce.information(model, candidates)
    goal = design.discordance_goal(POPULATION, TAU_GOAL)
    uniform = design.uniform(candidates)
    variances = design.difference_variances(POPULATION, uniform, informations)
    random_needed = design.matches_needed(model.strengths, variances, goal)
    best, found = design.best_design(model.strengths, candidates, informations, goal)
    return Bound(game, model, random_needed, best, found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=GAMES, help="one game (default: every hosted game)")
    parser.add_argument("--matches", type=int, default=60, help="per pair, two seats (60)")
    parser.add_argument("--rounds", type=int, default=1500, help="rounds, bigger tables (1500)")
    parser.add_argument("--strengths", action="store_true", help="print the fitted field too")
    args = parser.parse_args()
    for game in [args.game] if args.game else GAMES:
        found = bound(game, args.matches, args.rounds)
        end = suffix(game)
        if args.strengths:
            print(f"# {game} strengths: {np.round(found.model.strengths, 3).tolist()}")
            print(f"# {game} log tie weights: {found.model.log_delta}")
        print(f"ranking_bound_random{end}: {found.random:.0f} matches", flush=True)
        print(f"ranking_bound_best{end}: {found.best:.0f} matches", flush=True)
        print(f"ranking_bound_gain{end}: {found.random / found.best:.2f}", flush=True)


if __name__ == "__main__":
    main()
