"""Tieng Len bot strength: many four-seat matches between the built-in bots, one table per line-up.

    python benchmarks/tieng_len_strength.py [--matches 400] [--table mixed|duel|baseline|all]

Tables (every match is 8 games, the default match; seats rotate from match to match so no
bot keeps a seat, and match ``i`` of a table has a seed fixed by the table and ``i``):

* ``mixed``: search, greedy, starter and random at one table, seated in each of the 24
  orders in turn;
* ``duel``: two search seats against two greedy seats, alternating round the table
  (S G S G, then G S G S);
* ``baseline``: two greedy seats against two random seats, the same way.

For each bot it prints the match first places (a shared first place counts for each), its
mean match placing (1 = first), its mean game points per game (3/2/1/0) and its share of
games won. ``--json FILE`` writes the same numbers.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import InProcessPlayer, builtin_bot, derive_seed, play_match

TABLES = {
    "mixed": ["search", "greedy", "starter", "random"],
    "duel": ["search", "greedy", "search", "greedy"],
    "baseline": ["greedy", "random", "greedy", "random"],
}


def seating(table: str, index: int) -> list[str]:
    bots = TABLES[table]
    if table == "mixed":
        orders = list(itertools.permutations(bots))
        return list(orders[index % len(orders)])
    return bots if index % 2 == 0 else bots[1:] + bots[:1]


def run_table(table: str, matches: int, *, progress: bool = True) -> dict[str, dict[str, Any]]:
    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    started = time.perf_counter()
    for index in range(matches):
        names = seating(table, index)
        players = [
            InProcessPlayer(f"{name}{seat}", builtin_bot("tieng_len", name))
            for seat, name in enumerate(names)
        ]
        result = play_match("tieng_len", players, seed=derive_seed(2026, table, index))
        if result.faults:
            raise RuntimeError(f"match {index} of {table}: {result.faults}")
        for seat, name in enumerate(names):
            row = sums[name]
            row["seats"] += 1
            row["match_firsts"] += result.placings[seat] == 0
            row["placing"] += result.placings[seat] + 1
            for game in result.replay["games"]:
                row["games"] += 1
                row["points"] += game["awarded"][seat]
                row["game_firsts"] += game["placings"][seat] == 0
        if progress and (index + 1) % 20 == 0:
            took = time.perf_counter() - started
            print(f"  {table}: {index + 1}/{matches} matches, {took:.0f}s", file=sys.stderr)
    return {
        name: {
            "seats": int(row["seats"]),
            "match_firsts": int(row["match_firsts"]),
            "mean_placing": round(row["placing"] / row["seats"], 3),
            "points_per_game": round(row["points"] / row["games"], 3),
            "game_win_rate": round(row["game_firsts"] / row["games"], 3),
        }
        for name, row in sums.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--table", choices=[*TABLES, "all"], default="all")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    tables = list(TABLES) if args.table == "all" else [args.table]
    report = {}
    for table in tables:
        began = time.perf_counter()
        rows = run_table(table, args.matches)
        report[table] = rows
        print(f"\n{table}: {args.matches} matches of 8 games ({time.perf_counter() - began:.0f}s)")
        header = ("bot", "seats", "match 1sts", "mean place", "pts/game", "games won")
        print("{:8} {:>5} {:>10} {:>10} {:>8} {:>9}".format(*header))
        for name, row in sorted(rows.items(), key=lambda item: item[1]["mean_placing"]):
            print(
                f"{name:8} {row['seats']:5d} {row['match_firsts']:10d} {row['mean_placing']:10.2f} "
                f"{row['points_per_game']:8.2f} {row['game_win_rate']:9.1%}"
            )
        sys.stdout.flush()
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
