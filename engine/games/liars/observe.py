"""What a seat at the table may see: the single place that decides it.

Uncovered dice are public. A die under the cup is shown to a seat only if that seat threw it
there, looked under the cup while it was there, or saw it uncovered before it was covered
(``known`` in the state); everyone sees who looked, which dice were thrown and how they
landed when uncovered, and every announcement. A property test
(``tests/engine/games/liars/test_properties.py``) scrambles every die a seat may not
know and checks its observation does not change.
"""

from __future__ import annotations

import itertools
import operator
from typing import TYPE_CHECKING, Any

from engine.games.liars.hands import CATEGORIES
from engine.games.liars.rules import (
    CONTEST,
    DICE,
    KNOWN_WORDS,
    RECEIVE,
    START,
    TURN,
)

if TYPE_CHECKING:
    from engine.games.liars.rules import LiarsState

__all__ = ["game_reveal", "observation"]

_DICE = range(DICE)


def _history(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A fresh copy of the round's history: each entry a flat dict whose only lists are the
    dice of a throw (``dice``, ``hide``, ``up``, ``cover``) and an announcement's ``hand``.
    Written out by shape: it is most of an observation, built on every decision."""
    out: list[dict[str, Any]] = []
    append = out.append
    for entry in entries:
        copy = entry.copy()
        kind = entry["type"]
        if kind == "throw":
            copy["dice"] = entry["dice"][:]
            copy["hide"] = entry["hide"][:]
            copy["up"] = entry["up"][:]
            cover = entry.get("cover")
            if cover is not None:
                copy["cover"] = cover[:]
        elif kind == "announce":
            copy["hand"] = entry["hand"][:]
        append(copy)
    return out


def _rounds(summaries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A fresh copy of the finished rounds' public summaries (lists: ``hand`` and ``dice``,
    either of them null, and ``lives``)."""
    out: list[dict[str, Any]] = []
    append = out.append
    for summary in summaries:
        copy = summary.copy()
        hand, dice = summary["hand"], summary["dice"]
        if hand is not None:
            copy["hand"] = hand[:]
        if dice is not None:
            copy["dice"] = dice[:]
        copy["lives"] = summary["lives"][:]
        append(copy)
    return out


#: A die as a seat is shown it, by where it lies (copied, then the rest set in: cheaper
#: than a dict display under CPython 3.11, and on every die of every decision).
_NOT_THROWN: dict[str, Any] = {
    "value": None,
    "hidden": False,
    "known": None,
    "known_by": None,
    "thrown": False,
}
_UNCOVERED: dict[str, Any] = {
    "value": None,
    "hidden": False,
    "known": "up",
    "known_by": None,
    "thrown": False,
}
_UNDER_CUP: dict[str, Any] = {
    "value": None,
    "hidden": True,
    "known": None,
    "known_by": None,
    "thrown": False,
}
#: The dice ``may`` lists, looked up by flags (tuples of five bools) rather than listed by
#: a comprehension, a function call under CPython 3.11, on every decision: by the dice's
#: values (thrown or not), those not thrown yet; by the turn's ``thrown`` and the dice's
#: ``hidden``, those not thrown this turn, those of them not under the cup, those of them
#: under it, and the dice not under the cup.
_FLAGS = tuple(itertools.product((False, True), repeat=DICE))
_NOT_SET = {flags: tuple(d for d in _DICE if not flags[d]) for flags in _FLAGS}
_MAY_DICE = {
    (thrown, hidden): (
        _NOT_SET[thrown],
        _NOT_SET[tuple(map(operator.or_, thrown, hidden))],
        _NOT_SET[tuple(map(operator.or_, thrown, map(operator.not_, hidden)))],
        _NOT_SET[hidden],
    )
    for thrown in _FLAGS
    for hidden in _FLAGS
}
#: Every key of an observation in its place, the values filled in (see _template).
_KEYS = dict.fromkeys(
    (
        "game",
        "seat",
        "seats",
        "round",
        "starter",
        "direction",
        "to_act",
        "phase",
        "lives",
        "out",
        "received",
        "minimum",
        "dice",
        "looked",
        "throws",
        "contest",
        "may",
        "history",
        "rounds",
        "options",
        # Two placeholders, taken out again below: with 22 keys the dict's table grows to
        # room for 42, and a copy keeps that room, so the match part the runner adds (three
        # keys) goes in without the table being rebuilt, as it would be from room for 21.
        "",
        " ",
    )
)
del _KEYS[""], _KEYS[" "]


def _template(state: LiarsState, seat: int) -> dict[str, Any]:
    """A seat's observation for the round with what stays the same through it (the game,
    the seat, the seats, the round and its starter) and ``contest`` null; the rest is set
    in on each decision. Copying it costs less than writing out a 20-key dict display."""
    template = _KEYS.copy()
    template["game"] = "liars"
    template["seat"] = seat
    template["seats"] = state.n
    template["round"] = state.round
    template["starter"] = state.starter
    return template


def observation(state: LiarsState, seat: int) -> dict[str, Any]:
    """The game part of a seat's observation (the runner adds the match part).

    The dice as this seat knows them, what the seat to move may do, and the seat's own
    copies of the history, set into a copy of its template for the round (:func:`_template`).
    Built on every decision, so it is written out in one function, over 60 lines: split
    into helpers for the received hand, the dice and ``may``, a Liars game of random bots
    took 1.8% more instructions (14.15 M against 13.90 M, ``docs/engine-speed.md``).
    """
    received = state.received
    over = state.over
    holder = state.holder
    mine = not over and seat == holder
    phase = state.phase
    throws = state.throws
    contest = state.contest
    looked = state.looked
    dice, hidden, thrown = state.dice, state.hidden, state.thrown
    template = state.templates[seat]
    if template is None:
        template = state.templates[seat] = _template(state, seat)
    out = template.copy()
    out["direction"] = state.direction
    out["to_act"] = None if over else holder
    out["phase"] = phase if mine else None
    out["lives"] = state.lives[:]  # a seat out of the game has 0 (see LiarsState.scores)
    out["out"] = state.out[:]
    if received is not None:
        hand, rank, limit = received
        out["received"] = {
            "hand": list(hand),
            "category": CATEGORIES[state.order.category[rank]],
            "rank": rank,
            "throws": limit,
            "from": state.bettor,
        }
    # The dice: values up to all, those under the cup to the seats that know them.
    everyone = state.everyone
    known, known_by = state.known, state.known_by
    view: list[dict[str, Any]] = []
    append = view.append
    for d in _DICE:
        value = dice[d]
        if not value:
            die = _NOT_THROWN.copy()
            die["known_by"] = []
        elif not hidden[d]:
            die = _UNCOVERED.copy()
            die["value"] = value
            die["known_by"] = everyone[:]
            die["thrown"] = thrown[d]
        else:
            row = known[d]
            how = row[seat]
            die = _UNDER_CUP.copy()
            if how:  # UNKNOWN is 0: the value stays None
                die["value"] = value
                die["known"] = KNOWN_WORDS[how]
            die["known_by"] = known_by[d][:]
            die["thrown"] = thrown[d]
        append(die)
    if mine:
        low = state.minimum()
        out["minimum"] = list(low) if low is not None else None
        # What the seat to move may do now (the rules still check every action).
        if phase == START:
            unthrown = list(_NOT_SET[tuple(map(bool, dice))])
            may = {
                "refuse": False,
                "look": False,
                "throw": unthrown,
                "hide": unthrown[:],
                "cover": [],
                "announce": not unthrown,
                "better": False,
            }
        elif contest is not None:
            beat = contest[0] == "beat" and throws > 0
            may = {
                "refuse": phase == RECEIVE,
                "look": False,
                "throw": [0, 1, 2, 3, 4] if throws < contest[1] else [],
                "hide": [],
                "cover": [],
                "announce": beat,
                "better": beat and state.better,
            }
        else:
            free, free_up, free_hidden, up = _MAY_DICE[tuple(thrown), tuple(hidden)]
            throwable = free if looked else free_up
            first = throws == 0
            may = {
                "refuse": phase == RECEIVE,
                "look": not looked and True in hidden,
                "throw": list(throwable),
                # Uncovered dice may land under the cup only in the turn's first throw (after
                # it, of the dice that may be thrown, those under the cup: none unlooked).
                "hide": list(throwable if first else free_hidden if looked else ()),
                "cover": list(up) if first else [],
                "announce": not (looked and first),
                "better": state.better and not (looked and first),
            }
        out["may"] = may
    out["dice"] = view
    out["looked"] = looked
    out["throws"] = throws
    if contest is not None:
        out["contest"] = {"kind": contest[0], "limit": contest[1], "throws": throws}
    # The round's history and the past rounds: the seat's own copies, brought up to date.
    history, past = state.history, state.past
    seen = state.seen_history[seat]
    if len(seen) < len(history):
        seen += _history(history[len(seen) :])
    rounds = state.seen_rounds[seat]
    if len(rounds) < len(past):
        rounds += _rounds(past[len(rounds) :])
    out["history"] = seen[:]
    out["rounds"] = rounds[:]
    out["options"] = state.options_view.copy()
    return out


def game_reveal(state: LiarsState) -> dict[str, Any]:
    """What every seat is told at game end: only what public events already showed."""
    return {
        "lives": state.scores(),
        "eliminated": list(state.elim),
        "placings": list(state.placings()),
        "rounds": _rounds(state.past),
    }


# Phases a bot may meet, for the docs and the tests.
PHASES = (START, RECEIVE, TURN, CONTEST)
