"""The Lie 21 deck, and how its cards count (for hands) and score (for games).

Cards are two-character strings, rank then suit (``"AS"``, ``"7H"``, ``"QD"``, ``"KC"``;
Jokers ``"XR"`` and ``"XB"``). Strings are the wire format bots see and they are fast
dictionary keys, so the engine uses them throughout instead of wrapping them in objects.

>>> len(DECK), DECK[0], DECK[-1]
(42, 'AS', 'XB')
>>> move_total(["AS", "AH", "XR"])
12
>>> move_total(["7S", "7H", "AD"]), move_total(["AS", "7D", "XB"])
(21, 21)
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable, Sequence

__all__ = [
    "DECK",
    "HANDS_PER_GAME",
    "HAND_SIZE",
    "JOKERS",
    "ORDER",
    "RANKS",
    "SCORE",
    "SUITS",
    "counts",
    "is_trump",
    "move_total",
    "score_of",
    "shuffled",
    "suit_of",
]

RANKS = "A234567JQK"
SUITS = "SHDC"
JOKERS = ("XR", "XB")
#: Six cards a player holds; every hand uses three from each side, so 42 cards last 7 hands.
HAND_SIZE = 6
HANDS_PER_GAME = 7
#: The canonical order: by suit (spades, hearts, diamonds, clubs), Ace to King, then Jokers.
DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS) + JOKERS
#: Position of each card in the canonical order (hands themselves are sorted by card code).
ORDER: dict[str, int] = {card: i for i, card in enumerate(DECK)}

_RANK_COUNT = {
    "A": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 10,
    "J": 8,
    "Q": 7,
    "K": 9,
}
_RANK_SCORE = {"A": 11, "7": 10, "K": 4, "J": 3, "Q": 2}

#: Count of each card with every Ace as 1 (the soft total raises Aces to 11 where it can).
BASE_COUNT: dict[str, int] = {card: _RANK_COUNT.get(card[0], 0) for card in DECK}
#: Score of each card at game end: A 11, 7 10, K 4, J 3, Q 2, others 0 (120 in all).
SCORE: dict[str, int] = {card: _RANK_SCORE.get(card[0], 0) for card in DECK}
_SUIT: dict[str, str | None] = {card: (None if card in JOKERS else card[1]) for card in DECK}
_DECK_SIZE = len(DECK)
_POSITIONS = range(_DECK_SIZE)
_UNPACK_KEYS = struct.Struct(f"<{_DECK_SIZE}Q").unpack  # compiled once, not per deal


def shuffled(seed: int) -> list[str]:
    """The deck in the order one game's seed gives it, top card first.

    Each card gets a 64-bit key from SHAKE-128 of the seed (8 bytes, little-endian) and the
    deck is sorted by key. That is a uniform shuffle, it is defined by a standard hash
    rather than by Python's random module (any language can reproduce a deal), and it costs
    a few microseconds where ``random.Random(seed).shuffle`` costs three times more.

    >>> shuffled(1) == shuffled(1) != shuffled(2)
    True
    """
    keys = _UNPACK_KEYS(hashlib.shake_128(seed.to_bytes(8, "little")).digest(8 * _DECK_SIZE))
    # A list's __getitem__ is called as a plain builtin method; a tuple's goes through a
    # slot wrapper, which made the 42 key calls cost a fifth of the deal.
    return [DECK[i] for i in sorted(_POSITIONS, key=list(keys).__getitem__)]


def suit_of(card: str) -> str | None:
    """The card's suit letter; Jokers have none."""
    return _SUIT[card]


def is_trump(card: str, trump_suit: str | None) -> bool:
    """Jokers are never trump, and a game whose turned-up card is a Joker has no trump."""
    return trump_suit is not None and _SUIT[card] == trump_suit


def score_of(cards: Iterable[str]) -> int:
    """Game points of a pile of won cards."""
    return sum(SCORE[c] for c in cards)


def counts(cards: Sequence[str], trump_suit: str | None) -> tuple[int, ...]:
    """Each card's count within one move, in the order given (the blackjack soft total).

    Every Ace counts 1, then Aces are raised to 11 one at a time while the move's sum stays
    at or under 21. When only some can be raised, the trump Ace is raised first: that makes
    it the move's highest trump for the tie-break, and the choice is the arena's reading.

    >>> counts(["AS", "AH", "XR"], trump_suit="H")
    (1, 11, 0)
    >>> counts(["AS", "AH", "AD"], trump_suit="D")
    (1, 1, 11)
    """
    values = [BASE_COUNT[c] for c in cards]
    total = sum(values)
    aces = [i for i, c in enumerate(cards) if c[0] == "A"]
    aces.sort(key=lambda i: _SUIT[cards[i]] != trump_suit)  # trump Ace first, else stable
    for i in aces:
        if total + 10 > 21:
            break
        values[i] = 11
        total += 10
    return tuple(values)


def move_total(cards: Sequence[str]) -> int:
    """The sum of one move's counts, with the soft-Ace rule (which Ace is raised does not
    change the sum, so the trump suit is not needed here)."""
    total = 0
    aces = 0
    for c in cards:
        total += BASE_COUNT[c]
        if c[0] == "A":
            aces += 1
    while aces and total + 10 <= 21:
        total += 10
        aces -= 1
    return total
