"""Checking a bot's action against its game's JSON Schema, with a message a bot author can use.

Every game publishes the JSON Schema of its action (``Game.action_schema()``, draft 7). The
runner refuses an untrusted bot's action that does not match before the rules see it, so the
rules only ever meet well-formed input, and the author reads which field was wrong and why.
Schemas are compiled once per game with ``fastjsonschema`` (a few microseconds per check).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import fastjsonschema

from engine.game import Game

__all__ = ["action_problem", "action_validator"]

_validators: dict[tuple[str, int], Callable[[Any], Any]] = {}
#: Rules whose message is clearer with the bad value quoted (short: it goes in a replay).
_SHOW_VALUE_FOR = frozenset({"pattern", "enum", "const", "type", "minimum", "maximum"})


def _shown(value: Any) -> str:
    """A bot-supplied value as quoted in a public error: short, so a bot cannot write essays
    into everyone's replay through its mistakes."""
    text = repr(value)
    return text if len(text) <= 24 else text[:20] + "...'"


def action_validator(game: Game) -> Callable[[Any], Any]:
    """The compiled schema check of ``game``'s actions (raises on a mismatch)."""
    key = (game.name, id(game))
    validator = _validators.get(key)
    if validator is None:
        validator = _validators[key] = fastjsonschema.compile(game.action_schema())
    return validator


def action_problem(game: Game, action: Any) -> str | None:
    """Why ``action`` does not match the game's action schema, or None when it does.

    >>> from engine.registry import get_game
    >>> action_problem(get_game("lie21"), {"cards": ["AS"], "face_up": 0})
    'malformed action: action.cards must contain at least 3 items'
    """
    try:
        action_validator(game)(action)
    except fastjsonschema.JsonSchemaValueException as exc:
        message = exc.message
        if message.startswith("data"):
            message = "action" + message[4:]
        if len(message) > 160:
            message = message[:157] + "..."
        if exc.rule in _SHOW_VALUE_FOR and not isinstance(exc.value, dict | list):
            message += f" (got {_shown(exc.value)})"
        return f"malformed action: {message}"
    except (TypeError, ValueError, RecursionError):
        return "malformed action: it is not a JSON object of the expected shape"
    return None
