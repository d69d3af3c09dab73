"""Best-of-seven Lie 21 matches: match points, doubles, sweeps, and the game cap.

A game won with 61-89 points gives 1 match point, with 90 or more 2; a tied game (60-60)
gives none. 120 points is a sweep: it ends the match at once for the sweeper. The first to
4 match points wins. A match that reaches the game cap (13 by default) without that goes to
the player with more match points, else it is drawn. The dealer alternates every game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from engine.game import (
    GameOutcome,
    GamePlan,
    GameState,
    MatchDecision,
    Tally,
    ranks_from_scores,
)

__all__ = ["BestOfSeven"]


@dataclass(frozen=True, slots=True)
class BestOfSeven:
    target: int = 4  # match points that win the match
    game_cap: int = 13  # games after which the match is decided on match points
    double_at: int = 90  # game points worth 2 match points
    sweep_at: int = 120  # game points that end the match at once
    win_above: int = 60  # more than this wins a game; exactly this for both is a tie

    def __post_init__(self) -> None:
        if self.target < 1 or self.game_cap < 1:
            raise ValueError("match options: target and game_cap must be at least 1")
        if not 0 <= self.win_above < self.double_at <= self.sweep_at:
            raise ValueError("match options: need 0 <= win_above < double_at <= sweep_at")

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None) -> BestOfSeven:
        known = {f.name for f in fields(cls)}
        unknown = set(options or {}) - known
        if unknown:
            raise ValueError(f"unknown match options: {sorted(unknown)}; known: {sorted(known)}")
        values = {}
        for key, value in (options or {}).items():
            if type(value) is not int:
                raise ValueError(f"match option {key!r} must be an integer, not {value!r}")
            values[key] = value
        return cls(**values)

    def options(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in _FIELDS}

    def plan(self, game_number: int, first_dealer: int, num_players: int) -> GamePlan:
        """Every game a fresh deal; the dealer alternates."""
        return GamePlan(deal=game_number, dealer=(first_dealer + game_number - 1) % num_players)

    def points_outcome(self, scores: Sequence[int]) -> GameOutcome:
        """
        >>> outcome = BestOfSeven().points_outcome([90, 30])
        >>> outcome.placings, outcome.awarded, outcome.label, outcome.ends_match
        ((0, 1), (2, 0), 'double', False)
        >>> outcome.totals
        {'game_wins': (1, 0), 'points': (90, 30), 'sweeps': (0, 0)}
        >>> BestOfSeven().points_outcome([60, 60]).label
        'tie'
        """
        best = max(scores)
        seats = range(len(scores))
        if best <= self.win_above:
            return GameOutcome(
                placings=(0,) * len(scores),
                awarded=(0,) * len(scores),
                label="tie",
                totals={
                    "game_wins": (0,) * len(scores),
                    "points": tuple(scores),
                    "sweeps": (0,) * len(scores),
                },
            )
        winner = scores.index(best)
        points = 2 if best >= self.double_at else 1
        sweep = best >= self.sweep_at
        label = "sweep" if sweep else "double" if points == 2 else "win"
        return GameOutcome(
            placings=tuple(0 if seat == winner else 1 for seat in seats),
            awarded=tuple(points if seat == winner else 0 for seat in seats),
            label=label,
            ends_match=sweep,
            totals={
                "game_wins": tuple(int(seat == winner) for seat in seats),
                "points": tuple(scores),
                "sweeps": tuple(int(sweep and seat == winner) for seat in seats),
            },
        )

    def game_outcome(self, state: GameState) -> GameOutcome:
        return self.points_outcome(state.scores())

    def decide(self, tally: Tally) -> MatchDecision | None:
        last = tally.outcomes[-1]
        if last.ends_match:
            return MatchDecision(last.placings, "sweep")
        match_points = tally.match_points
        if max(match_points) >= self.target:
            return MatchDecision(ranks_from_scores(match_points), "match_points")
        if tally.games_played >= self.game_cap:
            return MatchDecision(ranks_from_scores(match_points), "game_cap")
        return None

    def standing(self, tally: Tally) -> tuple[int, ...]:
        return ranks_from_scores(tally.match_points)


_FIELDS = fields(BestOfSeven)
