"""Who sits at which table in a round robin, for any table size (pure functions).

Two seats: every pair meets once, seats alternating so each bot has seat 0 as often as it
can. More seats: a **balanced** schedule in which every bot meets every other equally often
and sits in every seat position equally often. The exact way is every group of ``k`` bots,
each played once per seat rotation (``C(n, k) * k`` tables); when that is more than
``max_tables``, rounds of random tables are added greedily, each keeping pair meetings and
seat positions as level as possible, until every bot has played ``target`` tables.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence

__all__ = ["balance_report", "round_robin", "round_robin_tables"]


def round_robin(bots: Sequence[int]) -> list[list[int]]:
    """Every pair once, with seat 0 shared out (circle method order).

    >>> round_robin([1, 2, 3])
    [[1, 2], [3, 1], [2, 3]]
    """
    tables = []
    for index, (a, b) in enumerate(itertools.combinations(bots, 2)):
        tables.append([a, b] if index % 2 == 0 else [b, a])
    return tables


def round_robin_tables(
    bots: Sequence[int], seats: int, *, max_tables: int = 600, seed: int = 0
) -> list[list[int]]:
    """Tables (seat orders of bot ids) for a round robin of ``seats``-player matches."""
    bots = list(bots)
    if seats == 2:
        return round_robin(bots)
    seats = min(seats, len(bots))
    exact = math.comb(len(bots), seats) * seats
    if exact <= max_tables:
        tables: list[list[int]] = []
        for group in itertools.combinations(bots, seats):
            tables.extend(
                [group[(s - shift) % seats] for s in range(seats)] for shift in range(seats)
            )
        return tables
    return _greedy(bots, seats, max_tables, random.Random(seed))


def _greedy(bots: list[int], seats: int, max_tables: int, rng: random.Random) -> list[list[int]]:
    """Rounds of tables, each bot once per round where the count allows, balancing pairs
    and seat positions greedily."""
    per_round = len(bots) // seats
    rounds = max(seats, max_tables // max(per_round, 1))
    rounds -= rounds % seats  # every bot can take every seat equally often
    pairs: Counter[tuple[int, int]] = Counter()
    positions: Counter[tuple[int, int]] = Counter()
    played: Counter[int] = Counter()
    tables: list[list[int]] = []
    for _ in range(rounds):
        order = sorted(bots, key=lambda b: (played[b], rng.random()))
        waiting = order[: per_round * seats]
        while waiting:
            table = [waiting.pop(0)]
            while len(table) < seats:
                best = min(
                    waiting,
                    key=lambda b: (sum(pairs[_pair(b, t)] for t in table), rng.random()),
                )
                waiting.remove(best)
                table.append(best)
            table = _seat(table, positions, rng)
            for a, b in itertools.combinations(table, 2):
                pairs[_pair(a, b)] += 1
            for position, bot in enumerate(table):
                positions[(bot, position)] += 1
                played[bot] += 1
            tables.append(table)
    return tables


def _seat(table: list[int], positions: Counter[tuple[int, int]], rng: random.Random) -> list[int]:
    """The rotation of ``table`` whose bots have sat least in their positions."""
    options = [table[shift:] + table[:shift] for shift in range(len(table))]
    return min(
        options,
        key=lambda order: (sum(positions[(b, p)] for p, b in enumerate(order)), rng.random()),
    )


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def balance_report(tables: Sequence[Sequence[int]]) -> dict[str, int]:
    """Spread of pair meetings and seat positions (0 = perfectly level), for tests and docs."""
    pairs: Counter[tuple[int, int]] = Counter()
    positions: Counter[tuple[int, int]] = Counter()
    bots = {bot for table in tables for bot in table}
    seats = max((len(t) for t in tables), default=0)
    for table in tables:
        for a, b in itertools.combinations(table, 2):
            pairs[_pair(a, b)] += 1
        for position, bot in enumerate(table):
            positions[(bot, position)] += 1
    all_pairs = [pairs[_pair(a, b)] for a, b in itertools.combinations(sorted(bots), 2)]
    all_positions = [positions[(b, p)] for b in bots for p in range(seats)]
    return {
        "pair_spread": max(all_pairs) - min(all_pairs) if all_pairs else 0,
        "seat_spread": max(all_positions) - min(all_positions) if all_positions else 0,
    }
