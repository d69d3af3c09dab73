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


#: Every key of an observation in its place, the values filled in (see _template).
_KEYS = dict.fromkeys(
    (
        "game",
        "seat",
        "seats",
        "dealer",
        "hand",
        "to_beat",
        "leader",
        "passed",
        "trick",
        "card_counts",
        "played",
        "played_by",
        "out",
        "eliminated",
        "first_game",
        "must_include",
    )
)


def _template(state: TiengLenState, seat: int) -> dict[str, Any]:
    """A seat's observation with what stays the same through the game (the game, the seat,
    the seats, the dealer, whether it is a match's first game) and ``must_include`` null;
    the rest is set in on each decision. Copying it costs less than a 16-key dict display
    (``docs/engine-speed.md``)."""
    template = _KEYS.copy()
    template["game"] = "tieng_len"
    template["seat"] = seat
    template["seats"] = state.num_players
    template["dealer"] = state.dealer
    template["first_game"] = state.first_game
    return template


def observation(state: TiengLenState, seat: int) -> dict[str, Any]:
    """The game part of a bot's observation (see the Bot API in ``rules.md``).

    Built on every decision, so it copies the lists the state keeps as observations show
    them (card codes) rather than translating cards; the trick's plays are the seat's own
    copies, made as it first sees them (a bot that changes them changes only its own view).
    """
    current = state.current
    if current is None:
        to_beat = None
    else:
        to_beat = {
            "seat": state.current_by,
            "kind": _KIND_LABELS[current[0]],
            "length": current[1],
            "top": CODES[current[2]],
            "cards": state.current_codes.copy(),
        }
    trick = state.trick_views
    seen = state.seen_trick[seat]
    if len(seen) < len(trick):
        for who, cards in trick[len(seen) :]:
            if cards is None:
                seen.append({"seat": who, "pass": True})
            else:
                seen.append({"seat": who, "cards": cards.copy()})
    must = state.must_include
    template = state.templates[seat]
    if template is None:
        template = state.templates[seat] = _template(state, seat)
    out = template.copy()
    out["hand"] = state.codes_in_hand[seat].copy()
    out["to_beat"] = to_beat
    out["leader"] = state.trick_leader
    out["passed"] = state.passed_seats.copy()
    out["trick"] = seen.copy()
    out["card_counts"] = state.counts.copy()
    out["played"] = state.played_codes.copy()
    out["played_by"] = [*map(list.copy, state.played_by_codes)]
    out["out"] = state.finished.copy()
    out["eliminated"] = state.eliminated.copy()
    if must is not None:
        out["must_include"] = CODES[must]
    return out


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
