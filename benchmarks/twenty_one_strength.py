"""Twenty One: 400-match results between the built-in bots, and the exact bot's decision times.

    python benchmarks/twenty_one_strength.py [--matches 400]

Each pairing plays the same match seeds, the bots swapping seats every match (every match is
already four games in duplicate pairs). Prints one table row per pairing: matches won by
each side and drawn, games won by each side, then the exact bot's CPU time per decision
(median, 99th percentile, worst) over every decision it made.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import InProcessPlayer, builtin_bot, derive_seed, play_match

GAME = "twenty_one"
PAIRINGS = [("basic", "random"), ("exact", "random"), ("exact", "basic")]


class TimedPlayer(InProcessPlayer):
    """An in-process player that keeps the CPU time of each of its decisions."""

    def __init__(self, name: str, path: Path, times: list[float]) -> None:
        super().__init__(name, path)
        self.times = times

    def act(self, observation):
        began = time.thread_time()
        action = super().act(observation)
        self.times.append(time.thread_time() - began)
        return action


def pairing(a: str, b: str, matches: int, times: list[float]) -> dict[str, int]:
    tally = {"a": 0, "b": 0, "draw": 0, "games_a": 0, "games_b": 0}
    for i in range(matches):
        order = [("a", a), ("b", b)] if i % 2 == 0 else [("b", b), ("a", a)]
        players = [
            TimedPlayer(label, builtin_bot(GAME, bot), times)
            if bot == "exact"
            else InProcessPlayer(label, builtin_bot(GAME, bot))
            for label, bot in order
        ]
        result = play_match(
            GAME, players, seed=derive_seed(2026, "strength", i), record_timing=False
        )
        assert not result.faults, result.faults
        labels = [label for label, _ in order]
        winner = result.winner
        tally["draw" if winner is None else labels[winner]] += 1
        for seat, wins in enumerate(result.totals["game_wins"]):
            tally["games_" + labels[seat]] += wins
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=400)
    args = parser.parse_args()
    times: list[float] = []
    print(f"| pairing (A vs B) | A wins | B wins | drawn | games A-B | ({args.matches} matches) |")
    print("|---|---|---|---|---|---|")
    for a, b in PAIRINGS:
        started = time.perf_counter()
        t = pairing(a, b, args.matches, times)
        took = time.perf_counter() - started
        print(
            f"| {a} vs {b} | {t['a']} | {t['b']} | {t['draw']} | {t['games_a']}-{t['games_b']} "
            f"| {took:.0f} s |",
            flush=True,
        )
    times.sort()
    print(
        f"exact decisions: {len(times)}, CPU ms median {1000 * statistics.median(times):.2f}, "
        f"p99 {1000 * times[int(len(times) * 0.99)]:.1f}, max {1000 * times[-1]:.1f}"
    )


if __name__ == "__main__":
    main()
