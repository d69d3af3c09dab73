"""Lie 21 engine: game rules, match rules, the bot API and a local runner.

Pure Python with no third-party imports (``rich`` is used by the CLI when present), so a
bot author can use it alone on a laptop::

    from engine import InProcessPlayer, play_match
    result = play_match("lie21", [InProcessPlayer("a", "my_bot.py"),
                                  InProcessPlayer("b", builtin_bot("lie21", "random"))], seed=1)
"""

from pathlib import Path

from engine.botfiles import BotFileError, BotPackage, read_bot, read_bot_path, unpack_bot
from engine.game import Game, GameOutcome, MatchDecision, MatchRules, derive_seed
from engine.inprocess import InProcessPlayer
from engine.match import MatchError, MatchResult, play_match
from engine.players import HOOKS, BotFault, FaultKind, Player
from engine.registry import GAMES, UnknownGame, get_game


def builtin_bot(game: str, name: str) -> Path:
    """Path of a built-in bot file, e.g. ``builtin_bot("lie21", "heuristic")``."""
    bots = get_game(game).builtin_bots()
    if name not in bots:
        raise KeyError(f"no built-in bot {name!r} for {game}; known: {', '.join(sorted(bots))}")
    return bots[name]


__all__ = [
    "GAMES",
    "HOOKS",
    "BotFault",
    "BotFileError",
    "BotPackage",
    "FaultKind",
    "Game",
    "GameOutcome",
    "InProcessPlayer",
    "MatchDecision",
    "MatchError",
    "MatchResult",
    "MatchRules",
    "Player",
    "UnknownGame",
    "builtin_bot",
    "derive_seed",
    "get_game",
    "play_match",
    "read_bot",
    "read_bot_path",
    "unpack_bot",
]
