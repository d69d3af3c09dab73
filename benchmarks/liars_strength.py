"""Liars bot strength: 400 games per table between the built-in bots, at 2, 3 and 5 seats.

Prints one ``name: value unit`` line per figure, e.g.

    liars_3_bayes+2honest_bayes_wins: 0.880 share    bayes placed first in 88% of the games
    liars_3_bayes+2honest_bayes_points: 1.880 points  its mean placing points (seats - 1 - rank)

Seats rotate from game to game (game i puts the table's bots i places round), every game has
its own fixed seed, so the figures replay exactly. Usage:

    python benchmarks/liars_strength.py [games]    # 400 by default
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import InProcessPlayer, builtin_bot, derive_seed, play_match

TABLES = [
    ["bayes", "honest"],
    ["bayes", "random"],
    ["honest", "random"],
    ["bayes", "honest", "honest"],
    ["bayes", "random", "random"],
    ["honest", "random", "random"],
    ["bayes", "honest", "random"],
    ["bayes", "honest", "honest", "honest", "honest"],
    ["bayes", "random", "random", "random", "random"],
    ["honest", "random", "random", "random", "random"],
    ["bayes", "honest", "random", "honest", "random"],
]


def play_table(bots: list[str], games: int) -> dict[str, tuple[float, float]]:
    """Per bot name: (share of games placed first, mean placing points per seat it held)."""
    seats = len(bots)
    wins: Counter[str] = Counter()
    points: Counter[str] = Counter()
    for i in range(games):
        order = [bots[(k + i) % seats] for k in range(seats)]
        players = [InProcessPlayer(f"{b}{k}", builtin_bot("liars", b)) for k, b in enumerate(order)]
        result = play_match("liars", players, seed=derive_seed(2026, "liars", seats, i))
        if result.faults:
            raise SystemExit(f"a built-in bot faulted: {result.faults[0].detail}")
        for seat, rank in enumerate(result.placings):
            wins[order[seat]] += rank == 0
            points[order[seat]] += seats - 1 - rank
    return {
        name: (wins[name] / games / bots.count(name), points[name] / games / bots.count(name))
        for name in dict.fromkeys(bots)
    }


def label(bots: list[str]) -> str:
    counts = Counter(bots)
    return "+".join(f"{n if n > 1 else ''}{name}" for name, n in counts.items())


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    for bots in TABLES:
        started = time.perf_counter()
        figures = play_table(bots, games)
        tag = f"liars_{len(bots)}_{label(bots)}"
        for name, (win, points) in figures.items():
            print(f"{tag}_{name}_wins: {win:.3f} share")
            print(f"{tag}_{name}_points: {points:.3f} points")
        print(f"{tag}_time: {time.perf_counter() - started:.1f} s", flush=True)


if __name__ == "__main__":
    main()
