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


def observation(state: TwentyOneState, seat: int) -> dict[str, Any]:
    """The game part of a bot's observation (the runner adds the match part).

    Built for every decision, so it reads the state's fields directly.
    """
    up = state.up
    mine = up[seat]
    unseen = state.deck[:]
    unseen.append(state.hush[1 - seat])
    unseen.sort()  # the deck's order and which unseen card is the hush card stay hidden
    last_seen = state.last_seen[seat]
    if last_seen is None and state.last_round is not None:
        # The seat's own copy, handed to it until the next round ends.
        last_seen = state.last_seen[seat] = _round_result(state.last_round)
    table = state.table
    return {
        "game": "twenty_one",
        "seat": seat,
        "round": state.round,
        "starter": state.starter,
        "dealer_mode": state.dealer_mode,
        "hush": state.hush[seat],
        "total": state.hush[seat] + sum(mine),
        "face_up": [up[0][:], up[1][:]],
        "visible_totals": [sum(up[0]), sum(up[1])],
        "unseen": unseen,
        "deck_count": len(state.deck),
        "trumps": state.hands[seat][:],
        "opponent_trumps": len(state.hands[1 - seat]),
        "table": [table[0][:], table[1][:]],
        "trump_deck_count": len(state.trump_deck),
        "trump_discards": len(state.discards),
        "target": state.target,
        "bets": state.bets[:],
        "acting_bet": state.acting_bet,
        "stakes": state.stake[:],
        "passed": state.passed[:],
        "drawn": state.drawn[:],
        "trumps_played_this_turn": state.played,
        # The seat's own entries (made for it as play went): a new list of them.
        "history": state.history[seat][:],
        "last_round": last_seen,
    }


def game_reveal(state: TwentyOneState) -> dict[str, Any]:
    """What both seats are shown at game end: the public round results, hush cards and all
    (each was revealed in its ``round_end`` event), and the final bets."""
    return {
        "bets": state.bets[:],
        "rounds": [_round_result(public) for public in state.round_publics],
    }
