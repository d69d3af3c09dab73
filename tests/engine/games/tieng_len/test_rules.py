"""The rules of one game, each test named after the rule it checks (its ``rules.md``).

Positions are built from scripted hands (``helpers.game``): seats play in increasing order
round the table, and the hands need not be thirteen cards long.
"""

from __future__ import annotations

import pytest

from engine.game import IllegalMove
from engine.games.tieng_len import TiengLen
from engine.games.tieng_len.cards import INDEX

from .helpers import game, pass_, play, types

# --- passing and taking the lead ------------------------------------------------------------


def test_the_leader_plays_any_combination_and_may_not_pass():
    state = game("3S 3C 9D", "4S 5S", "6S 7S", "8S 9S")
    actions = state.legal_actions(0)
    assert {"pass": True} not in actions
    assert {"cards": ["3S", "3C"]} in actions and {"cards": ["9D"]} in actions
    with pytest.raises(IllegalMove, match="you lead this trick"):
        pass_(state, 0)


def test_a_follower_may_pass_or_beat_the_play_and_nothing_else():
    state = game("3S 3C 9D", "4S 5S 5C", "6S 7S", "8S 9S")
    play(state, 0, "3S 3C")
    assert state.to_act() == 1
    assert state.legal_actions(1) == [{"cards": ["5S", "5C"]}, {"pass": True}]
    with pytest.raises(IllegalMove, match="does not beat"):
        play(state, 1, "4S")


def test_a_seat_that_passed_is_skipped_until_someone_takes_the_lead():
    state = game("3S 8H KD", "4S 9D", "7S 2C", "5S 6D")
    play(state, 0, "3S")
    pass_(state, 1)
    play(state, 2, "7S")
    pass_(state, 3)
    play(state, 0, "8H")
    assert state.to_act() == 2, "seat 1 passed in this trick: its turn is skipped"
    with pytest.raises(IllegalMove, match="not seat 1's turn"):
        play(state, 1, "9D")


def test_ruling_1_a_seat_that_passed_may_not_bomb_a_2_later_in_the_trick():
    state = game("3S 2H KD", "5S 5C 5D 5H 9D", "7S 8S", "4S 6D")
    play(state, 0, "3S")
    pass_(state, 1)  # it holds a four, and passes on a 3
    play(state, 2, "7S")
    pass_(state, 3)
    play(state, 0, "2H")
    assert state.to_act() == 2, "the four's holder passed: it does not get to bomb the 2"
    events = pass_(state, 2)
    assert types(events) == ["pass", "lead"]
    assert events[-1]["public"]["seat"] == 0
    assert state.to_act() == 0 and state.current is None


def test_when_everyone_else_has_passed_the_last_player_leads_anything():
    state = game("3S 4D 9C", "5S 6S", "7S 8S", "TS JS")
    play(state, 0, "3S")
    play(state, 1, "6S")
    pass_(state, 2)
    pass_(state, 3)
    events = pass_(state, 0)
    assert types(events) == ["pass", "lead"]
    assert state.to_act() == 1
    assert state.legal_actions(1) == [{"cards": ["5S"]}], "a lead: no pass, any combination"


def test_a_seat_that_has_not_passed_may_play_again_in_the_trick():
    state = game("3S 9C JD", "5S QS", "7S 8S", "TS KS")
    play(state, 0, "3S")
    play(state, 1, "5S")
    play(state, 2, "7S")
    play(state, 3, "TS")
    assert state.to_act() == 0
    play(state, 0, "JD")
    assert state.to_act() == 1
    play(state, 1, "QS")
    assert state.to_act() == 2


# --- going out and the lead passing on --------------------------------------------------------


def test_ruling_4_a_seat_that_goes_out_does_not_end_the_trick():
    state = game("9S", "TS 4C", "JS 5C", "QS 6C")
    events = play(state, 0, "9S")
    assert types(events) == ["play", "out"]
    assert events[1]["public"] == {"seat": 0, "rank": 0}
    assert state.to_act() == 1 and state.current is not None
    play(state, 1, "TS")
    assert state.to_act() == 2


