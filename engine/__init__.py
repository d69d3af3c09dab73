"""The arena's engine: the games' rules, match rules, the bot API and a local runner.

Pure Python (``fastjsonschema`` checks actions; ``rich`` is used by the CLI when present), so
a bot author can use it alone on a laptop::

    from engine import InProcessPlayer, builtin_bot, play_match
    result = play_match("lie21", [InProcessPlayer("a", "my_bot.py"),
                                  InProcessPlayer("b", builtin_bot("lie21", "random"))], seed=1)
    result.placings  # (0, 1): rank per seat, 0 = first

Each game is a package under ``engine/games/``; see ``docs/game-interface.md``.
"""

from pathlib import Path

from engine.botfiles import BotFileError, BotPackage, read_bot, read_bot_path, unpack_bot
from engine.game import (
    MATCH_HOOKS,
    Event,
    Game,
    GameOutcome,
    GamePlan,
    GameState,
    IllegalMove,
    MatchDecision,
    MatchRules,
    Tally,
    derive_seed,
    event,
    ranks_from_scores,
    winner_of,
)
from engine.inprocess import InProcessPlayer
from engine.match import MatchError, MatchResult, play_match
from engine.players import BotFault, FaultKind, Player
from engine.registry import GAMES, UnknownGame, get_game


def builtin_bot(game: str, name: str) -> Path:
    """Path of a built-in bot file, e.g. ``builtin_bot("lie21", "heuristic")``."""
    bots = get_game(game).builtin_bots()
    if name not in bots:
        raise KeyError(f"no built-in bot {name!r} for {game}; known: {', '.join(sorted(bots))}")
    return bots[name]


__all__ = [
    "GAMES",
    "MATCH_HOOKS",
    "BotFault",
    "BotFileError",
    "BotPackage",
    "Event",
    "FaultKind",
    "Game",
    "GameOutcome",
    "GamePlan",
    "GameState",
    "IllegalMove",
    "InProcessPlayer",
    "MatchDecision",
    "MatchError",
    "MatchResult",
    "MatchRules",
    "Player",
    "Tally",
    "UnknownGame",
    "builtin_bot",
    "derive_seed",
    "event",
    "get_game",
    "play_match",
    "ranks_from_scores",
    "read_bot",
    "read_bot_path",
    "unpack_bot",
    "winner_of",
]
