"""Building Tieng Len positions from card codes, for the rule tests."""

from __future__ import annotations

from engine.games.tieng_len import TiengLen
from engine.games.tieng_len.cards import INDEX
from engine.games.tieng_len.combos import Combo, classify


def combo(text: str) -> Combo | None:
    """The combination of space-separated card codes, e.g. ``combo("7S 7D")``."""
    return classify(sorted(INDEX[c] for c in text.split()))


def game(*hands: str, leader: int | None = 0) -> TiengLen:
    """A game of scripted hands (space-separated codes), seat 0 first; ``leader`` leads
    (None: a first game of a match, led by the lowest card dealt)."""
    return TiengLen.from_hands([h.split() for h in hands], leader=leader)


def play(state: TiengLen, seat: int, cards: str) -> list[dict]:
    return state.apply(seat, {"cards": cards.split()})


def pass_(state: TiengLen, seat: int) -> list[dict]:
    return state.apply(seat, {"pass": True})


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]
