"""A local tournament, as the arena runs one (``python -m engine tournament a.py b.py c.py``).

Every table of the game's size is played (two seats: every pair; more: every group of bots,
once per seat rotation, so everyone meets everyone and sits in every seat), each ``matches``
times with fresh seeds. The result is a standing by points (one per seat placed ahead of,
half per seat level, as in the arena), a crosstable of each pair's score, and each bot's
rating with its 95% interval as the arena computes its displayed rating (a whole-history
fit, TrueSkill Through Time: :func:`_rate`) when the ``trueskillthroughtime`` package is
installed.
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
    ratings: list[tuple[float, float]] | None = None  # (rating, its sigma) per bot

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

    def _rating(self, bot: int) -> dict[str, float]:
        assert self.ratings is not None
        rating, sigma = self.ratings[bot]
        return {
            "rating": round(rating, 3),
            "rating_sigma": round(sigma, 3),
            "rating_low": round(rating - Z95 * sigma, 3),
            "rating_high": round(rating + Z95 * sigma, 3),
        }

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
                    "mean_place": (
                        round(1 + self.placing_sum[b] / self.played[b], 4)
                        if self.played[b]
                        else None
                    ),
                    "faults": self.faults[b],
                    **(self._rating(b) if self.ratings else {}),
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


#: The arena's displayed-rating model (``arena.algorithms.whole_history``): TrueSkill's scale.
MU, SIGMA, BETA = 25.0, 25.0 / 3, 25.0 / 6
Z95 = 1.959963984540054


def _rate(tournament: LocalTournament, results: list[tuple[list[int], MatchResult]]) -> None:
    """Every bot's rating as the arena's ladder would show it after these matches: the
    whole-history fit of TrueSkill Through Time (one batch, no drift; prior N(25, 25/3),
    performance noise 25/6, the tie margin from the share of neighbouring places tied),
    by the ``trueskillthroughtime`` package, to which the arena's own fit is held in its
    tests."""
    try:
        import trueskillthroughtime as ttt
    except ImportError:
        return
    if not results:
        return
    composition, outcome = [], []
    neighbours = ties = 0
    for table, result in results:
        # Seats in finishing order: the package hands a table of three or more its places'
        # messages in that order only.
        seats = sorted(range(len(table)), key=lambda seat: result.placings[seat])
        composition.append([[str(table[seat])] for seat in seats])
        outcome.append([float(len(table) - result.placings[seat]) for seat in seats])
        places = sorted(result.placings)
        neighbours += len(places) - 1
        ties += sum(1 for a, b in itertools.pairwise(places) if a == b)
    draw = min(max(ties / max(neighbours, 1), 0.001), 0.5)
    priors = {
        str(bot): ttt.Player(ttt.Gaussian(MU, SIGMA), BETA, 0.0)
        for bot in range(len(tournament.names))
    }
    history = ttt.History(
        composition, outcome, times=[0] * len(composition), priors=priors, p_draw=draw, gamma=0.0
    )
    history.convergence(epsilon=1e-4, iterations=4, verbose=False)
    curves = history.learning_curves()
    tournament.ratings = [
        (curves[str(bot)][-1][1].mu, curves[str(bot)][-1][1].sigma)
        if str(bot) in curves
        else (MU, SIGMA)
        for bot in range(len(tournament.names))
    ]


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
