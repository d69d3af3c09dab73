"""Helpers to build Lie 21 positions from scripted decks."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.games.lie21 import Lie21
from engine.games.lie21.cards import DECK


def scripted_deck(
    dealer_hand: Sequence[str],
    other_hand: Sequence[str],
    trump_card: str,
    draws: Sequence[str] = (),
) -> list[str]:
    """A full deck: the dealer's six, the other's six, then ``draws``, the rest, the trump."""
    fixed = [*dealer_hand, *other_hand, *draws]
    rest = [c for c in DECK if c not in fixed and c != trump_card]
    deck = [*fixed, *rest, trump_card]
    assert len(deck) == 42 and len(set(deck)) == 42, "scripted deck must be a full deck"
    return deck


@pytest.fixture
def make_game():
    def make(dealer_hand, other_hand, trump_card, draws=(), dealer=0):
        return Lie21(scripted_deck(dealer_hand, other_hand, trump_card, draws), dealer)

    return make
