"""Games by name, found as plug-ins: every entry point of the ``bluff_arena.games`` group.

A game is a package (a folder: rules, match rules, observation, bots, renderer, rules
document, replay schema) exposing a :class:`~engine.game.Game`, and a distribution declares
it in its metadata::

    [project.entry-points."bluff_arena.games"]
    highcard = "bluff_highcard:GAME"

The engine's own four games are declared the same way in its ``pyproject.toml``; an engine
run from a source checkout (not installed, so no metadata of its own on ``sys.path``) reads
that table from the ``pyproject.toml`` beside it, which is what its wheel's metadata is
built from. Nothing else in the engine or the arena names a game.

Tests (and a developer trying a game out) may add a game at run time with :func:`register`,
or name modules exposing ``GAME`` in ``ARENA_EXTRA_GAMES`` (comma-separated) so every process
(web, workers) has them.
"""

from __future__ import annotations

import importlib
import os
from importlib.metadata import EntryPoint

from engine.entrypoints import DISTRIBUTION, group_entry_points
from engine.game import Game

__all__ = [
    "DISTRIBUTION",
    "GAMES",
    "GROUP",
    "GameLoadError",
    "UnknownGame",
    "game_entry_points",
    "get_game",
    "register",
    "unregister",
]

#: The entry-point group games register under.
GROUP = "bluff_arena.games"


class GameLoadError(ImportError):
    """A registered game could not be loaded: which entry point, of which distribution, why."""


def game_entry_points() -> list[EntryPoint]:
    """Every entry point of the group (see :mod:`engine.entrypoints`)."""
    return group_entry_points(GROUP)


def _load(point: EntryPoint) -> Game:
    dist = getattr(point, "dist", None)
    origin = f"{dist.name} {dist.version}" if dist is not None else DISTRIBUTION
    try:
        game: Game = point.load()  # what the group's entry points name (checked below)
    except Exception as exc:  # a broken plug-in is named, not a bare traceback
        raise GameLoadError(
            f"the game {point.name!r} ({point.value}, from {origin}) could not be loaded: "
            f"{type(exc).__name__}: {exc}"
        ) from exc
    if getattr(game, "name", None) != point.name:
        raise GameLoadError(
            f"the entry point {point.name!r} ({point.value}, from {origin}) names a game "
            f"called {getattr(game, 'name', None)!r}: the two must be the same"
        )
    return game


def _discover() -> dict[str, Game]:
    found: dict[str, Game] = {}
    for point in game_entry_points():
        if point.name in found:
            raise GameLoadError(f"two distributions register a game called {point.name!r}")
        found[point.name] = _load(point)
    extra = os.environ.get("ARENA_EXTRA_GAMES", "")
    for module in filter(None, (name.strip() for name in extra.split(","))):
        game = importlib.import_module(module).GAME
        if game.name in found and found[game.name] is not game:
            raise GameLoadError(
                f"ARENA_EXTRA_GAMES names {module}, whose game {game.name!r} is registered "
                "already (as a plug-in)"
            )
        found[game.name] = game
    ordered = sorted(found.values(), key=lambda g: (g.position, g.name))
    return {game.name: game for game in ordered}


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
