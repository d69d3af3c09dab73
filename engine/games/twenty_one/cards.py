"""The cards of Twenty One: the playing deck (1 to 11) and the trump deck.

Trumps are named by short lower-case ids (``"remove"``, ``"go_for_24"``, ``"card_3"``,
``"add_7"``); :data:`TRUMP_ORDER` fixes the order every list of trumps is shown in (hands,
legal actions), so nothing about the order a seat drew its trumps in is ever shown.

>>> standard_trumps(dealer_mode=False)["remove"], len(standard_trumps(dealer_mode=False))
(2, 18)
>>> [sum(standard_trumps(dealer_mode=mode).values()) for mode in (False, True)]
[23, 34]
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

__all__ = [
    "ADD_TRUMPS",
    "CARDS",
    "CARD_TRUMPS",
    "GO_FOR",
    "MAX_COPIES",
    "RESOLVING",
    "STAKE_UP",
    "TABLE_TRUMPS",
    "TRUMP_ORDER",
    "TRUMP_RANK",
    "standard_trumps",
    "trump_deck",
]

#: The playing deck: one card of each number 1 to 11.
CARDS: tuple[int, ...] = tuple(range(1, 12))

#: "2-Card" ... "7-Card": take that number from the playing deck if it is still there.
CARD_TRUMPS: dict[str, int] = {f"card_{n}": n for n in range(2, 8)}
#: Dealer mode only: "Add Number" cards, one for each value 1 to 11.
ADD_TRUMPS: dict[str, int] = {f"add_{n}": n for n in CARDS}
#: "Go For 17 / 24 / 27": the round's target.
GO_FOR: dict[str, int] = {"go_for_17": 17, "go_for_24": 24, "go_for_27": 27}
#: What One-Up and Two-Up add to the opponent's stake.
STAKE_UP: dict[str, int] = {"one_up": 1, "two_up": 2}

#: Every trump id, in the order lists of trumps are shown in.
TRUMP_ORDER: tuple[str, ...] = (
    *CARD_TRUMPS,
    "perfect_draw",
    "remove",
    "return",
    "exchange",
    *GO_FOR,
    "one_up",
    "two_up",
    "shield",
    "destroy",
    "trump_switch",
    *ADD_TRUMPS,
)
TRUMP_RANK: dict[str, int] = {name: rank for rank, name in enumerate(TRUMP_ORDER)}

#: Trumps that lie on the table until the round ends; every other trump resolves at once.
TABLE_TRUMPS: frozenset[str] = frozenset({*GO_FOR, "one_up", "two_up", "shield"})
RESOLVING: frozenset[str] = frozenset(TRUMP_ORDER) - TABLE_TRUMPS

#: Most copies of one trump an option may ask for (keeps a custom deck sane).
MAX_COPIES = 8

_TWO_PLAYER: dict[str, int] = {
    **dict.fromkeys(CARD_TRUMPS, 1),
    "perfect_draw": 1,
    "remove": 2,
    "return": 2,
    "exchange": 2,
    **dict.fromkeys(GO_FOR, 1),
    "one_up": 2,
    "two_up": 1,
    "shield": 2,
    "destroy": 1,
    "trump_switch": 1,
}


def standard_trumps(*, dealer_mode: bool) -> dict[str, int]:
    """The issue's trump deck (copies per trump); dealer mode adds one Add Number per value."""
    counts = dict(_TWO_PLAYER)
    if dealer_mode:
        counts.update(dict.fromkeys(ADD_TRUMPS, 1))
    return counts


def trump_deck(counts: Mapping[str, int]) -> list[str]:
    """Every trump card of a deck, in :data:`TRUMP_ORDER` (shuffle it before use).

    >>> trump_deck({"shield": 2, "remove": 1})
    ['remove', 'shield', 'shield']
    """
    return [*_deck(tuple(counts.items()))]


@functools.lru_cache(maxsize=16)
def _deck(counts: tuple[tuple[str, int], ...]) -> tuple[str, ...]:
    """:func:`trump_deck` of the counts, kept: every game builds its deck from the same few
    sets of counts, and writing one out cost some 50,000 instructions (1.3% of a game)."""
    copies = dict(counts)
    return tuple(name for name in TRUMP_ORDER for _ in range(copies.get(name, 0)))
