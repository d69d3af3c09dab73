"""What a set of cards is, and what beats what: every row is one rule of the arena's reading
(engine/games/tieng_len/rules.md), named in its id."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.games.tieng_len.cards import CODES
from engine.games.tieng_len.combos import (
    Kind,
    beating,
    beats,
    classify,
    every_play,
    listed_beating,
    listed_bombs,
    listed_plays,
    may_beat,
)

from .helpers import combo

KINDS = [
    ("a single card", "9D", "single", 1, "9D"),
    ("a pair", "7S 7D", "pair", 2, "7D"),
    ("a pair of 2s", "2S 2H", "pair", 2, "2H"),
    ("a triple", "QS QC QH", "triple", 3, "QH"),
    ("four of a kind", "5S 5C 5D 5H", "four", 4, "5H"),
    ("four 2s", "2S 2C 2D 2H", "four", 4, "2H"),
    ("the lowest sequence", "3S 4H 5D", "sequence", 3, "5D"),
    ("a sequence in any suits", "9H TS JC QD", "sequence", 4, "QD"),
    ("a sequence may end at the ace", "QS KS AH", "sequence", 3, "AH"),
    ("the longest sequence, 3 to A", "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", "sequence", 12, "AS"),
    ("three consecutive pairs", "3S 3C 4D 4H 5S 5H", "double_sequence", 3, "5H"),
    ("four consecutive pairs", "8S 8C 9S 9C TS TC JS JH", "double_sequence", 4, "JH"),
    ("five consecutive pairs", "4S 4C 5S 5C 6S 6C 7S 7C 8S 8C", "double_sequence", 5, "8C"),
    ("a double sequence may end at the ace", "QS QC KS KC AS AC", "double_sequence", 3, "AC"),
]


@pytest.mark.parametrize(
    ("rule", "cards", "kind", "length", "top"), KINDS, ids=[k[0] for k in KINDS]
)
def test_combinations_are_recognised_with_their_kind_length_and_top_card(
    rule, cards, kind, length, top
):
    found = combo(cards)
    assert found is not None, rule
    assert Kind(found[0]).label == kind
    assert found[1] == length
    assert CODES[found[2]] == top


NOT_COMBINATIONS = [
    ("two cards of different ranks", "7S 8S"),
    ("a sequence of two", "7S 8D"),
    ("a sequence with a gap", "7S 8D TH"),
    ("2 is never in a sequence (K A 2)", "KS AD 2H"),
    ("no wrapping round (A 2 3)", "AS 2D 3H"),
    ("no wrapping round (2 3 4)", "2S 3D 4H"),
    ("a sequence with a repeated rank", "7S 7D 8H 9C"),
    ("two consecutive pairs are not a double sequence", "3S 3C 4S 4C"),
    ("2s are never in a double sequence", "KS KC AS AC 2S 2C"),
    ("pairs with a gap", "3S 3C 4S 4C 6S 6C"),
    ("a triple and a pair", "3S 3C 3D 4S 4C"),
    ("a double sequence with a lone card", "3S 3C 4S 4C 5S 5C 6S"),
    ("a full house is not a combination", "9S 9C 9D KS KH"),
]


@pytest.mark.parametrize(("rule", "cards"), NOT_COMBINATIONS, ids=[n[0] for n in NOT_COMBINATIONS])
def test_other_sets_of_cards_are_no_combination(rule, cards):
    assert combo(cards) is None, rule


BEATS = [
    # same kind and length, higher top card (by rank, then suit)
    ("a higher single", "9S", "8H", True),
    ("within a rank the suit decides (hearts over spades)", "8H", "8S", True),
    ("suits rank spades < clubs < diamonds < hearts", "8C", "8S", True),
    ("a lower suit of the same rank does not beat", "8D", "8H", False),
    ("a 2 beats an ace", "2S", "AH", True),
    ("a higher pair", "9S 9C", "8D 8H", True),
    ("ruling 3: 7C-7H beats 7S-7D", "7C 7H", "7S 7D", True),
    ("ruling 3: 7S-7H beats 7C-7D (the top card decides)", "7S 7H", "7C 7D", True),
    ("ruling 3: 7S-7D does not beat 7C-7H", "7S 7D", "7C 7H", False),
    ("a higher triple", "4S 4C 4D", "3S 3C 3D", True),
    ("a higher sequence of the same length", "4S 5S 6S", "3H 4H 5H", True),
    ("the same sequence ranks, a higher top suit", "3S 4S 5H", "3H 4H 5D", True),
    ("the top card decides a sequence, not its low cards", "3H 4H 5C", "3S 4S 5S", True),
    ("a longer sequence does not beat a shorter", "4S 5S 6S 7S", "3H 4H 5H", False),
    ("a shorter sequence does not beat a longer", "TS JS QS", "3H 4H 5H 6H", False),
    ("a pair does not beat a single", "9S 9C", "8H", False),
    ("a single does not beat a pair", "2H", "8S 8H", False),
    ("a triple does not beat a pair", "9S 9C 9D", "8S 8H", False),
    ("a sequence does not beat a triple", "4S 5S 6S", "3S 3C 3D", False),
    # bombs: ruling 2
    ("a four beats a single 2", "3S 3C 3D 3H", "2H", True),
    ("three consecutive pairs beat a single 2", "3S 3C 4S 4C 5S 5C", "2H", True),
    ("four consecutive pairs beat a pair of 2s", "3S 3C 4S 4C 5S 5C 6S 6C", "2S 2H", True),
    ("five consecutive pairs beat three 2s", "3S 3C 4S 4C 5S 5C 6S 6C 7S 7C", "2S 2C 2H", True),
    ("a four does not beat a pair of 2s", "AS AC AD AH", "2S 2C", False),
    ("three pairs do not beat a pair of 2s", "QS QC KS KC AS AC", "2S 2C", False),
    (
        "four pairs do not beat a single 2 (exactly the 2s named)",
        "3S 3C 4S 4C 5S 5C 6S 6C",
        "2H",
        False,
    ),
    ("five pairs do not beat a pair of 2s", "3S 3C 4S 4C 5S 5C 6S 6C 7S 7C", "2S 2C", False),
    ("four pairs do not beat three 2s", "3S 3C 4S 4C 5S 5C 6S 6C", "2S 2C 2H", False),
    ("a four does not beat three 2s", "AS AC AD AH", "2S 2C 2H", False),
    ("nothing beats four 2s but nothing", "3S 3C 4S 4C 5S 5C 6S 6C 7S 7C", "2S 2C 2D 2H", False),
    ("a four beats a lower four", "9S 9C 9D 9H", "8S 8C 8D 8H", True),
    ("a four does not beat a higher four", "8S 8C 8D 8H", "9S 9C 9D 9H", False),
    (
        "a double sequence beats a lower one of its length",
        "4S 4C 5S 5C 6S 6C",
        "3S 3C 4D 4H 5D 5H",
        True,
    ),
    (
        "the top card decides between double sequences",
        "3S 3H 4S 4H 5S 5H",
        "3C 3D 4C 4D 5C 5D",
        True,
    ),
    (
        "a longer double sequence does not beat a shorter",
        "3S 3C 4S 4C 5S 5C 6S 6C",
        "9S 9C TS TC JS JC",
        False,
    ),
    ("a four does not beat three pairs", "AS AC AD AH", "3S 3C 4S 4C 5S 5C", False),
    ("three pairs do not beat a four", "QS QC KS KC AS AC", "3S 3C 3D 3H", False),
    ("a bomb does not beat a single ace", "3S 3C 3D 3H", "AH", False),
    ("a bomb does not beat a pair below 2s", "3S 3C 4S 4C 5S 5C 6S 6C", "AS AH", False),
    ("a 2 does not beat a bomb played on a 2", "2H", "3S 3C 3D 3H", False),
    ("a pair of 2s beats a lower pair of 2s", "2D 2H", "2S 2C", True),
    ("a sequence is no bomb", "3S 4S 5S 6S 7S 8S", "2H", False),
]


@pytest.mark.parametrize(("rule", "play", "table", "expected"), BEATS, ids=[b[0] for b in BEATS])
def test_what_beats_the_play_on_the_table(rule, play, table, expected):
    assert beats(combo(play), combo(table)) is expected, rule


def _brute_force(hand: list[int]) -> list[tuple]:
    found = []
    for size in range(1, len(hand) + 1):
        for cards in itertools.combinations(sorted(hand), size):
            play = classify(cards)
            if play is not None:
                found.append(play)
    return sorted(found)


@pytest.mark.parametrize("seed", range(12))
def test_every_play_lists_every_combination_of_the_hand_once(seed):
    rng = random.Random(seed)
    size = rng.choice([8, 10, 11])  # brute force over all subsets: keep hands small
    hand = rng.sample(range(52), size) if seed % 3 else rng.sample(range(28), size)
    assert every_play(hand) == _brute_force(hand)


@pytest.mark.parametrize("seed", range(12))
def test_beating_lists_exactly_the_plays_that_beat_the_table(seed):
    rng = random.Random(100 + seed)
    hand = rng.sample(range(40) if seed % 2 else range(52), 11)
    plays = _brute_force(hand)
    tables = [*list(_brute_force(rng.sample(range(52), 11))), combo("2H"), combo("2S 2C")]
    for table in tables:
        assert beating(hand, table) == [p for p in plays if beats(p, table)], table


@pytest.mark.parametrize("seed", range(12))
def test_listed_plays_carry_their_cards_codes(seed):
    """legal_actions copies a listed play's codes: they must be its cards', in order, and the
    plays the same as every_play's and beating's (which are the listed ones without them)."""
    rng = random.Random(200 + seed)
    hand = rng.sample(range(40) if seed % 2 else range(52), rng.choice([5, 11, 13]))
    listed = listed_plays(hand)
    tables = [*every_play(rng.sample(range(52), 11)), combo("2H"), combo("2S 2C"), combo("2D")]
    for table in [None, *tables]:
        plays = listed if table is None else listed_beating(hand, table)
        assert [p[:4] for p in plays] == (
            every_play(hand) if table is None else beating(hand, table)
        )
        for play in plays:
            assert play[4] == tuple(CODES[c] for c in play[3]), play


@pytest.mark.parametrize("seed", range(12))
def test_the_quick_answers_of_legal_actions_agree_with_beating(seed):
    """may_beat says False only where beating finds nothing; listed_bombs lists what beating
    lists of the bombs on a single, a pair or a triple of 2s (legal_actions reads these
    rather than a listing)."""
    rng = random.Random(300 + seed)
    for _ in range(40):
        hand = sorted(rng.sample(range(52), rng.randrange(1, 14)))
        others = [c for c in range(52) if c not in hand]
        for table in every_play(rng.sample(others, min(13, len(others)))):
            if not may_beat(hand, table):
                assert beating(hand, table) == [], (hand, table)
        twos = [c for c in others if c >> 2 == 12]
        for kind in range(min(3, len(twos))):
            table = classify(twos[: kind + 1])
            assert table is not None
            bombs = [p for p in listed_beating(hand, table) if p[0] != kind]
            assert listed_bombs(hand, kind) == bombs, (hand, table)


def test_a_bomb_on_2s_becomes_the_play_to_beat_as_its_own_kind_and_length():
    four = combo("6S 6C 6D 6H")
    assert beats(four, combo("2H"))
    assert beats(combo("7S 7C 7D 7H"), four), "a higher four beats it"
    assert not beats(combo("9S 9C TS TC JS JC"), four), "three pairs do not"
    assert not beats(combo("2S"), four), "nor any 2"
