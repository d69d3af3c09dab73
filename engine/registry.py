"""Games by name. Lie 21 is the first; others register the same way."""

from __future__ import annotations

from engine.game import Game
from engine.games.lie21 import Lie21Game

__all__ = ["GAMES", "UnknownGame", "get_game"]

GAMES: dict[str, Game] = {"lie21": Lie21Game()}


class UnknownGame(KeyError):
    def __str__(self) -> str:
        return f"unknown game {self.args[0]!r}; known games: {', '.join(sorted(GAMES))}"


def get_game(name: str) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        raise UnknownGame(name) from None
