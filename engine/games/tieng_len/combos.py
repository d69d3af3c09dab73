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
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from itertools import chain, combinations, product

from engine.games.tieng_len.cards import ACE, CODES, TWO

__all__ = [
    "BOMBS_OVER_TWOS",
    "Combo",
    "Kind",
    "Listed",
    "beating",
    "beats",
    "by_rank",
    "classify",
    "describe",
    "every_play",
    "is_bomb_over_twos",
    "listed_beating",
    "listed_bombs",
    "listed_plays",
    "may_beat",
]

#: ``(kind, length, top, cards)``; see the module docstring.
Combo = tuple[int, int, int, tuple[int, ...]]
#: A combination as a hand's plays are listed: ``(kind, length, top, cards, codes)``, the
#: cards' codes last, made with the cards (by the same C-level iterators) so that listing a
#: play as a legal action copies them rather than translating each card. It sorts as its
#: :data:`Combo` does (two plays' cards differ before their codes are compared).
Listed = tuple[int, int, int, tuple[int, ...], tuple[str, ...]]


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


# Tables by a rank's key, ``rank << 4 | suits`` (a bit per suit the hand holds of the
# rank): what a rank's cards make, built once, so that listing a hand's plays copies
# ready-made plays rather than building each (they are tuples: nothing changes them).
_BIT = tuple(1 << (c & 3) for c in range(52))
_NO_SUITS = [rank << 4 for rank in range(13)]
_GROUP: list[tuple[int, ...]] = []  # the rank's cards held, low suit first
_GROUP_NAMES: list[tuple[str, ...]] = []  # their codes
_PAIRS: list[tuple[tuple[int, ...], ...]] = []  # every pair of them
_PAIR_NAMES: list[tuple[tuple[str, ...], ...]] = []  # the pairs' codes
_SETS_OF: list[list[tuple[Listed, ...]]] = [[], [], [], [], []]  # by size: its sets
_ALL_SETS: list[tuple[Listed, ...]] = []  # the pairs, triples and four, sorted
for _key in range(13 << 4):
    _cards = tuple(((_key >> 4) << 2) + suit for suit in range(4) if _key >> suit & 1)
    _names = tuple(CODES[c] for c in _cards)
    _GROUP.append(_cards)
    _GROUP_NAMES.append(_names)
    _PAIRS.append(tuple(combinations(_cards, 2)))
    _PAIR_NAMES.append(tuple(combinations(_names, 2)))
    for _size in range(2, 5):
        _SETS_OF[_size].append(
            tuple(
                (_SETS[_size - 1], _size, chosen[-1], chosen, shown)
                for chosen, shown in zip(
                    combinations(_cards, _size), combinations(_names, _size), strict=True
                )
            )
        )
    _ALL_SETS.append(_SETS_OF[2][_key] + _SETS_OF[3][_key] + _SETS_OF[4][_key])
#: Each card's single, by its number.
_SINGLES: tuple[Listed, ...] = tuple((SINGLE, 1, c, (c,), (CODES[c],)) for c in range(52))
#: Each rank's cards by its key as links of a sequence: ``((card,), (code,), card)``.
_LINKS: list[tuple[tuple[tuple[int, ...], tuple[str, ...], int], ...]] = [
    tuple(((c,), (CODES[c],), c) for c in cards) for cards in _GROUP
]


#: A card's rank by its number, called by map (a list's __getitem__ is called directly);
#: its rank's bit (none for the 2s, never in a sequence).
_RANK_OF = [c >> 2 for c in range(52)].__getitem__
_RANK_BIT = [1 << (c >> 2) if c >> 2 <= ACE else 0 for c in range(52)].__getitem__


def _keys(hand: Sequence[int]) -> list[int]:
    """Each rank's key (``rank << 4 | suits held``), 3s first."""
    keys = _NO_SUITS.copy()
    for c in hand:
        keys[c >> 2] |= _BIT[c]
    return keys


