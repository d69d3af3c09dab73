"""Liars matches: one game to the last survivor, or ``games=N`` games ranked by placing points.

Every option, the rule options included, is a match option: the runner records them all in
the replay and hands them to each game (``Variant.from_options``).

>>> rules = LiarsMatch.from_options({"games": 3, "straights": False})
>>> rules.options()["games"], rules.options()["straights"]
(3, False)
>>> rules.plan(2, 0, 4)
GamePlan(deal=2, dealer=1, rotation=0, setup={})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from engine.game import GameOutcome, GamePlan, GamesByPoints, GameState
from engine.games.liars.rules import Variant

__all__ = ["LiarsMatch", "placing_points"]


def placing_points(placings: tuple[int, ...]) -> tuple[int, ...]:
    """Placing points of one game: ``seats - 1 - rank`` (first of four gets 3, last 0).

    >>> placing_points((1, 0, 3, 2))
    (2, 3, 0, 1)
    """
    seats = len(placings)
    return tuple(seats - 1 - rank for rank in placings)


#: The rule options, each a game's (:class:`Variant`'s fields, defaults there).
_RULE_OPTIONS = tuple(f.name for f in fields(Variant))


@dataclass(frozen=True, slots=True)
class LiarsMatch(GamesByPoints):
    """The options (engine/games/liars/rules.md, "Options"): ``games``, then the rule options
    of every game, its :class:`Variant`."""

    games: int = 1
    variant: Variant = field(default_factory=Variant)

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None) -> LiarsMatch:
        known = ("games", *_RULE_OPTIONS)
        unknown = set(options or {}) - set(known)
        if unknown:
            raise ValueError(f"unknown Liars options: {sorted(unknown)}; known: {sorted(known)}")
        games = 1
        rules: dict[str, Any] = {}
        for key, value in (options or {}).items():
            if key == "games":
                if type(value) is not int or not 1 <= value <= 100:
                    raise ValueError(
                        f"option 'games' must be an integer from 1 to 100, not {value!r}"
                    )
                games = value
            elif type(value) is not bool:
                raise ValueError(f"option {key!r} must be true or false, not {value!r}")
            else:
                rules[key] = value
        return cls(games, Variant(**rules))

    def options(self) -> dict[str, Any]:
        return {"games": self.games} | {name: getattr(self.variant, name) for name in _RULE_OPTIONS}

    def plan(self, game_number: int, first_dealer: int, num_players: int) -> GamePlan:
        """Game 1 is started by seat 0; the starting seat rotates every game. Dice are thrown
        as the game goes, so there is no deal to replay with seats rotated."""
        return GamePlan(deal=game_number, dealer=(game_number - 1) % num_players)

    def game_outcome(self, state: GameState) -> GameOutcome:
        placings = state.placings()
        seats = range(len(placings))
        lives = state.scores()
        label = "last_survivor"
        if sum(1 for life in lives if life > 0) > 1:
            label = "first_out" if getattr(state, "stop_first", False) else "round_cap"
        return GameOutcome(
            placings=placings,
            awarded=placing_points(placings),
            label=label,
            totals={
                "wins": tuple(int(placings[s] == 0) for s in seats),
                "placing_points": placing_points(placings),
                "lives_left": tuple(lives),
            },
        )
