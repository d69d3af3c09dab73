"""Scripted Liars positions: a game whose dice land where the test says."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.games.liars import GAME, Liars


def scripted(values: Iterable[int]):
    """A stand-in for the game's dice (a ``DiceSource``): the thrown dice land on the given
    values, in order."""
    queue = list(values)

    def roll(seat: int, dice: list[int]) -> list[int]:
        if len(queue) < len(dice):
            raise AssertionError("the test ran out of scripted dice")
        return [queue.pop(0) for _ in dice]

    return roll, queue


def new_game(seats: int = 3, starter: int = 0, dice: Iterable[int] = (), **options: Any) -> Liars:
    """A game whose dice are scripted: ``dice`` are the values of the throws, in order."""
    state = GAME.new_game(seed=1, dealer=starter, num_players=seats, options=options)
    state.roll, _ = scripted(dice)
    return state


def more_dice(state: Liars, values: Iterable[int]) -> None:
    state.roll, _ = scripted(values)


def start_round(state: Liars, dice: Iterable[int], announce: list[int] | str, hide=()) -> list:
    """The starter throws all five (``dice``), hides ``hide`` and announces."""
    seat = state.to_act()
    more_dice(state, dice)
    events = state.apply(seat, {"throw": [0, 1, 2, 3, 4], "hide": list(hide)})
    return events + state.apply(seat, {"announce": announce})
