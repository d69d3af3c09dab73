"""Counting and scoring rules, table-driven, named after the rule they check."""

import pytest

from engine.games.lie21.cards import DECK, SCORE, counts, move_total, score_of, shuffled, suit_of


def test_deck_has_42_cards_a_to_k_without_8_9_10_plus_two_jokers():
    assert len(DECK) == len(set(DECK)) == 42
    ranks = {c[0] for c in DECK if c[0] != "X"}
    assert ranks == set("A234567JQK")
    assert {c for c in DECK if c[0] == "X"} == {"XR", "XB"}
    assert suit_of("XR") is None and suit_of("XB") is None


@pytest.mark.parametrize(
    ("cards", "total"),
    [
        (["2S", "3S", "4S"], 9),  # number cards count their face value
        (["5H", "6H", "XR"], 11),  # a Joker counts 0
        (["7S", "7H", "2D"], 22),  # a seven counts 10
        (["KS", "QS", "XB"], 16),  # K 9, Q 7
        (["JS", "QH", "6D"], 21),  # J 8
        (["AS", "AH", "XR"], 12),  # designer: A + A + Joker is 12, not blackjack
        (["7S", "7H", "AD"], 21),  # designer: 7 + 7 + A is 21 (the Ace counts 1)
        (["AS", "7D", "XB"], 21),  # designer: A + 7 + Joker is 21 (the Ace counts 11)
        (["AS", "AH", "AD"], 13),  # only one Ace can be 11
        (["AS", "KS", "XR"], 20),  # Ace 11 while the sum stays <= 21
        (["AS", "KS", "2D"], 12),  # 11 + 9 + 2 = 22 > 21, so the Ace counts 1
        (["KS", "KH", "KD"], 27),  # a move can go over 21
    ],
)
def test_move_total_counts_aces_as_11_while_the_sum_stays_at_or_under_21(cards, total):
    assert move_total(cards) == total
    assert sum(counts(cards, "C")) == total


@pytest.mark.parametrize(
    ("cards", "trump", "expected"),
    [
        (["AS", "AH", "XR"], "H", (1, 11, 0)),  # the trump Ace is the one counted 11
        (["AS", "AH", "XR"], "S", (11, 1, 0)),
        (["AS", "AH", "AD"], "D", (1, 1, 11)),
        (["AS", "AH", "AD"], "C", (11, 1, 1)),  # no trump Ace: the first one
        (["AS", "KS", "2D"], "S", (1, 9, 2)),  # cannot be 11 at all
        (["AS", "7D", "XB"], None, (11, 10, 0)),  # no trump (a Joker turned up)
    ],
)
def test_when_only_some_aces_can_be_11_the_trump_ace_is_counted_11(cards, trump, expected):
    assert counts(cards, trump) == expected


@pytest.mark.parametrize(
    ("card", "score"),
    [("AS", 11), ("7H", 10), ("KD", 4), ("JC", 3), ("QS", 2), ("2S", 0), ("6D", 0), ("XR", 0)],
)
def test_card_scores_follow_sueca(card, score):
    assert SCORE[card] == score


def test_all_scores_sum_to_120():
    assert score_of(DECK) == 120


def test_shuffle_is_a_permutation_determined_by_the_seed():
    assert sorted(shuffled(11)) == sorted(DECK)
    assert shuffled(11) == shuffled(11)
    assert shuffled(11) != shuffled(12)
