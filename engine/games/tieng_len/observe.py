"""What a seat at the table may see: the single place that decides it.

A bot only ever receives dicts built here (plus the match part and ``legal_actions``, which
the runner adds). A seat sees its own hand and everything played face up: the play to beat
and who played it, who passed in this trick, every card played (and by whom), how many
cards each seat holds, and who has gone out. It never sees another seat's cards, nor the
cards left out of the pack with fewer than four seats, nor an eliminated seat's cards. A
property test (``tests/engine/games/tieng_len/test_properties.py``) relabels the cards a seat
cannot see and checks that its observation does not change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.games.tieng_len.cards import CODES
from engine.games.tieng_len.combos import Kind

if TYPE_CHECKING:
    from engine.games.tieng_len.rules import TiengLenState

__all__ = ["game_reveal", "observation"]

_KIND_LABELS = tuple(kind.label for kind in Kind)


def observation(state: TiengLenState, seat: int) -> dict[str, Any]:
    """The game part of a bot's observation (see the Bot API in ``docs/games/tieng_len.md``).

    Built on every decision, so it reads the state's fields directly and copies only what a
    bot could otherwise change in the state (every list is new).
    """
    codes = CODES
    current = state.current
    if current is None:
        to_beat = None
    else:
        to_beat = {
            "seat": state.current_by,
            "kind": _KIND_LABELS[current[0]],
            "length": current[1],
            "top": codes[current[2]],
            "cards": [codes[c] for c in current[3]],
        }
    must = state.must_include
    return {
        "game": "tieng_len",
        "seat": seat,
        "seats": state.num_players,
        "dealer": state.dealer,
        "hand": [codes[c] for c in state.hands[seat]],
        "to_beat": to_beat,
        "leader": state.trick_leader,
        "passed": [s for s, p in enumerate(state.passed) if p],
        "trick": [
            {"seat": s, "cards": [codes[c] for c in cards]}
            if cards is not None
            else {"seat": s, "pass": True}
            for s, cards in state.trick
        ],
        "card_counts": [len(hand) for hand in state.hands],
        "played": [codes[c] for c in state.played],
        "played_by": [[codes[c] for c in cards] for cards in state.played_by],
        "out": list(state.finished),
        "eliminated": list(state.eliminated),
        "first_game": state.first_game,
        "must_include": codes[must] if must is not None else None,
    }


def game_reveal(state: TiengLenState) -> dict[str, Any]:
    """What every seat is told at the end of a game: no more than its public events said
    (the places and points, the order of going out, the cards each seat had left; an
    instant winner's hand, which it showed)."""
    return {
        "placings": list(state.placings()),
        "points": state.scores(),
        "order": list(state.finished),
        "last": state.last,
        "cards_left": [len(hand) for hand in state.hands],
        "instant_wins": {str(s): [CODES[c] for c in state.hands[s]] for s in sorted(state.instant)},
    }
