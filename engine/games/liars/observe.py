"""What a seat at the table may see: the single place that decides it.

Uncovered dice are public. A die under the cup is shown to a seat only if that seat threw it
there, looked under the cup while it was there, or saw it uncovered before it was covered
(``known`` in the state); everyone sees who looked, which dice were thrown and how they
landed when uncovered, and every announcement. A property test
(``tests/engine/games/liars/test_hidden_information.py``) scrambles every die a seat may not
know and checks its observation does not change.
"""

from __future__ import annotations

from marshal import dumps, loads
from typing import TYPE_CHECKING, Any

from engine.games.liars.hands import CATEGORIES
from engine.games.liars.rules import (
    CONTEST,
    DICE,
    KNOWN_WORDS,
    RECEIVE,
    START,
    TURN,
    UNKNOWN,
)

if TYPE_CHECKING:
    from engine.games.liars.rules import LiarsState

__all__ = ["game_reveal", "observation"]


def _fresh(value: Any) -> Any:
    """A deep copy of plain JSON data (dicts, lists, ints, strings, None), nothing shared
    with the state or another seat. marshal does it in C: observations are built on every
    decision, and the round's history and the game's past rounds are most of one."""
    return loads(dumps(value))  # noqa: S302 - our own bytes, made one line above


def _dice_view(state: LiarsState, seat: int) -> list[dict[str, Any]]:
    n = state.n
    everyone = list(range(n))
    view = []
    dice, hidden, known, thrown = state.dice, state.hidden, state.known, state.thrown
    for d in range(DICE):
        value = dice[d]
        if value == 0:
            view.append(
                {"value": None, "hidden": False, "known": None, "known_by": [], "thrown": False}
            )
        elif not hidden[d]:
            view.append(
                {
                    "value": value,
                    "hidden": False,
                    "known": "up",
                    "known_by": everyone[:],
                    "thrown": thrown[d],
                }
            )
        else:
            row = known[d]
            how = row[seat]
            view.append(
                {
                    "value": value if how != UNKNOWN else None,
                    "hidden": True,
                    "known": KNOWN_WORDS[how],
                    "known_by": [s for s in range(n) if row[s] != UNKNOWN],
                    "thrown": thrown[d],
                }
            )
    return view


def _may(state: LiarsState) -> dict[str, Any]:
    """What the seat to move may do now (the rules still check every action)."""
    phase = state.phase
    contest = state.contest
    dice, hidden, thrown = state.dice, state.hidden, state.thrown
    if phase == START:
        unthrown = [d for d in range(DICE) if dice[d] == 0]
        return {
            "refuse": False,
            "look": False,
            "throw": unthrown,
            "hide": unthrown,
            "cover": [],
            "announce": not unthrown,
            "better": False,
        }
    if contest is not None:
        can_throw = state.throws < contest[1]
        beat = contest[0] == "beat" and state.throws > 0
        return {
            "refuse": phase == RECEIVE,
            "look": False,
            "throw": list(range(DICE)) if can_throw else [],
            "hide": [],
            "cover": [],
            "announce": beat,
            "better": beat and state.better,
        }
    looked = state.looked
    throwable = [d for d in range(DICE) if not thrown[d] and (looked or not hidden[d])]
    first = state.throws == 0
    return {
        "refuse": phase == RECEIVE,
        "look": not looked and any(hidden),
        "throw": throwable,
        # Uncovered dice may land under the cup only in the turn's first throw (the seed).
        "hide": throwable if first else [d for d in throwable if hidden[d]],
        "cover": [d for d in range(DICE) if not hidden[d]] if first else [],
        "announce": not (looked and first),
        "better": state.better and not (looked and first),
    }


def observation(state: LiarsState, seat: int) -> dict[str, Any]:
    """The game part of a seat's observation (the runner adds the match part)."""
    received = state.received
    over = state.over
    mine = not over and seat == state.holder
    if received is not None:
        hand, rank, throws = received
        got: dict[str, Any] | None = {
            "hand": list(hand),
            "category": CATEGORIES[state.order.category[rank]],
            "rank": rank,
            "throws": throws,
            "from": state.bettor,
        }
    else:
        got = None
    contest = state.contest
    low = state.minimum() if mine else None
    return {
        "game": "liars",
        "seat": seat,
        "seats": state.n,
        "round": state.round,
        "starter": state.starter,
        "direction": state.direction,
        "to_act": None if over else state.holder,
        "phase": state.phase if mine else None,
        "lives": state.scores(),
        "out": state.out[:],
        "received": got,
        "minimum": list(low) if low is not None else None,
        "dice": _dice_view(state, seat),
        "looked": state.looked,
        "throws": state.throws,
        "contest": (
            {"kind": contest[0], "limit": contest[1], "throws": state.throws}
            if contest is not None
            else None
        ),
        "may": _may(state) if mine else None,
        "history": _fresh(state.history),
        "rounds": _fresh(state.past),
        "options": {
            "straights": state.straights,
            "better": state.better,
            "no_lying_first_round": state.no_lying,
            "stop_at_first_out": state.stop_first,
            "straight_contest": state.contest_next,
        },
    }


def game_reveal(state: LiarsState) -> dict[str, Any]:
    """What every seat is told at game end: only what public events already showed."""
    return {
        "lives": state.scores(),
        "eliminated": list(state.elim),
        "placings": list(state.placings()),
        "rounds": _fresh(state.past),
    }


# Phases a bot may meet, for the docs and the tests.
PHASES = (START, RECEIVE, TURN, CONTEST)