#: Each rank's bit by its key (``_keys``), for the masks ``_spans`` reads: set when the
#: hand holds the rank (below the 2s); when it holds a pair of it.
_HELD_BIT = tuple(
    (1 << (key >> 4)) if key & 15 and key >> 4 <= ACE else 0 for key in range(13 << 4)
)
_PAIR_BIT = tuple(
    (1 << (key >> 4)) if (key & 15).bit_count() >= 2 and key >> 4 <= ACE else 0
    for key in range(13 << 4)
)


def _spans(mask: int, length: int | None) -> list[tuple[int, int]]:
    """``(start, n)`` of every run of ``n`` consecutive ranks whose bits ``mask`` has (bit r
    for rank r), three ranks or more (``length`` ranks when given), in no set order (the
    plays made of them are sorted).

    Bit r of ``starts`` says that ranks r to r + n - 1 are all held: a shift and an ``&``
    for each length, and a step for each run found, cheaper than walking the ranks.
    """
    spans: list[tuple[int, int]] = []
    starts = mask & mask >> 1
    n = 2
    while starts:
        starts &= mask >> n
        n += 1
        if length is None or n == length:
            found = starts
            while found:
                low = found & -found
                spans.append((low.bit_length() - 1, n))
                found ^= low
            if n == length:
                break
    return spans


def _runs(keys: list[int], length: int | None, out: list[Listed], low: int = 0) -> None:
    """Every sequence (of ``length`` cards, or of any length when None) whose top rank is
    ``low`` or more.

    From each rank that starts three held ranks, the sequences of three are made by one
    comprehension, then each longer one from one a rank shorter by adding a card: cheaper
    than a ``product`` for each run and length, whose set-up cost more than the two or
    three sequences it made (``docs/engine-speed.md``).
    """
    mask = sum(map(_HELD_BIT.__getitem__, keys))
    firsts = mask & mask >> 1 & mask >> 2  # bit r: ranks r, r + 1 and r + 2 held
    while firsts:
        bit = firsts & -firsts
        firsts ^= bit
        first = bit.bit_length() - 1
        last = first + 2
        while mask >> last + 1 & 1:
            last += 1
        if length is not None:
            if first + length - 1 > last:
                continue
            last = first + length - 1
        if last < low:
            continue
        seqs: list[Listed] = [
            (SEQUENCE, 3, top, low_cards + cards + card, low_codes + codes + code)
            for low_cards, low_codes, _ in _LINKS[keys[first]]
            for cards, codes, _ in _LINKS[keys[first + 1]]
            for card, code, top in _LINKS[keys[first + 2]]
        ]
        if first + 2 >= low and (length is None or length == 3):
            out += seqs
        for rank in range(first + 3, last + 1):
            seqs = [
                (SEQUENCE, rank - first + 1, top, cards + card, codes + code)
                for _, _, _, cards, codes in seqs
                for card, code, top in _LINKS[keys[rank]]
            ]
            if rank >= low and (length is None or rank == last):
                out += seqs


def _pair_runs(keys: list[int], pairs: int | None, out: list[Listed]) -> None:
    """Every double sequence (of ``pairs`` pairs, or of any length when None)."""
    spans = _spans(sum(map(_PAIR_BIT.__getitem__, keys)), pairs)
    if spans:
        pair_lists = [*map(_PAIRS.__getitem__, keys)]
        name_lists = [*map(_PAIR_NAMES.__getitem__, keys)]
        for start, n in spans:
            chosen_codes = zip(
                product(*pair_lists[start : start + n]),
                product(*name_lists[start : start + n]),
                strict=True,
            )
            for chosen, codes in chosen_codes:
                cards = tuple(chain.from_iterable(chosen))
                out.append(
                    (DOUBLE_SEQUENCE, n, cards[-1], cards, tuple(chain.from_iterable(codes)))
                )


def listed_plays(hand: Sequence[int]) -> list[Listed]:
    """Every combination the hand can make, sorted (kind, length, top card, cards), each
    with its cards' codes (:data:`Listed`)."""
    hand = sorted(hand)
    keys = _keys(hand)
    out = [*map(_SINGLES.__getitem__, hand)]
    out += chain.from_iterable(map(_ALL_SETS.__getitem__, keys))
    _runs(keys, None, out)
    _pair_runs(keys, None, out)
    out.sort()
    return out