def test_ruling_4_the_lead_passes_to_the_next_seat_even_if_it_passed():
    state = game("9S", "3D 4C", "5D 5C", "4S 6C", leader=3)
    play(state, 3, "4S")
    play(state, 0, "9S")  # seat 0's last card
    pass_(state, 1)
    pass_(state, 2)
    events = pass_(state, 3)
    assert types(events) == ["pass", "lead"]
    assert events[-1]["public"]["seat"] == 1, "the seat after the one who went out"
    assert state.to_act() == 1


def test_ruling_4_the_lead_skips_seats_already_out():
    state = game("9S", "3D", "5D 5C", "4S 6C 7C", leader=3)
    play(state, 3, "4S")
    play(state, 0, "9S")  # out
    pass_(state, 1)
    pass_(state, 2)
    pass_(state, 3)
    assert state.to_act() == 1
    play(state, 1, "3D")  # out: seat 2 and 3 still hold cards
    pass_(state, 2)
    events = pass_(state, 3)
    assert events[-1] == {"type": "lead", "public": {"seat": 2, "trick": 3}}


def test_a_play_on_the_last_cards_of_a_seat_can_still_be_beaten():
    state = game("9S", "TS 3C", "5D 5C", "4S 6C", leader=3)
    play(state, 3, "4S")
    play(state, 0, "9S")
    play(state, 1, "TS")
    pass_(state, 2)
    events = pass_(state, 3)
    assert events[-1]["public"]["seat"] == 1


# --- the end of the game and placings ------------------------------------------------------------


def test_ruling_6_the_game_ends_as_soon_as_one_seat_alone_holds_cards():
    state = game("3S", "4S", "5S 6S")
    play(state, 0, "3S")
    events = play(state, 1, "4S")
    assert types(events) == ["play", "out", "game_end"]
    assert state.to_act() is None
    assert state.placings() == (0, 1, 2)
    assert state.scores() == [2, 1, 0]
    assert events[-1]["public"] == {
        "placings": [0, 1, 2],
        "points": [2, 1, 0],
        "order": [0, 1],
        "last": 2,
        "cards_left": [0, 0, 2],
    }


def test_placings_follow_the_order_of_going_out_and_points_are_3_2_1_0():
    state = game("3S 9D", "4S", "5S", "6S 7S 8S", leader=3)
    play(state, 3, "6S 7S 8S")  # out first
    pass_(state, 0)
    pass_(state, 1)
    events = pass_(state, 2)
    assert events[-1]["public"]["seat"] == 0
    play(state, 0, "3S")
    play(state, 1, "4S")  # out second
    play(state, 2, "5S")  # out third: seat 0 alone holds cards
    assert state.to_act() is None
    assert state.placings() == (3, 1, 2, 0)
    assert state.scores() == [0, 2, 1, 3]
    assert state.winner == 3


@pytest.mark.parametrize(("seats", "points"), [(2, [1, 0]), (3, [2, 1, 0]), (4, [3, 2, 1, 0])])
def test_game_points_by_place_at_two_three_and_four_seats(seats, points):
    hands = [*["3S", "4S", "5S", "6S"][: seats - 1], "7S 8S"]
    state = game(*hands)
    for seat in range(seats - 1):
        play(state, seat, hands[seat])
    assert state.to_act() is None
    assert state.scores() == points
    assert state.placings() == tuple(range(seats))


# --- the first lead ------------------------------------------------------------------------------


def test_the_first_game_is_led_by_the_lowest_card_which_must_be_in_the_lead():
    state = game("4S 4C 9D", "3S 3D 5H", "6S 7S", "8S 9S", leader=None)
    assert state.to_act() == 1
    actions = state.legal_actions(1)
    assert actions == [{"cards": ["3S"]}, {"cards": ["3S", "3D"]}]
    with pytest.raises(IllegalMove, match="lowest card dealt, 3S"):
        play(state, 1, "5H")
    play(state, 1, "3S 3D")
    assert state.must_include is None


def test_with_fewer_seats_the_lowest_card_dealt_leads_even_if_it_is_not_the_3_of_spades():
    state = game("5D 9C", "4H KS", "6S 7S", leader=None)
    assert state.to_act() == 1 and state.legal_actions(1) == [{"cards": ["4H"]}]


