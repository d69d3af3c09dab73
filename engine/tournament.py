"""A local tournament, as the arena runs one (``python -m engine tournament a.py b.py c.py``).

Every table of the game's size is played (two seats: every pair; more: every group of bots,
once per seat rotation, so everyone meets everyone and sits in every seat), each ``matches``
times with fresh seeds. The result is a standing by points (one per seat placed ahead of,
half per seat level, as in the arena), a crosstable of each pair's score, and TrueSkill
ratings when the ``trueskill`` package is installed.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.match import MatchResult
from engine.registry import get_game
from engine.runner import run_table

__all__ = ["LocalTournament", "tables_for", "tournament_run"]


def tables_for(bots: int, seats: int) -> list[list[int]]:
    """Seat orders (indexes of bots) of a round robin at tables of ``seats``.

    >>> tables_for(3, 2)
    [[0, 1], [2, 0], [1, 2]]
    >>> len(tables_for(4, 3)), tables_for(3, 3)[:2]
    (12, [[0, 1, 2], [2, 0, 1]])
    """
    if seats == 2:
        return [
            [a, b] if index % 2 == 0 else [b, a]
            for index, (a, b) in enumerate(itertools.combinations(range(bots), 2))
        ]
    tables = []
    for group in itertools.combinations(range(bots), seats):
        for shift in range(seats):
            tables.append([group[(s - shift) % seats] for s in range(seats)])
    return tables


@dataclass
class LocalTournament:
    game: str
    names: list[str]
    matches: int = 0
    points: list[float] = field(default_factory=list)
    first_places: list[int] = field(default_factory=list)
    placing_sum: list[int] = field(default_factory=list)
    played: list[int] = field(default_factory=list)
    faults: list[int] = field(default_factory=list)
    # cross[i][j]: i's score against j (1 per match ahead, 1/2 level) and meetings
    cross: list[list[list[float]]] = field(default_factory=list)
    ratings: list[tuple[float, float]] | None = None

    def __post_init__(self) -> None:
        n = len(self.names)
        self.points = [0.0] * n
        self.first_places = [0] * n
        self.placing_sum = [0] * n
        self.played = [0] * n
        self.faults = [0] * n
        self.cross = [[[0.0, 0] for _ in range(n)] for _ in range(n)]

    def add(self, table: Sequence[int], result: MatchResult) -> None:
        self.matches += 1
        placings = result.placings
        for seat, bot in enumerate(table):
            mine = placings[seat]
            self.played[bot] += 1
            self.placing_sum[bot] += mine
            self.first_places[bot] += mine == 0
            for other_seat, other in enumerate(table):
                if other_seat == seat:
                    continue
                theirs = placings[other_seat]
                score = 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
                self.points[bot] += score
                self.cross[bot][other][0] += score
                self.cross[bot][other][1] += 1
        for fault in result.faults:
            self.faults[table[fault.seat]] += 1

    def standing(self) -> list[int]:
        """Bot indexes, best first: points, then first places, then mean placing."""
        return sorted(
            range(len(self.names)),
            key=lambda b: (
                -self.points[b],
                -self.first_places[b],
                self.placing_sum[b] / max(self.played[b], 1),
            ),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "matches": self.matches,
            "standing": [
                {
                    "name": self.names[b],
                    "played": self.played[b],
                    "points": self.points[b],
                    "first_places": self.first_places[b],
                    "mean_place": round(1 + self.placing_sum[b] / max(self.played[b], 1), 4),
                    "faults": self.faults[b],
                    **(
                        {"mu": round(self.ratings[b][0], 3), "sigma": round(self.ratings[b][1], 3)}
                        if self.ratings
                        else {}
                    ),
                }
                for b in self.standing()
            ],
            "crosstable": {
                self.names[i]: {
                    self.names[j]: {"score": self.cross[i][j][0], "meetings": self.cross[i][j][1]}
                    for j in range(len(self.names))
                    if i != j and self.cross[i][j][1]
                }
                for i in range(len(self.names))
            },
        }


def _rate(tournament: LocalTournament, results: list[tuple[list[int], MatchResult]]) -> None:
    try:
        import trueskill
    except ImportError:
        return
    draw = getattr(get_game(tournament.game), "draw_probability", 0.10)
    env = trueskill.TrueSkill(draw_probability=draw)
    ratings = [env.create_rating() for _ in tournament.names]
    for table, result in results:
        groups = [(ratings[bot],) for bot in table]
        for bot, (new,) in zip(table, env.rate(groups, ranks=list(result.placings)), strict=True):
            ratings[bot] = new
    tournament.ratings = [(r.mu, r.sigma) for r in ratings]


def tournament_run(
    bots: Sequence[str],
    *,
    game: str,
    matches: int,
    seed: int,
    sandbox: bool = True,
    options: dict[str, Any] | None = None,
    on_match: Callable[[int, MatchResult, list[int]], None] | None = None,
) -> LocalTournament:
    """Play the round robin; ``bots`` as for ``python -m engine play``."""
    rules = get_game(game)
    if len(bots) < rules.min_players:
        raise ValueError(f"{rules.title} needs at least {rules.min_players} bots")
    seats = max(rules.min_players, min(getattr(rules, "ladder_seats", 4), rules.max_players))
    seats = min(seats, len(bots))
    tournament = LocalTournament(game=game, names=list(bots))
    results: list[tuple[list[int], MatchResult]] = []
    tables = tables_for(len(bots), seats)
    number = 0

    def count(index: int, result: MatchResult, table: list[int]) -> None:
        nonlocal number
        tournament.add(table, result)
        results.append((table, result))
        if on_match is not None:
            on_match(number, result, table)
        number += 1

    run_table(
        bots,
        tables=tables,
        matches=matches,
        seed=seed,
        game=game,
        options=options,
        sandbox=sandbox,
        on_match=count,
    )
    _rate(tournament, results)
    return tournament