def every_play(hand: Sequence[int]) -> list[Combo]:
    """Every combination the hand can make, sorted (kind, length, top card, cards)."""
    return [play[:4] for play in listed_plays(hand)]


def listed_beating(hand: Sequence[int], current: Combo) -> list[Listed]:
    """Every combination of the hand that may be played on ``current``, sorted, each with
    its cards' codes (:data:`Listed`)."""
    kind, length, top = current[0], current[1], current[2]
    hand = sorted(hand)
    keys = _keys(hand)
    out: list[Listed]
    if kind == SINGLE:
        out = [*map(_SINGLES.__getitem__, hand[bisect_right(hand, top) :])]
    else:
        if kind == SEQUENCE:
            out = []
            _runs(keys, length, out, top >> 2)  # the runs that may beat it: none lower
        elif kind == DOUBLE_SEQUENCE:
            out = []
            _pair_runs(keys, length, out)
        else:
            out = [*chain.from_iterable(map(_SETS_OF[length].__getitem__, keys))]
        out = [play for play in out if play[2] > top]
    if top >> 2 == TWO and kind in BOMBS_OVER_TWOS:
        _bombs(keys, kind, out)
    out.sort()
    return out


def _bombs(keys: list[int], kind: int, out: list[Listed]) -> None:
    """The bombs that beat a play of 2s of ``kind`` (:data:`BOMBS_OVER_TWOS`), unsorted."""
    for bomb_kind, bomb_length in BOMBS_OVER_TWOS[kind]:
        if bomb_kind == FOUR:
            out += chain.from_iterable(map(_SETS_OF[4].__getitem__, keys))
        else:
            _pair_runs(keys, bomb_length, out)


def listed_bombs(hand: Sequence[int], kind: int) -> list[Listed]:
    """The combinations of the (sorted) hand that bomb a play of 2s of ``kind`` (a single,
    a pair or a triple: ruling 2), sorted, with their codes.

    Each such bomb holds ``kind + 3`` cards more than it has ranks (a four, three pairs;
    four pairs; five pairs), so a hand with fewer cards over its ranks has none: told by
    C-level calls, as most hands are, before any listing.
    """
    if len(hand) - len({*map(_RANK_OF, hand)}) < kind + 3:
        return []
    out: list[Listed] = []
    _bombs(_keys(hand), kind, out)
    out.sort()
    return out


def may_beat(hand: Sequence[int], current: Combo) -> bool:
    """False when the (sorted) hand surely holds nothing that beats a pair or a sequence
    that is not of 2s (True otherwise, and for every other play): most hands hold nothing,
    and this tells so by a few C-level calls rather than a listing.

    A pair that beats needs two cards of a rank from the pair's up; a sequence that beats,
    ``length`` held ranks in a row up to the sequence's top rank or higher.
    """
    kind, length, rank = current[0], current[1], current[2] >> 2
    if rank == TWO:
        return True
    if kind == PAIR:
        above = hand[bisect_left(hand, rank << 2) :]
        return len(above) > len({*map(_RANK_OF, above)})
    if kind == SEQUENCE:
        mask = sum({*map(_RANK_BIT, hand)})
        starts = mask
        for shift in range(1, length):
            starts &= mask >> shift
        return starts >> rank - length + 1 != 0
    return True


def beating(hand: Sequence[int], current: Combo) -> list[Combo]:
    """Every combination of the hand that may be played on ``current``, sorted."""
    return [play[:4] for play in listed_beating(hand, current)]


def describe(play: Combo) -> str:
    """A short English name of a play, for messages: ``pair to 7H``, ``sequence of 5 to 9D``."""
    kind, length, top = play[0], play[1], play[2]
    if kind == SEQUENCE:
        return f"sequence of {length} to {CODES[top]}"
    if kind == DOUBLE_SEQUENCE:
        return f"double sequence of {length} pairs to {CODES[top]}"
    return f"{_LABELS[kind]} to {CODES[top]}" if kind else f"single {CODES[top]}"
