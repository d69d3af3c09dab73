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

from engine.game import GameOutcome, MatchDecision

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

    def dealer_of(self, game_number: int, first_dealer: int, num_players: int) -> int:
        return (first_dealer + game_number - 1) % num_players

    def game_outcome(self, scores: Sequence[int]) -> GameOutcome:
        """
        >>> BestOfSeven().game_outcome([90, 30])
        GameOutcome(winner=0, awarded=(2, 0), ends_match=False, label='double')
        >>> BestOfSeven().game_outcome([60, 60]).label
        'tie'
        """
        best = max(scores)
        if best <= self.win_above:
            return GameOutcome(None, (0,) * len(scores), False, "tie")
        winner = scores.index(best)
        points = 2 if best >= self.double_at else 1
        awarded = tuple(points if seat == winner else 0 for seat in range(len(scores)))
        if best >= self.sweep_at:
            return GameOutcome(winner, awarded, True, "sweep")
        return GameOutcome(winner, awarded, False, "double" if points == 2 else "win")

    def decide(
        self, match_points: Sequence[int], games_played: int, last: GameOutcome
    ) -> MatchDecision | None:
        if last.ends_match:
            return MatchDecision(last.winner, "sweep")
        leader = max(range(len(match_points)), key=match_points.__getitem__)
        if match_points[leader] >= self.target:
            return MatchDecision(leader, "match_points")
        if games_played >= self.game_cap:
            ahead = sorted(match_points, reverse=True)
            winner = leader if ahead[0] > ahead[1] else None
            return MatchDecision(winner, "game_cap")
        return None


_FIELDS = fields(BestOfSeven)
