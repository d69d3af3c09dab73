"""The Tieng Len pack: 52 cards, 2 high and 3 low, suits spades < clubs < diamonds < hearts.

Inside the engine a card is an integer ``rank * 4 + suit`` (0 = 3 of spades, 51 = 2 of
hearts), so comparing two cards is comparing two integers: rank first, then suit, exactly
as the rules compare them. Bots and replays see two-character codes, rank then suit:
``3S``, ``TD`` (ten of diamonds), ``AH``, ``2C``.

>>> code(0), code(51), card("TD"), rank_of(card("2S")) == TWO
('3S', '2H', 30, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from engine.draws import shuffle

__all__ = [
    "ACE",
    "CODES",
    "DECK_SIZE",
    "HAND_SIZE",
    "INDEX",
    "RANKS",
    "SUITS",
    "TWO",
    "card",
    "code",
    "codes",
    "rank_of",
    "shuffled",
    "suit_of",
]

RANKS = "3456789TJQKA2"  # low to high: 2 is the highest rank
SUITS = "SCDH"  # low to high: spades, clubs, diamonds, hearts
DECK_SIZE = 52
HAND_SIZE = 13
ACE = RANKS.index("A")  # 11: the highest rank a sequence may reach
TWO = RANKS.index("2")  # 12: never in a sequence

#: Code of every card by its number, and the number of every code.
CODES: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
INDEX: dict[str, int] = {c: i for i, c in enumerate(CODES)}


def card(text: str) -> int:
    """The number of a card code (KeyError for anything else)."""
    return INDEX[text]


def code(number: int) -> str:
    return CODES[number]


def codes(numbers: Iterable[int]) -> list[str]:
    """Codes of cards, in the order given (a fresh list)."""
    return [CODES[c] for c in numbers]


def rank_of(number: int) -> int:
    return number >> 2


def suit_of(number: int) -> int:
    return number & 3


def shuffled(seed: int) -> list[int]:
    """The whole pack in the order a game's seed shuffles it (the first cards dealt first).

    >>> shuffled(7) == shuffled(7) and sorted(shuffled(7)) == list(range(52))
    True
    """
    deck = list(range(DECK_SIZE))
    shuffle(random.Random(seed), deck)  # random.shuffle's order, written out
    return deck
