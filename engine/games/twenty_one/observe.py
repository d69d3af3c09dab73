"""What a seat at the table may see: the single place that decides it.

A bot only ever receives dicts built here (plus the match part the runner adds). A seat
sees its own hush card and full total, every face-up card, its own trumps and how many the
opponent holds, the trumps lying on the table, the deck size, the bet pad (bets, acting bet,
both stakes), the target, who has passed, the cards each side drew this round, the round's
public history (with its own private parts: the trumps it drew), and the last round's
result, hush cards and all. Never the opponent's hush card before the round ends: a property
test swaps it with a deck card and checks that the seat's observation does not change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.games.twenty_one.rules import TwentyOneState

__all__ = ["game_reveal", "observation"]


def _round_result(public: dict[str, Any]) -> dict[str, Any]:
    """A fresh copy of a ``round_end`` payload (the last round's result, hush cards shown)."""
    face_up = public["face_up"]
    return {
        "round": public["round"],
        "hush": list(public["hush"]),
        "face_up": [list(face_up[0]), list(face_up[1])],
        "totals": list(public["totals"]),
        "target": public["target"],
        "winner": public["winner"],
        "stakes": list(public["stakes"]),
        "paid": public["paid"],
        "bets": list(public["bets"]),
        "cleared": list(public["cleared"]),
    }


#: Every key of an observation in its place (the values are filled in; see _template).
_KEYS = dict.fromkeys(
    (
        "game",
        "seat",
        "round",
        "starter",
        "dealer_mode",
        "hush",
        "total",
        "face_up",
        "visible_totals",
        "unseen",
        "deck_count",
        "trumps",
        "opponent_trumps",
        "table",
        "trump_deck_count",
        "trump_discards",
        "target",
        "bets",
        "acting_bet",
        "stakes",
        "passed",
        "drawn",
        "trumps_played_this_turn",
        "history",
        "last_round",
    )
)


def _template(state: TwentyOneState, seat: int) -> dict[str, Any]:
    """A seat's observation for the round, every key in its place, holding what stays the
    same for the seat until the round ends (the rest is filled in on each decision).

    Copying a dict and setting its values costs less than writing out a dict display of 25
    keys (about a third, under CPython 3.11). ``last_round`` is the seat's own copy of the
    last round's result, handed to it until the next round ends.
    """
    template = _KEYS.copy()
    template["game"] = "twenty_one"
    template["seat"] = seat
    template["round"] = state.round
    template["starter"] = state.starter
    template["dealer_mode"] = state.dealer_mode
    template["hush"] = state.hush[seat]
    template["acting_bet"] = state.acting_bet
    last = state.last_round
    template["last_round"] = _round_result(last) if last is not None else None
    return template


def observation(state: TwentyOneState, seat: int) -> dict[str, Any]:
    """The game part of a bot's observation (the runner adds the match part).

    Built for every decision, so it reads the state's fields directly, into a copy of the
    seat's template for the round (:func:`_template`), made at its first decision of the
    round (the state drops the templates when a round ends).
    """
    template = state.templates[seat]
    if template is None:
        template = state.templates[seat] = _template(state, seat)
    out = template.copy()
    up0, up1 = state.up
    deck = state.deck
    unseen = deck[:]
    unseen.append(state.hush[1 - seat])
    unseen.sort()  # the deck's order and which unseen card is the hush card stay hidden
    table = state.table
    visible = [sum(up0), sum(up1)]
    out["total"] = template["hush"] + visible[seat]
    out["face_up"] = [up0[:], up1[:]]
    out["visible_totals"] = visible
    out["unseen"] = unseen
    out["deck_count"] = len(deck)
    out["trumps"] = state.hands[seat][:]
    out["opponent_trumps"] = len(state.hands[1 - seat])
    out["table"] = [table[0][:], table[1][:]]
    out["trump_deck_count"] = len(state.trump_deck)
    out["trump_discards"] = len(state.discards)
    out["target"] = state.target
    out["bets"] = state.bets[:]
    out["stakes"] = state.stake[:]
    out["passed"] = state.passed[:]
    out["drawn"] = state.drawn[:]
    out["trumps_played_this_turn"] = state.played
    # The seat's own entries (made for it as play went): a new list of them.
    out["history"] = state.history[seat][:]
    return out


def game_reveal(state: TwentyOneState) -> dict[str, Any]:
    """What both seats are shown at game end: the public round results, hush cards and all
    (each was revealed in its ``round_end`` event), and the final bets."""
    return {
        "bets": state.bets[:],
        "rounds": [_round_result(public) for public in state.round_publics],
    }
