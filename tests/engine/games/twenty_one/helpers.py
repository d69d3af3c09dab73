"""Building Twenty One positions from scripted decks and hands, for the rule tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.games.twenty_one import TwentyOne
from engine.games.twenty_one.cards import CARDS, TRUMP_RANK


def deck(hush0: int, hush1: int, up0: int, up1: int, *draws: int) -> list[int]:
    """A round's playing deck, top first: both hush cards, both face-up cards (position 0
    first), then ``draws`` in drawing order, then the other cards in ascending order."""
    fixed = [hush0, hush1, up0, up1, *draws]
    assert len(set(fixed)) == len(fixed), "a card is dealt twice"
    return fixed + [c for c in CARDS if c not in fixed]


def game(
    *decks: Sequence[int],
    hands: tuple[Sequence[str], Sequence[str]] = ((), ()),
    trump_deck: Sequence[str] = (),
    dealer: int = 0,
    rotation: int = 0,
    dealer_mode: bool = False,
    bets: int = 7,
) -> TwentyOne:
    """A game whose rounds deal ``decks`` (then seeded shuffles), the seats holding
    ``hands`` after the first deal and ``trump_deck`` (top first) left to draw."""
    state = TwentyOne(
        seed=1,
        dealer=dealer,
        rotation=rotation,
        dealer_mode=dealer_mode,
        starting_bets=bets,
        decks=decks or [deck(10, 9, 2, 3)],
        trumps_top_first=(),
    )
    for seat in (0, 1):
        set_hand(state, seat, hands[seat])
    state.trump_deck = list(reversed(trump_deck))
    return state


def set_hand(state: TwentyOne, seat: int, names: Sequence[str]) -> None:
    state.hands[seat] = sorted(names, key=TRUMP_RANK.__getitem__)


def play(state: TwentyOne, seat: int, **action: Any) -> list[dict[str, Any]]:
    """Apply ``{"trumps": [...], "then": ...}`` written as keywords."""
    return state.apply(seat, {k: v for k, v in action.items() if v is not None})


def trump(state: TwentyOne, seat: int, name: str) -> dict[str, Any]:
    """Play one trump; return its event's public part."""
    (event,) = state.apply(seat, {"trumps": [name]})
    assert event["type"] == "trump"
    return event["public"]


def finish_round(state: TwentyOne) -> list[dict[str, Any]]:
    """Both seats pass (the one to move first); return the events of the second pass."""
    state.apply(state.to_act(), {"then": "pass"})
    return state.apply(state.to_act(), {"then": "pass"})


def round_end(events: list[dict[str, Any]]) -> dict[str, Any]:
    (found,) = [e["public"] for e in events if e["type"] == "round_end"]
    return found
