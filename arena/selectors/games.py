"""Reads of the hosted games: what the engine's registry says about each, as plain data.

The arena keeps no table of games: a game is a folder under ``engine/games/`` and these
facts are what its ``Game`` object declares (seat counts, options with their defaults,
hooks, the action schema), read afresh from the registry on every call. The server-rendered
pages take the ``Game`` object itself (:func:`hosted_game`) and a game's starter bot file
(:func:`game_starter_bot`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.errors import NotFound
from engine import MATCH_HOOKS, Game
from engine.registry import GAMES

__all__ = [
    "GameInfo",
    "StarterBot",
    "game_get",
    "game_list",
    "game_starter_bot",
    "hosted_game",
]


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a bot author (or a client) needs to know of a game before writing a bot."""

    name: str
    title: str
    summary: str
    min_players: int
    max_players: int
    rules_version: int
    #: Every match option with its default (what a match of this game plays with).
    options: dict[str, Any]
    #: Whether each observation carries ``legal_actions``.
    lists_legal_actions: bool
    #: Moves per game a seat may run over time and get the default move instead (0: none).
    late_moves_allowed: int
    supports_duplicate: bool
    #: Every hook a bot may define: the match's own, then the game's.
    hooks: list[str]
    #: JSON Schema (draft 7) of one action.
    action_schema: dict[str, Any]


def _info(game: Game) -> GameInfo:
    return GameInfo(
        name=game.name,
        title=game.title,
        summary=game.summary,
        min_players=game.min_players,
        max_players=game.max_players,
        rules_version=game.rules_version,
        options=dict(game.match_rules(None).options()),
        lists_legal_actions=bool(game.lists_legal_actions),
        late_moves_allowed=game.late_moves_allowed,
        supports_duplicate=bool(game.supports_duplicate),
        hooks=[*MATCH_HOOKS, *(hook for hook in game.hooks if hook not in MATCH_HOOKS)],
        action_schema=game.action_schema(),
    )


def game_list() -> list[GameInfo]:
    """Every hosted game, in the registry's display order (no database query)."""
    return [_info(game) for game in GAMES.values()]


def game_get(*, name: str) -> GameInfo:
    """One hosted game, or NotFound (code ``unknown_game``) naming the hosted ones."""
    game = GAMES.get(name)
    if game is None:
        raise NotFound(
            f"There is no game {name!r}; hosted games: {', '.join(GAMES)}.", code="unknown_game"
        )
    return _info(game)


def hosted_game(*, game: str) -> Game:
    """A hosted game's ``Game`` object by name, or NotFound (the site's own 404 for a made-up
    name); :func:`game_get` gives its facts as plain data instead."""
    found = GAMES.get(game)
    if found is None:
        raise NotFound(f"There is no game {game!r}.", code="unknown_game")
    return found


@dataclass(frozen=True, slots=True)
class StarterBot:
    filename: str
    source: bytes


def game_starter_bot(*, game: str) -> StarterBot:
    """The game's ``starter`` built-in bot: the commented file a new author copies."""
    path = hosted_game(game=game).builtin_bots().get("starter")
    if path is None or not path.is_file():
        raise NotFound(f"The game {game!r} has no starter bot.", code="no_starter")
    return StarterBot(filename=f"{game}_starter_bot.py", source=path.read_bytes())
