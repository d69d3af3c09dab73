"""Combinations: what a set of cards is, whether it beats the play on the table, every play.

A combination is a plain tuple ``(kind, length, top, cards)``: ``kind`` one of the
:class:`Kind` numbers, ``length`` its cards (single 1 ... four 4, a sequence its cards, a
double sequence its *pairs*), ``top`` its highest card (by rank, then suit) and ``cards``
the card numbers from low to high. Tuples sort by kind, length and top card, which is the
order ``legal_actions`` lists plays in, and they are cheap: this module is the hot path of
every move.

>>> from engine.games.tieng_len.cards import card
>>> pair = classify(sorted([card("7S"), card("7D")]))
>>> Kind(pair[0]).label, beats(classify(sorted([card("7C"), card("7H")])), pair)
('pair', True)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from itertools import combinations, product

from engine.games.tieng_len.cards import ACE, CODES, TWO

__all__ = [
    "BOMBS_OVER_TWOS",
    "Combo",
    "Kind",
    "beating",
    "beats",
    "by_rank",
    "classify",
    "describe",
    "every_play",
    "is_bomb_over_twos",
]

#: ``(kind, length, top, cards)``; see the module docstring.
Combo = tuple[int, int, int, tuple[int, ...]]


class Kind(enum.IntEnum):
    """The kinds of combination, in the order plays are listed."""

    SINGLE = 0
    PAIR = 1
    TRIPLE = 2
    FOUR = 3  # four of a kind: a bomb
    SEQUENCE = 4  # three or more consecutive ranks, 3 up to A
    DOUBLE_SEQUENCE = 5  # three or more consecutive pairs, 3 up to A; a bomb

    @property
    def label(self) -> str:
        return _LABELS[self]


_LABELS = ("single", "pair", "triple", "four", "sequence", "double_sequence")
SINGLE, PAIR, TRIPLE, FOUR, SEQUENCE, DOUBLE_SEQUENCE = range(6)
_SETS = (SINGLE, PAIR, TRIPLE, FOUR)  # n cards of one rank -> the kind they make

#: What beats a play of 2s besides higher 2s (ruling 2): a single 2 falls to a four or to
#: three consecutive pairs; a pair of 2s to four pairs; three 2s to five pairs.
BOMBS_OVER_TWOS: dict[int, tuple[tuple[int, int], ...]] = {
    SINGLE: ((FOUR, 4), (DOUBLE_SEQUENCE, 3)),
    PAIR: ((DOUBLE_SEQUENCE, 4),),
    TRIPLE: ((DOUBLE_SEQUENCE, 5),),
}


def classify(cards: Sequence[int]) -> Combo | None:
    """The combination ``cards`` (sorted, distinct) make, or None if they make none.

    >>> from engine.games.tieng_len.cards import card
    >>> describe(classify(sorted(card(c) for c in ["5S", "4H", "3D"])))
    'sequence of 3 to 5S'
    >>> classify(sorted(card(c) for c in ["KS", "AS", "2S"])) is None  # 2 is never in one
    True
    """
    n = len(cards)
    if n == 0:
        return None
    top = cards[-1]
    low_rank, top_rank = cards[0] >> 2, top >> 2
    if low_rank == top_rank:  # one rank: at most four cards, since the cards are distinct
        return (_SETS[n - 1], n, top, tuple(cards))
    if top_rank > ACE:
        return None
    if n >= 3 and top_rank - low_rank == n - 1:
        previous = low_rank - 1
        for c in cards:
            if c >> 2 != previous + 1:
                break
            previous += 1
        else:
            return (SEQUENCE, n, top, tuple(cards))
    if n >= 6 and n % 2 == 0 and top_rank - low_rank == n // 2 - 1:
        for i in range(0, n, 2):
            if cards[i] >> 2 != low_rank + i // 2 or cards[i + 1] >> 2 != low_rank + i // 2:
                return None
        return (DOUBLE_SEQUENCE, n // 2, top, tuple(cards))
    return None


def is_bomb_over_twos(play: Combo, current: Combo) -> bool:
    """Whether ``play`` is a bomb beating a play of 2s (ruling 2)."""
    if current[2] >> 2 != TWO:
        return False
    return (play[0], play[1]) in BOMBS_OVER_TWOS.get(current[0], ())


def beats(play: Combo, current: Combo) -> bool:
    """Whether ``play`` may be played on ``current``.

    The same kind and length with a higher top card (rank, then suit: ruling 3); or a bomb
    over exactly the 2s named for it (ruling 2). A bomb played on 2s becomes the play to
    beat as what it is, so only a higher bomb of its own kind and length beats it next.

    >>> from engine.games.tieng_len.cards import card
    >>> def c(*names): return classify(sorted(card(n) for n in names))
    >>> beats(c("9S", "9C", "9D", "9H"), c("2S")), beats(c("9S", "9C", "9D", "9H"), c("2S", "2C"))
    (True, False)
    >>> beats(c("3S", "3C", "4S", "4C", "5S", "5C", "6S", "6C"), c("2S", "2H"))
    True
    """
    if play[0] == current[0] and play[1] == current[1]:
        return play[2] > current[2]
    return is_bomb_over_twos(play, current)


def by_rank(hand: Sequence[int]) -> list[list[int]]:
    """The hand's cards grouped by rank (index 0 = the 3s), each group low suit first."""
    groups: list[list[int]] = [[], [], [], [], [], [], [], [], [], [], [], [], []]
    for c in hand:
        groups[c >> 2].append(c)
    for group in groups:
        if len(group) > 1:
            group.sort()
    return groups


