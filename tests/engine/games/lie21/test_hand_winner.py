"""Who wins a challenged hand: every precedence rule, table-driven."""

import pytest

from engine.games.lie21.rules import Role, WinRule, judge_hand

L, J = Role.LIAR, Role.JUDGE


@pytest.mark.parametrize(
    ("liar", "judge", "trump", "winner", "rule"),
    [
        # One side over 21, the other at or under: the side at or under wins.
        (["KS", "KH", "KD"], ["2S", "3S", "4S"], "C", J, WinRule.BUST),
        (["2S", "3S", "4S"], ["KS", "KH", "KD"], "C", L, WinRule.BUST),
        # Both at or under 21 and different: closer to 21 wins.
        (["AS", "7D", "XB"], ["KH", "QH", "2D"], "C", L, WinRule.CLOSER),
        (["2S", "3S", "4S"], ["KH", "QH", "2D"], "S", J, WinRule.CLOSER),  # trumps do not matter
        # Equal sums: more trump cards wins.
        (["7S", "7H", "AD"], ["KS", "QS", "5D"], "S", J, WinRule.MORE_TRUMPS),
        (["7S", "7H", "AD"], ["KS", "QC", "5D"], "H", L, WinRule.MORE_TRUMPS),
        # Both over 21 (even different sums): more trumps wins.
        (["KS", "KH", "7D"], ["KD", "KC", "QD"], "D", J, WinRule.MORE_TRUMPS),
        (["KS", "KH", "7S"], ["KD", "KC", "QD"], "S", L, WinRule.MORE_TRUMPS),
        # Same number of trumps (> 0): the higher-count trump wins.
        (["7S", "2H", "4D"], ["KS", "5H", "2C"], "S", L, WinRule.HIGHER_TRUMP),  # 7=10 beats K=9
        (["QS", "2H", "4D"], ["JS", "3H", "2C"], "S", J, WinRule.HIGHER_TRUMP),  # J=8 > Q=7
        # An Ace counted 11 is the highest trump; counted 1 it is the lowest.
        (["AH", "7S", "XR"], ["7H", "KC", "2D"], "H", L, WinRule.HIGHER_TRUMP),  # A=11 > 7=10
        (["AH", "KS", "KD"], ["2H", "KC", "JC"], "H", J, WinRule.HIGHER_TRUMP),  # A=1 < 2
        # No trumps on either side: The Liar wins ties.
        (["7S", "7D", "AD"], ["KC", "QC", "5D"], "H", L, WinRule.LIAR_WINS_TIE),
        (["KS", "KH", "KD"], ["KC", "7C", "7D"], "S", L, WinRule.MORE_TRUMPS),
        (["KH", "KD", "7H"], ["KC", "7C", "7D"], "S", L, WinRule.LIAR_WINS_TIE),
        # A Joker turned up: no trump suit, so equal sums go to The Liar.
        (["7S", "7H", "AD"], ["KS", "QS", "5D"], None, L, WinRule.LIAR_WINS_TIE),
    ],
)
def test_hand_winner_precedence(liar, judge, trump, winner, rule):
    got_winner, got_rule, _, _ = judge_hand(liar, judge, trump)
    assert (got_winner, got_rule) == (winner, rule)


def test_jokers_are_never_trump():
    # Equal sums of 21; the Joker of each side is not a trump even with a trump suit set.
    winner, rule, a, b = judge_hand(["AS", "7D", "XB"], ["AH", "7C", "XR"], "S")
    assert (a, b) == (21, 21)
    assert (winner, rule) == (Role.LIAR, WinRule.MORE_TRUMPS)  # the liar's AS is a trump


def test_sums_are_reported():
    assert judge_hand(["AS", "7D", "XB"], ["KH", "QH", "2D"], "C")[2:] == (21, 18)
