"""Games by name, found by looking: every package under ``engine/games/`` that exposes ``GAME``.

Adding a game is adding a folder; nothing else in the engine or the arena names it. Tests
(and plug-ins) may add a game at run time with :func:`register`, or name modules exposing
``GAME`` in ``ARENA_EXTRA_GAMES`` (comma-separated) so every process (web, workers) has them.
"""

from __future__ import annotations

import importlib
import os
import pkgutil

import engine.games
from engine.game import Game

__all__ = ["GAMES", "UnknownGame", "get_game", "register", "unregister"]


def _discover() -> dict[str, Game]:
    found: list[Game] = []
    for module in pkgutil.iter_modules(engine.games.__path__):
        if not module.ispkg:
            continue
        package = importlib.import_module(f"engine.games.{module.name}")
        game = getattr(package, "GAME", None)
        if game is not None:
            found.append(game)
    for name in filter(None, os.environ.get("ARENA_EXTRA_GAMES", "").split(",")):
        found.append(importlib.import_module(name.strip()).GAME)
    found.sort(key=lambda g: (g.position, g.name))
    return {game.name: game for game in found}


#: The hosted games in display order (Lie 21 first). Read it, don't mutate it: use register().
GAMES: dict[str, Game] = _discover()


class UnknownGame(KeyError):
    def __str__(self) -> str:
        return f"unknown game {self.args[0]!r}; known games: {', '.join(GAMES)}"


def get_game(name: str) -> Game:
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise UnknownGame(name) from None


def register(game: Game) -> None:
    """Host one more game in this process (the test suite's three-seat test game)."""
    GAMES[game.name] = game
    ordered = sorted(GAMES.values(), key=lambda g: (g.position, g.name))
    GAMES.clear()
    GAMES.update((g.name, g) for g in ordered)


def unregister(name: str) -> None:
    GAMES.pop(name, None)
