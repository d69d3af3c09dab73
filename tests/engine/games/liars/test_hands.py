"""Announcements: canonical form, the total order, lowest completions, short forms."""

from __future__ import annotations

import pytest

from engine.games.liars.hands import (
    CATEGORIES,
    ShortFormError,
    canonical,
    category_of,
    describe,
    hand_order,
    parse_short,
)

ON = hand_order(True)
OFF = hand_order(False)


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        ([1, 2, 3, 3, 5], (3, 3, 5, 2, 1)),
        ([2, 4, 2, 4, 4], (4, 4, 4, 2, 2)),
        ([6, 1, 6, 1, 3], (6, 6, 1, 1, 3)),
        ([5, 5, 5, 5, 2], (5, 5, 5, 5, 2)),
        ([1, 3, 4, 5, 6], (6, 5, 4, 3, 1)),
    ],
)
def test_canonical_form_is_groups_first_then_singles_high_to_low(dice, expected):
    assert canonical(dice) == expected


@pytest.mark.parametrize(
    ("hand", "straights", "category"),
    [
        ((6, 4, 3, 2, 1), True, "nothing"),
        ((1, 1, 4, 3, 2), True, "pair"),
        ((2, 2, 1, 1, 3), True, "two_pairs"),
        ((1, 1, 1, 3, 2), True, "three"),
        ((5, 4, 3, 2, 1), True, "small_straight"),
        ((6, 5, 4, 3, 2), True, "large_straight"),
        ((5, 4, 3, 2, 1), False, "nothing"),
        ((6, 5, 4, 3, 2), False, "nothing"),
        ((1, 1, 1, 2, 2), True, "full"),
        ((1, 1, 1, 1, 2), True, "four"),
        ((6, 6, 6, 6, 6), True, "five"),
    ],
)
def test_categories(hand, straights, category):
    assert CATEGORIES[category_of(hand, straights)] == category


# Each pair: the strongest hand of one category, then the weakest of the next (straights on).
BOUNDARIES_ON = [
    ((6, 5, 4, 3, 1), (1, 1, 4, 3, 2)),  # nothing | pair
    ((6, 6, 5, 4, 3), (2, 2, 1, 1, 3)),  # pair | two pairs
    ((6, 6, 5, 5, 4), (1, 1, 1, 3, 2)),  # two pairs | three
    ((6, 6, 6, 5, 4), (5, 4, 3, 2, 1)),  # three | small straight
    ((5, 4, 3, 2, 1), (6, 5, 4, 3, 2)),  # small | large straight
    ((6, 5, 4, 3, 2), (1, 1, 1, 2, 2)),  # large straight | full
    ((6, 6, 6, 5, 5), (1, 1, 1, 1, 2)),  # full | four
    ((6, 6, 6, 6, 5), (1, 1, 1, 1, 1)),  # four | five
]
BOUNDARIES_OFF = [
    ((6, 5, 4, 3, 2), (1, 1, 4, 3, 2)),  # nothing (the large straight is the best) | pair
    ((6, 6, 6, 5, 4), (1, 1, 1, 2, 2)),  # three | full: no straights between
]


@pytest.mark.parametrize(("below", "above"), BOUNDARIES_ON)
def test_every_category_boundary_is_next_in_the_order_with_straights(below, above):
    assert ON.next_hand(below) == above


@pytest.mark.parametrize(("below", "above"), BOUNDARIES_OFF)
def test_every_category_boundary_is_next_in_the_order_without_straights(below, above):
    assert OFF.next_hand(below) == above


def test_the_order_is_total_over_the_252_hands():
    assert len(ON.hands) == len(OFF.hands) == 252
    assert ON.hands[0] == (6, 4, 3, 2, 1) and OFF.hands[0] == (5, 4, 3, 2, 1)
    assert ON.hands[-1] == OFF.hands[-1] == (6, 6, 6, 6, 6)
    assert ON.next_hand((6, 6, 6, 6, 6)) is None


