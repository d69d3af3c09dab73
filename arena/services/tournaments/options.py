"""A tournament's options as the services take them: checked once, the table size settled.

The rules are ``arena.algorithms.tournament_options`` (pure); this module turns their
:class:`OptionError` into the services' ``InvalidInput``, with every bad option's field in
``fields`` (the API's body names them, the site's forms show each message beside its field).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from arena.algorithms.tournament_options import OptionError, Seats, options_check
from arena.errors import InvalidInput
from arena.models.tournaments import game_seats
from engine.registry import GAMES

__all__ = ["seats_at", "seats_of", "tournament_options_check"]


def seats_of(game: str) -> Seats:
    """The table sizes ``game`` is played at; InvalidInput ``unknown_game`` otherwise."""
    seats = game_seats(game)
    if seats is None:
        raise InvalidInput(
            f"unknown game {game!r}; hosted games: {', '.join(GAMES)}",
            code="unknown_game",
            extra={"fields": {"game": [f"unknown game {game!r}"]}},
        )
    return seats


def tournament_options_check(*, game: str, now: datetime | None = None, **options: Any) -> None:
    """InvalidInput for bad options (``arena.algorithms.tournament_options``: the check the
    API, the site's forms and the admin make too): its message and code the first bad
    option's, its ``fields`` every bad option's message; ``now`` also refuses a sign-up
    deadline that is not in the future."""
    try:
        options_check(seats=seats_of(game), now=now, **options)
    except OptionError as exc:
        raise InvalidInput(exc.message, code=exc.code, extra={"fields": exc.by_field()}) from None


def seats_at(table_size: int, bots: int, seats: Seats) -> int:
    """The seats of a table with ``bots`` to seat: the chosen size, fewer when fewer bots
    play, never below the game's smallest.

    >>> seats_at(4, 3, Seats(2, 6)), seats_at(4, 9, Seats(2, 6)), seats_at(2, 1, Seats(2, 4))
    (3, 4, 2)
    """
    return max(seats.smallest, min(table_size, seats.largest, bots))
