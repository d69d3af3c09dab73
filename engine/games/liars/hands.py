"""Poker-dice hands: the canonical form, the total order of announcements, the short forms.

An announcement is always a full five-dice hand. Its **canonical form** is a list of five dice
in poker order: the grouped dice first (larger group first, then higher value), then the
single dice from high to low, e.g. ``[3, 3, 5, 2, 1]`` for "a pair of 3s with a 5". Within a
category, hands compare by that list (ruling 2), so the 252 hands of five dice are totally
ordered; :func:`hand_order` builds the order for straights on or off (with straights off,
1-2-3-4-5 and 2-3-4-5-6 are ordinary "nothing" hands, ruling 3).

A partial announcement ("a pair", "three of 2 with 5") means its **lowest completion**: the
lowest hand of that category holding what was named (:func:`parse_short`).

>>> order = hand_order(straights=True)
>>> order.hands[0], order.hands[-1]
((6, 4, 3, 2, 1), (6, 6, 6, 6, 6))
>>> parse_short("pair of 3", order)
(3, 3, 4, 2, 1)
>>> order.next_hand((3, 3, 4, 2, 1))
(3, 3, 5, 2, 1)
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable, Sequence

__all__ = [
    "CANONICAL",
    "CATEGORIES",
    "FIVE",
    "NOTHING",
    "HandOrder",
    "canonical",
    "category_of",
    "describe",
    "hand_order",
    "parse_short",
]

#: Categories from weakest to strongest; the index is the category's strength.
CATEGORIES = (
    "nothing",
    "pair",
    "two_pairs",
    "three",
    "small_straight",
    "large_straight",
    "full",
    "four",
    "five",
)
NOTHING, PAIR, TWO_PAIRS, THREE, SMALL, LARGE, FULL, FOUR, FIVE = range(9)

Hand = tuple[int, int, int, int, int]


def canonical(dice: Iterable[int]) -> Hand:
    """Five dice in poker order: groups (larger, then higher) first, singles high to low.

    >>> canonical([2, 3, 3, 1, 5])
    (3, 3, 5, 2, 1)
    >>> canonical([2, 4, 2, 4, 4])
    (4, 4, 4, 2, 2)
    """
    counts = [0] * 7
    for value in dice:
        counts[value] += 1
    groups = sorted(((c, v) for v, c in enumerate(counts) if c), reverse=True)
    out: list[int] = []
    for count, value in groups:
        out.extend([value] * count)
    return tuple(out)  # type: ignore[return-value]


#: The canonical hand of five dice in any order, by the dice as they lie (every one of the
#: 7,776): what :func:`canonical` computes, looked up.
_BY_SORTED: dict[tuple[int, ...], Hand] = {
    d: canonical(d) for d in itertools.combinations_with_replacement(range(1, 7), 5)
}
CANONICAL: dict[tuple[int, ...], Hand] = {
    dice: _BY_SORTED[tuple(sorted(dice))] for dice in itertools.product(range(1, 7), repeat=5)
}


def category_of(hand: Sequence[int], straights: bool = True) -> int:
    """The category index of a canonical hand.

    >>> CATEGORIES[category_of((5, 4, 3, 2, 1))], CATEGORIES[category_of((5, 4, 3, 2, 1), False)]
    ('small_straight', 'nothing')
    """
    a, b, c, d, e = hand
    if a == e:
        return FIVE
    if a == d:
        return FOUR
    if a == c:
        return FULL if d == e else THREE
    if a == b:
        return TWO_PAIRS if c == d else PAIR
    if straights and a - e == 4:
        return LARGE if a == 6 else SMALL
    return NOTHING


class HandOrder:
    """The total order of the 252 hands for one setting of the straights option.

    ``rank_of[hand]`` is the hand's place (0 = weakest) by canonical hand; ``rank_sorted``
    maps the dice sorted ascending to the same rank (the fast way from thrown dice).
    """

    __slots__ = ("category", "hands", "rank_by_dice", "rank_of", "rank_sorted", "straights")

    def __init__(self, straights: bool) -> None:
        self.straights = straights
        every = {canonical(d) for d in itertools.combinations_with_replacement(range(1, 7), 5)}
        ordered = sorted(every, key=lambda h: (category_of(h, straights), h))
        self.hands: tuple[Hand, ...] = tuple(ordered)
        self.rank_of: dict[Hand, int] = {h: r for r, h in enumerate(ordered)}
        self.rank_sorted: dict[tuple[int, ...], int] = {
            tuple(sorted(h)): r for r, h in enumerate(ordered)
        }
        self.category: tuple[int, ...] = tuple(category_of(h, straights) for h in ordered)
        #: The rank of five dice in any order, by the dice as they lie (all 7,776 of them):
        #: one dictionary look-up where the rules rank thrown dice on every announcement.
        self.rank_by_dice: dict[tuple[int, ...], int] = {
            dice: self.rank_of[hand] for dice, hand in CANONICAL.items()
        }

    def rank_of_dice(self, dice: Iterable[int]) -> int:
        """The rank of five dice in any order."""
        return self.rank_by_dice[tuple(dice)]

    def next_hand(self, hand: Hand) -> Hand | None:
        """The hand just above ``hand`` in the total order (None above five 6s)."""
        rank = self.rank_of[hand] + 1
        return self.hands[rank] if rank < len(self.hands) else None

    def lowest_of(self, category: int) -> int:
        """The rank of the weakest hand of a category."""
        return self.category.index(category)


@functools.cache
def hand_order(straights: bool = True) -> HandOrder:
    """The (cached) order for straights on or off."""
    return HandOrder(straights)


_VALUE = r"([1-6])s?"
_WORDS = {
    "nothing": NOTHING,
    "pair": PAIR,
    "two pairs": TWO_PAIRS,
    "three": THREE,
    "three of a kind": THREE,
    "small straight": SMALL,
    "large straight": LARGE,
    "full": FULL,
    "full house": FULL,
    "four": FOUR,
    "four of a kind": FOUR,
    "five": FIVE,
    "five of a kind": FIVE,
}
_SHORT = re.compile(
    r"^(?:an? )?(?P<what>nothing|pair|two pairs|three(?: of a kind)?|small straight|"
    r"large straight|full(?: house)?|four(?: of a kind)?|five(?: of a kind)?)"
    r"(?: of (?P<first>[1-6])s?(?: (?:and|by) (?P<second>[1-6])s?)?)?"
    r"(?: with (?P<kickers>[1-6]s?(?:(?: and |, | )[1-6]s?)*))?$"
)
_DIGITS = re.compile(r"^[1-6](?:[ ,-]*[1-6]){4}$")


class ShortFormError(ValueError):
    """A short form the parser cannot read; the message says what it expected."""


def parse_short(text: str, order: HandOrder) -> Hand:
    """Read a short announcement ("three of 2 with 5", "3 3 5 2 1") as its canonical hand.

    A partial announcement means the lowest hand of its category that holds what it names.

    >>> order = hand_order(True)
    >>> [parse_short(t, order) for t in ("pair", "three of 2", "three of 2 with 5", "full")]
    [(1, 1, 4, 3, 2), (2, 2, 2, 3, 1), (2, 2, 2, 5, 1), (1, 1, 1, 2, 2)]
    >>> parse_short("full of 4 by 2", order), parse_short("nothing", order)
    ((4, 4, 4, 2, 2), (6, 4, 3, 2, 1))
    """
    cleaned = " ".join(text.lower().replace("'", "").split())
    if _DIGITS.match(cleaned):
        return canonical(int(ch) for ch in cleaned if ch.isdigit())
    match = _SHORT.match(cleaned)
    if match is None:
        raise ShortFormError(
            "cannot read that announcement: write five dice like [3, 3, 5, 2, 1] or a short "
            "form like 'pair of 3 with 5', 'two pairs of 5 and 2', 'full of 4 by 2'"
        )
    what = _WORDS[match["what"]]
    if what in (SMALL, LARGE) and not order.straights:
        raise ShortFormError("straights are off in this match")
    first = int(match["first"]) if match["first"] else None
    second = int(match["second"]) if match["second"] else None
    kickers = [int(ch) for ch in match["kickers"] or "" if ch.isdigit()]
    for rank, hand in enumerate(order.hands):
        if order.category[rank] == what and _holds(hand, what, first, second, kickers):
            return hand
    raise ShortFormError("no hand of that category holds those dice")


def _holds(hand: Hand, what: int, first: int | None, second: int | None, kick: list[int]) -> bool:
    """Whether a canonical hand has the named group values and kickers."""
    size = {PAIR: 2, TWO_PAIRS: 4, THREE: 3, FULL: 5, FOUR: 4, FIVE: 5}.get(what, 0)
    if first is not None:
        if what == TWO_PAIRS:
            pairs = {hand[0], hand[2]}
            if first not in pairs or (second is not None and {first, second} != pairs):
                return False
        elif what == FULL:
            if hand[0] != first or (second is not None and hand[3] != second):
                return False
        elif size == 0 or hand[0] != first or second is not None:
            return False
    elif second is not None:
        return False
    singles = list(hand[size:])
    for value in kick:
        if value not in singles:
            return False
        singles.remove(value)
    return True


def describe(hand: Sequence[int], straights: bool = True) -> str:
    """A hand in words, for transcripts and the renderer's captions.

    >>> describe((3, 3, 5, 2, 1)), describe((4, 4, 4, 2, 2)), describe((6, 5, 4, 3, 2))
    ('pair of 3 with 5 2 1', 'full of 4 by 2', 'large straight')
    """
    kind = category_of(hand, straights)
    if kind == NOTHING:
        return "nothing " + " ".join(map(str, hand))
    if kind in (SMALL, LARGE):
        return CATEGORIES[kind].replace("_", " ")
    if kind == FULL:
        return f"full of {hand[0]} by {hand[3]}"
    if kind == TWO_PAIRS:
        return f"two pairs of {hand[0]} and {hand[2]} with {hand[4]}"
    size = {PAIR: 2, THREE: 3, FOUR: 4, FIVE: 5}[kind]
    rest = hand[size:]
    text = f"{CATEGORIES[kind]} of {hand[0]}"
    return text + (" with " + " ".join(map(str, rest)) if rest else "")
