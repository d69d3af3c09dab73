"""The games the arena hosts, read from the engine's registry (never a list of our own).

Model fields store a game's name without ``choices``: adding a game is a folder under
``engine/games/``, not a migration. Services check names with :func:`validate_game`.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError

from engine.registry import GAMES

__all__ = ["GAME_CHOICES", "game_choices", "validate_game"]


def game_choices() -> list[tuple[str, str]]:
    """(name, title) of every hosted game, in display order."""
    return [(name, game.title) for name, game in GAMES.items()]


#: The choices as the registry held them when Django loaded (forms and filters re-read them).
GAME_CHOICES = game_choices()


def validate_game(value: str) -> None:
    if value not in GAMES:
        raise ValidationError(
            f"unknown game {value!r}; hosted games: {', '.join(GAMES)}", code="unknown_game"
        )