def test_a_later_game_is_led_by_the_given_leader_with_no_card_required():
    state = game("4S 4C 9D", "3S 3D 5H", "6S 7S", "8S 9S", leader=2)
    assert state.to_act() == 2
    assert state.legal_actions(2) == [{"cards": ["6S"]}, {"cards": ["7S"]}]


def test_the_default_action_is_legal_and_plays_the_required_card_first():
    state = game("4S 4C 9D", "3S 3D 5H", "6S 7S", "8S 9S", leader=None)
    assert state.default_action(1) == {"cards": ["3S"]}
    play(state, 1, "3S")
    assert state.default_action(2) == {"pass": True}


# --- actions that are refused ------------------------------------------------------------------

REFUSED = [
    ("not the seat's turn", 1, {"cards": ["4S"]}, "not seat 1's turn"),
    ("a card not in the hand", 0, {"cards": ["2H"]}, "2H is not in your hand"),
    ("an unknown card code", 0, {"cards": ["10H"]}, "'10H' is not a card code"),
    ("a long junk string is cut short", 0, {"cards": ["x" * 500]}, r"'xxxxxxxxxxxxxxxxxxx\.\.\.'"),
    ("cards that make no combination", 0, {"cards": ["3S", "9D"]}, "3S 9D is not a combination"),
    ("a repeated card", 0, {"cards": ["3S", "3S"]}, "repeated"),
    ("both cards and pass", 0, {"cards": ["3S"], "pass": True}, "not both"),
    ("an empty list", 0, {"cards": []}, "non-empty list"),
    ("pass false", 0, {"pass": False}, '"pass": true'),
    ("not an object", 0, ["3S"], "JSON object"),
]


@pytest.mark.parametrize(
    ("rule", "seat", "action", "message"), REFUSED, ids=[r[0] for r in REFUSED]
)
def test_illegal_actions_are_refused_with_a_short_clear_message(rule, seat, action, message):
    state = game("3S 3C 9D", "4S 5S", "6S 7S", "8S 9S")
    with pytest.raises(IllegalMove, match=message) as refused:
        state.apply(seat, action)
    assert len(str(refused.value)) < 120
    assert state.to_act() == 0 and state.hands[0] == sorted(INDEX[c] for c in ["3S", "3C", "9D"])


def test_legal_actions_are_listed_by_kind_length_and_top_card_then_pass():
    state = game("3S 4S 5S 5C 6D", "3C 4C 4D 5D 6C 7C", "8S", "9S", leader=0)
    codes = [a["cards"] for a in state.legal_actions(0)]
    assert codes[:5] == [["3S"], ["4S"], ["5S"], ["5C"], ["6D"]]
    assert codes[5] == ["5S", "5C"]
    sequences = codes[6:]
    assert sequences[0] == ["3S", "4S", "5S"] and sequences[1] == ["3S", "4S", "5C"]
    assert sequences[-1] == ["3S", "4S", "5C", "6D"]
    assert state.legal_actions(1) == [], "not seat 1's turn"


# --- the deal ---------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_deal_gives_13_cards_each_and_leaves_the_rest_out_of_play(seats):
    state = TiengLen.deal(12345, seats)
    assert [len(h) for h in state.hands] == [13] * seats
    assert len(state.out_of_play) == 52 - 13 * seats
    every = [c for h in state.hands for c in h] + list(state.out_of_play)
    assert sorted(every) == list(range(52))
    deal = state.start_events()[0]
    assert deal["public"]["out_of_play"] == 52 - 13 * seats
    assert "out_of_play" not in str(deal.get("private"))


def test_rotating_the_deal_hands_each_seat_the_next_seats_cards():
    plain, turned = TiengLen.deal(9, 4), TiengLen.deal(9, 4, rotation=1)
    assert turned.hands == [plain.hands[(s + 1) % 4] for s in range(4)]
    assert TiengLen.deal(9, 4).hands == plain.hands


def test_the_dealer_does_not_change_the_hands():
    assert TiengLen.deal(9, 3, dealer=0).hands == TiengLen.deal(9, 3, dealer=2).hands