def _sets(groups: list[list[int]], size: int, kind: int, out: list[Combo]) -> None:
    for group in groups:
        if len(group) >= size:
            for chosen in combinations(group, size):
                out.append((kind, size, chosen[-1], chosen))


def _runs(groups: list[list[int]], length: int | None, out: list[Combo]) -> None:
    """Every sequence (of ``length`` cards, or of any length when None)."""
    for start in range(ACE - 1):  # a sequence of three starting at Q ends at A
        if not groups[start]:
            continue
        end = start
        while end + 1 <= ACE and groups[end + 1]:
            end += 1
        lengths = range(3, end - start + 2) if length is None else (length,)
        for n in lengths:
            if start + n - 1 > end:
                break
            for chosen in product(*groups[start : start + n]):
                out.append((SEQUENCE, n, chosen[-1], chosen))


def _pair_runs(groups: list[list[int]], pairs: int | None, out: list[Combo]) -> None:
    """Every double sequence (of ``pairs`` pairs, or of any length when None)."""
    pair_lists = [list(combinations(g, 2)) if len(g) >= 2 else [] for g in groups[: ACE + 1]]
    for start in range(ACE - 1):
        if not pair_lists[start]:
            continue
        end = start
        while end + 1 <= ACE and pair_lists[end + 1]:
            end += 1
        lengths = range(3, end - start + 2) if pairs is None else (pairs,)
        for n in lengths:
            if start + n - 1 > end:
                break
            for chosen in product(*pair_lists[start : start + n]):
                cards = tuple(c for pair in chosen for c in pair)
                out.append((DOUBLE_SEQUENCE, n, cards[-1], cards))


def every_play(hand: Sequence[int]) -> list[Combo]:
    """Every combination the hand can make, sorted (kind, length, top card, cards)."""
    groups = by_rank(hand)
    out: list[Combo] = [(SINGLE, 1, c, (c,)) for c in sorted(hand)]
    _sets(groups, 2, PAIR, out)
    _sets(groups, 3, TRIPLE, out)
    _sets(groups, 4, FOUR, out)
    _runs(groups, None, out)
    _pair_runs(groups, None, out)
    out.sort()
    return out


def beating(hand: Sequence[int], current: Combo) -> list[Combo]:
    """Every combination of the hand that may be played on ``current``, sorted."""
    kind, length, top = current[0], current[1], current[2]
    out: list[Combo] = []
    if kind == SINGLE:
        out = [(SINGLE, 1, c, (c,)) for c in sorted(hand) if c > top]
    else:
        groups = by_rank(hand)
        if kind == SEQUENCE:
            _runs(groups, length, out)
        elif kind == DOUBLE_SEQUENCE:
            _pair_runs(groups, length, out)
        else:
            _sets(groups, length, kind, out)
        out = [play for play in out if play[2] > top]
    if top >> 2 == TWO and kind in BOMBS_OVER_TWOS:
        groups = by_rank(hand)
        for bomb_kind, bomb_length in BOMBS_OVER_TWOS[kind]:
            if bomb_kind == FOUR:
                _sets(groups, 4, FOUR, out)
            else:
                _pair_runs(groups, bomb_length, out)
    out.sort()
    return out


def describe(play: Combo) -> str:
    """A short English name of a play, for messages: ``pair to 7H``, ``sequence of 5 to 9D``."""
    kind, length, top = play[0], play[1], play[2]
    if kind == SEQUENCE:
        return f"sequence of {length} to {CODES[top]}"
    if kind == DOUBLE_SEQUENCE:
        return f"double sequence of {length} pairs to {CODES[top]}"
    return f"{_LABELS[kind]} to {CODES[top]}" if kind else f"single {CODES[top]}"
