"""Input fields that take what the schema says and nothing else.

DRF's fields coerce: ``CharField`` turns ``0`` into ``"0"``, ``IntegerField`` takes ``"12"``
and ``12.0``, ``BooleanField`` takes ``"yes"`` and ``1``. The schema promises a string, an
integer, a boolean, so a JSON body with anything else is refused (400). Form bodies
(``application/x-www-form-urlencoded``, ``multipart/form-data``) carry only strings, so there
the text forms are still read as DRF reads them.
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from rest_framework import serializers

from engine.registry import GAMES

__all__ = [
    "GameField",
    "StrictBooleanField",
    "StrictCharField",
    "StrictFloatField",
    "StrictIntegerField",
]


def _from_form(field: serializers.Field) -> bool:
    root = field.root
    return isinstance(getattr(root, "initial_data", None), QueryDict)


class StrictCharField(serializers.CharField):
    """A JSON string whose length, as sent, is within ``max_length``.

    DRF trims surrounding whitespace before it checks the length, so 2,001 characters
    starting with a space (or ``\x1f``) passed a ``maxLength: 2000`` the schema states for
    the string as sent. The limit holds for what the client sends, as documented.
    """

    default_error_messages = {"invalid": "Not a valid string."}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        if self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not (isinstance(data, int) or _from_form(self)):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictFloatField(serializers.FloatField):
    """A JSON number (not a string, not a boolean); a form's text is parsed as usual."""

    def to_internal_value(self, data: Any) -> float:
        if isinstance(data, bool) or not (isinstance(data, int | float) or _from_form(self)):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    def to_internal_value(self, data: Any) -> bool:
        if not (isinstance(data, bool) or _from_form(self)):
            self.fail("invalid")
        return super().to_internal_value(data)


class GameField(serializers.ChoiceField):
    """The name of a hosted game: required where a game is chosen (no game is a default).

    The schema lists the games the registry held when it was generated; the check reads
    the registry itself. Anything else is a 400 with code ``unknown_game`` whose message
    names the hosted games, so a client sees at once what it may send.
    """

    default_error_messages = {"unknown_game": "Unknown game {input!r}; hosted games: {games}."}

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", "The game's name (see /api/games/).")
        super().__init__(choices=list(GAMES), **kwargs)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str) or data not in GAMES:
            self.fail("unknown_game", input=data, games=", ".join(GAMES))
        return data