@pytest.mark.parametrize(
    ("lower", "higher"),
    [
        ((3, 3, 4, 2, 1), (3, 3, 5, 2, 1)),  # ruling 1's example: the kicker decides
        ((3, 3, 6, 5, 4), (4, 4, 3, 2, 1)),  # the pair's value before any kicker
        ((5, 5, 1, 1, 6), (5, 5, 2, 2, 1)),  # two pairs: the low pair before the kicker
        ((2, 2, 2, 6, 5), (3, 3, 3, 2, 1)),  # three: the triple before the singles
        ((6, 6, 6, 1, 1), (2, 2, 2, 2, 1)),  # full of 6 by 1 < any four
        ((4, 4, 4, 6, 6), (5, 5, 5, 1, 1)),  # full: the triple first
        ((6, 5, 4, 2, 1), (6, 5, 4, 3, 1)),  # nothing: high to low
    ],
)
def test_within_a_category_hands_compare_in_poker_order(lower, higher):
    assert ON.rank_of[lower] < ON.rank_of[higher]


@pytest.mark.parametrize(
    ("text", "hand"),
    [
        ("pair", (1, 1, 4, 3, 2)),
        ("a pair", (1, 1, 4, 3, 2)),
        ("pair of 3", (3, 3, 4, 2, 1)),
        ("pair of 3s", (3, 3, 4, 2, 1)),
        ("pair of 3 with 5", (3, 3, 5, 2, 1)),
        ("pair of 1 with 6 5", (1, 1, 6, 5, 2)),
        ("two pairs", (2, 2, 1, 1, 3)),
        ("two pairs of 5 and 2", (5, 5, 2, 2, 1)),
        ("two pairs of 5 and 2 with 6", (5, 5, 2, 2, 6)),
        ("three", (1, 1, 1, 3, 2)),
        ("three of a kind of 2", (2, 2, 2, 3, 1)),
        ("three of 2", (2, 2, 2, 3, 1)),
        ("three of 2 with 5", (2, 2, 2, 5, 1)),
        ("small straight", (5, 4, 3, 2, 1)),
        ("large straight", (6, 5, 4, 3, 2)),
        ("full", (1, 1, 1, 2, 2)),
        ("full of 4 by 2", (4, 4, 4, 2, 2)),
        ("full house of 4 by 2", (4, 4, 4, 2, 2)),
        ("full of 4", (4, 4, 4, 1, 1)),
        ("four of 3", (3, 3, 3, 3, 1)),
        ("four of 3 with 6", (3, 3, 3, 3, 6)),
        ("five of 6", (6, 6, 6, 6, 6)),
        ("five", (1, 1, 1, 1, 1)),
        ("nothing", (6, 4, 3, 2, 1)),
        ("3 3 5 2 1", (3, 3, 5, 2, 1)),
        ("1,2,3,3,5", (3, 3, 5, 2, 1)),
        ("  Pair Of 3  With 5 ", (3, 3, 5, 2, 1)),
    ],
)
def test_a_partial_announcement_means_its_lowest_completion(text, hand):
    assert parse_short(text, ON) == hand


def test_nothing_without_straights_is_the_small_run():
    assert parse_short("nothing", OFF) == (5, 4, 3, 2, 1)


@pytest.mark.parametrize(
    "text", ["pair of 7", "a flush", "three of 2 with 2", "pair with 1 1", "", "six of 1"]
)
def test_unreadable_short_forms_are_refused_with_a_hint(text):
    with pytest.raises(ShortFormError):
        parse_short(text, ON)


def test_straights_cannot_be_named_when_they_are_off():
    with pytest.raises(ShortFormError, match="straights are off"):
        parse_short("small straight", OFF)


def test_descriptions_read_back_as_the_same_hand():
    for hand in ON.hands:
        text = describe(hand)
        if not text.startswith("nothing"):
            assert parse_short(text, ON) == hand, text
