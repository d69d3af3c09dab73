"""Lie 21: the first game the arena hosts. See ``docs/rules.md``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.games.lie21.cards import shuffled
from engine.games.lie21.match_rules import BestOfSeven
from engine.games.lie21.observe import game_reveal, observation
from engine.games.lie21.rules import IllegalMove, Lie21State

__all__ = ["IllegalMove", "Lie21", "Lie21Game"]

_BOTS_DIR = Path(__file__).parent / "bots"
_DEFAULT_RULES = BestOfSeven()


class Lie21(Lie21State):
    """A Lie 21 game state with the observer and replay views the runner asks for."""

    __slots__ = ()

    # Bound straight to the observer's functions: one call less on every decision.
    observation = observation
    reveal = game_reveal

    def record(self) -> dict[str, Any]:
        return {
            "deck": list(self.deck),
            "trump_card": self.trump_card,
            "trump_suit": self.trump_suit,
            "deal": [list(cards) for cards in self.deal],
            "hands": [hand.to_json() for hand in self.log],
            "scores": self.scores(),
        }


class Lie21Game:
    name = "lie21"
    title = "Lie 21"
    min_players = 2
    max_players = 2

    def new_game(self, *, seed: int, dealer: int, num_players: int = 2) -> Lie21:
        if num_players != 2:
            raise ValueError("Lie 21 is a game for two players")
        return Lie21(shuffled(seed), dealer, check=False)  # a shuffle is a full deck

    def match_rules(self, options: Mapping[str, Any] | None = None) -> BestOfSeven:
        return BestOfSeven.from_options(options) if options else _DEFAULT_RULES

    def builtin_bots(self) -> dict[str, Path]:
        return {
            "random": _BOTS_DIR / "random_bot.py",
            "greedy": _BOTS_DIR / "greedy_bot.py",
            "heuristic": _BOTS_DIR / "heuristic_bot.py",
            "search": _BOTS_DIR / "search_bot.py",
        }
