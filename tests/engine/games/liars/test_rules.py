"""The rules of a round, table-driven and named after the rule they check (scripted dice)."""

from __future__ import annotations

import pytest

from engine.game import IllegalMove
from tests.engine.games.liars.helpers import more_dice, new_game, start_round

SIXES = [6, 6, 6, 6, 6]


def types(events):
    return [e["type"] for e in events]


def last(events, kind):
    return [e for e in events if e["type"] == kind][-1]["public"]


# --- liar resolution ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "announced", "loser", "reason"),
    [
        ([3, 3, 5, 2, 1], [3, 3, 5, 2, 1], 1, "refused_true"),  # ruling 5: equal holds
        ([3, 3, 6, 2, 1], [3, 3, 5, 2, 1], 1, "refused_true"),  # the dice are higher
        ([3, 3, 4, 2, 1], [3, 3, 5, 2, 1], 0, "refused_false"),  # one kicker short
        ([6, 5, 4, 3, 1], [1, 1, 4, 3, 2], 0, "refused_false"),  # nothing < the lowest pair
        ([5, 4, 3, 2, 1], [6, 6, 6, 5, 4], 1, "refused_true"),  # a straight beats any three
        ([1, 1, 1, 2, 2], [6, 5, 4, 3, 2], 1, "refused_true"),  # any full beats a straight
    ],
)
def test_a_refusal_shows_the_dice_and_costs_the_wrong_side_a_life(dice, announced, loser, reason):
    game = new_game(seats=3)
    start_round(game, dice, announced, hide=[0, 1])
    events = game.apply(1, {"refuse": True})
    assert types(events)[:3] == ["refuse", "round_end", "round_start"]
    shown = last(events, "refuse")
    assert shown["dice"] == dice and shown["loser"] == loser and shown["hidden"] == [0, 1]
    assert last(events, "round_end")["reason"] == reason
    assert game.lives[loser] == 2 and sum(game.lives) == 8
    assert game.starter == loser and game.to_act() == loser, "the loser starts the next round"


def test_with_straights_off_a_run_is_nothing():
    game = new_game(seats=2, straights=False)
    start_round(game, [5, 4, 3, 2, 1], [1, 1, 4, 3, 2])
    events = game.apply(1, {"refuse": True})
    assert last(events, "refuse")["holds"] is False and game.lives == [2, 3]


# --- turns ------------------------------------------------------------------------------------


def test_accepting_without_looking_may_pass_without_throwing():
    game = new_game(seats=3)
    start_round(game, [3, 3, 5, 2, 1], "pair of 3", hide=[2, 3, 4])
    events = game.apply(1, {"announce": "pair of 3 with 5"})
    assert last(events, "announce")["hand"] == [3, 3, 5, 2, 1] and game.to_act() == 2


def test_having_looked_the_receiver_must_throw_at_least_one_die():
    game = new_game(seats=3)
    start_round(game, [3, 3, 5, 2, 1], "pair of 3", hide=[2, 3, 4])
    events = game.apply(1, {"look": True})
    assert events[0]["private"] == {"1": {"values": [[2, 5], [3, 2], [4, 1]]}}
    with pytest.raises(IllegalMove, match="throw at least one die"):
        game.apply(1, {"announce": [3, 3, 6, 2, 1]})
    more_dice(game, [6])
    game.apply(1, {"throw": [4], "hide": [4]})
    game.apply(1, {"announce": [3, 3, 6, 5, 2]})
    assert game.to_act() == 2


def test_a_die_under_the_cup_is_thrown_only_after_looking():
    game = new_game(seats=3)
    start_round(game, [3, 3, 5, 2, 1], "pair of 3", hide=[4])
    with pytest.raises(IllegalMove, match="look before"):
        game.apply(1, {"throw": [4]})
    more_dice(game, [4])
    game.apply(1, {"throw": [2]})  # an uncovered die: no look needed
    assert game.dice[2] == 4


def test_each_die_is_thrown_at_most_once_per_turn():
    game = new_game(seats=3)
    start_round(game, [3, 3, 5, 2, 1], "pair of 3")
    more_dice(game, [4, 4])
    game.apply(1, {"throw": [2]})
    with pytest.raises(IllegalMove, match="already been thrown"):
        game.apply(1, {"throw": [2]})
    game.apply(1, {"throw": [3]})


def test_refusing_is_only_the_first_decision_of_a_turn():
    game = new_game(seats=3)
    start_round(game, [3, 3, 5, 2, 1], "pair of 3", hide=[4])
    game.apply(1, {"look": True})
    with pytest.raises(IllegalMove, match="may refuse"):
        game.apply(1, {"refuse": True})


def test_uncovered_dice_may_go_under_the_cup_before_the_first_throw_only():
    game = new_game(seats=3)
    start_round(game, [3, 3, 5, 2, 1], "pair of 3")
    more_dice(game, [6, 6])
    events = game.apply(1, {"throw": [4], "cover": [0, 1]})
    assert events[0]["public"]["cover"] == [0, 1]
    assert game.hidden[:2] == [True, True]
    view = game.observation(2)["dice"][0]
    assert view["value"] == 3 and view["known"] == "seen", "a covered die was seen by all"
    with pytest.raises(IllegalMove, match="before the turn's first throw"):
        game.apply(1, {"throw": [3], "cover": [2]})


def test_an_uncovered_die_cannot_go_under_the_cup_after_the_turns_first_throw():
    game = new_game(seats=3)
    start_round(game, [3, 3, 5, 2, 1], "pair of 3")
    more_dice(game, [6, 4])
    game.apply(1, {"throw": [4]})
    assert game.observation(1)["may"]["hide"] == [], "nothing lies under the cup"
    with pytest.raises(IllegalMove, match="die 0 lies uncovered"):
        game.apply(1, {"throw": [0], "hide": [0]})
    assert game.hidden == [False] * 5 and game.observation(2)["dice"][0]["value"] == 3
    game.apply(1, {"throw": [0]})  # thrown again, it stays on the mat
    assert game.hidden[0] is False


def test_in_the_turns_first_throw_an_uncovered_die_may_land_under_the_cup():
    game = new_game(seats=3)
    start_round(game, [3, 3, 5, 2, 1], "pair of 3")
    assert game.observation(1)["may"]["hide"] == [0, 1, 2, 3, 4]
    more_dice(game, [6])
    game.apply(1, {"throw": [0], "hide": [0]})
    assert game.hidden[0] is True and game.observation(2)["dice"][0]["value"] is None


def test_after_the_first_throw_only_a_die_taken_from_under_the_cup_may_go_back_under_it():
    game = new_game(seats=3)
    start_round(game, [3, 3, 5, 2, 1], "pair of 3", hide=[4])
    game.apply(1, {"look": True})
    more_dice(game, [6, 2])
    game.apply(1, {"throw": [2]})
    assert game.observation(1)["may"]["hide"] == [4]
    game.apply(1, {"throw": [4], "hide": [4]})
    assert game.hidden == [False, False, False, False, True]


def test_dice_thrown_under_the_cup_are_known_to_the_thrower_only():
    game = new_game(seats=3)
    events = start_round(game, [3, 3, 5, 2, 1], "pair of 3", hide=[1, 4])
    throw = events[0]
    assert throw["public"]["up"] == [3, None, 5, 2, None]
    assert throw["private"] == {"0": {"values": [3, 3, 5, 2, 1]}}
    assert [d["value"] for d in game.observation(1)["dice"]] == [3, None, 5, 2, None]
    assert [d["value"] for d in game.observation(0)["dice"]] == [3, 3, 5, 2, 1]
    assert game.observation(1)["dice"][1]["known_by"] == [0]


def test_a_later_holder_that_looked_keeps_knowing_the_die_while_it_stays_under_the_cup():
    game = new_game(seats=3)
    start_round(game, [3, 3, 5, 2, 1], "pair of 3", hide=[4])
    game.apply(1, {"look": True})
    more_dice(game, [2])
    game.apply(1, {"throw": [2]})
    game.apply(1, {"announce": "two pairs of 3 and 2"})
    assert game.observation(1)["dice"][4] == {
        "value": 1,
        "hidden": True,
        "known": "looked",
        "known_by": [0, 1],
        "thrown": False,
    }
    assert game.observation(2)["dice"][4]["value"] is None


def test_each_announcement_must_be_higher_than_the_one_received():
    game = new_game(seats=3)
    start_round(game, [3, 3, 5, 2, 1], "pair of 3 with 5")
    with pytest.raises(IllegalMove, match="higher than the one received"):
        game.apply(1, {"announce": "pair of 3 with 5"})
    with pytest.raises(IllegalMove, match="higher than the one received"):
        game.apply(1, {"announce": "pair of 3"})
    game.apply(1, {"announce": [3, 3, 5, 4, 1]})


def test_only_the_starter_may_announce_nothing():
    game = new_game(seats=3)
    start_round(game, [6, 4, 3, 2, 1], "nothing")
    with pytest.raises(IllegalMove, match="starter may announce 'nothing'"):
        game.apply(1, {"announce": [6, 5, 4, 3, 1]})


def test_the_starter_throws_all_five_dice_before_announcing():
    game = new_game(seats=2)
    more_dice(game, [1, 2])
    game.apply(0, {"throw": [0, 1], "hide": [1]})
    with pytest.raises(IllegalMove, match="throw all five"):
        game.apply(0, {"announce": "pair"})
    more_dice(game, [3, 4, 5])
    game.apply(0, {"throw": [2, 3, 4]})
    game.apply(0, {"announce": "nothing"})
    assert game.to_act() == 1


@pytest.mark.parametrize(("seats", "direction", "receiver"), [(4, 1, 1), (4, -1, 3), (2, -1, 1)])
def test_the_starter_chooses_the_direction_of_play(seats, direction, receiver):
    game = new_game(seats=seats)
    more_dice(game, [1, 1, 2, 3, 4])
    game.apply(0, {"throw": [0, 1, 2, 3, 4]})
    game.apply(0, {"announce": "pair", "direction": direction})
    assert game.to_act() == receiver and game.direction == direction
    with pytest.raises(IllegalMove, match="starter chooses the direction"):
        game.apply(receiver, {"announce": "pair of 2", "direction": 1})


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"look": True, "refuse": True}, "does one thing"),
        ({"hide": [1]}, "needs one of"),
        ({"announce": "pair", "hide": [1]}, "go with a 'throw'"),
        ({"throw": [0, 0]}, "names a die twice"),
        ({"throw": [7]}, "not a dice index"),
        ({"throw": []}, "at least one die"),
        ({"announce": [1, 2, 3]}, "five dice values"),
        ({"announce": "a royal flush"}, "cannot read"),
        ({"announce": "better"}, "'better' announcements are off"),
        ({"refuse": False}, "must be true"),
        ({"shout": True}, "unknown action key"),
    ],
)
def test_illegal_actions_are_refused_with_a_clear_message(action, message):
    game = new_game(seats=3)
    start_round(game, [3, 3, 5, 2, 1], "pair of 3")
    with pytest.raises(IllegalMove, match=message):
        game.apply(1, action)


def test_it_is_nobody_elses_turn():
    game = new_game(seats=3)
    with pytest.raises(IllegalMove, match="not seat 1's turn"):
        game.apply(1, {"throw": [0]})


# --- better, no lying, the absent player ---------------------------------------------------


def test_better_is_the_next_higher_hand_for_receivers_only():
    game = new_game(seats=3, better=True)
    more_dice(game, [3, 3, 4, 2, 1])
    game.apply(0, {"throw": [0, 1, 2, 3, 4]})
    with pytest.raises(IllegalMove, match="only a receiver"):
        game.apply(0, {"announce": "better"})
    game.apply(0, {"announce": "pair of 3"})
    events = game.apply(1, {"announce": "better"})
    public = last(events, "announce")
    assert public["hand"] == [3, 3, 5, 2, 1] and public["better"] is True  # ruling 1


def test_the_absent_players_default_is_the_next_higher_hand_without_looking():
    game = new_game(seats=3)
    start_round(game, [3, 3, 4, 2, 1], "pair of 3", hide=[0])
    assert game.default_action(1) == {"announce": [3, 3, 5, 2, 1]}


def test_the_default_after_looking_throws_the_first_die_under_the_cup_then_announces():
    game = new_game(seats=3)
    start_round(game, [3, 3, 4, 2, 1], "pair of 3", hide=[0])
    game.apply(1, {"look": True})
    assert game.default_action(1) == {"throw": [0], "hide": [0]}
    more_dice(game, [2])
    game.apply(1, game.default_action(1))
    assert game.default_action(1) == {"announce": [3, 3, 5, 2, 1]}


def test_a_default_receiver_never_announces_nothing():
    game = new_game(seats=3)
    start_round(game, [6, 4, 3, 2, 1], "nothing")
    assert game.default_action(1) == {"announce": [1, 1, 4, 3, 2]}


def test_no_lying_in_the_first_round_costs_the_liar_a_life_at_once():
    game = new_game(seats=3, no_lying_first_round=True)
    events = start_round(game, [3, 3, 4, 2, 1], "three of 3")
    assert "lie" in types(events) and game.lives == [2, 3, 3] and game.round == 2
    (round_end,) = [e for e in events if e["type"] == "round_end"]
    assert round_end["public"]["bettor"] == 0, "the bettor is the seat that lied"
    assert game.observation(1)["rounds"][0]["bettor"] == 0
    start_round(game, [3, 3, 4, 2, 1], "three of 3")  # round 2: lying is allowed again
    assert game.to_act() == 1 and game.lives == [2, 3, 3]


# --- five 6s ----------------------------------------------------------------------------------


def test_five_sixes_cannot_be_beaten_only_refused_or_matched():
    game = new_game(seats=3)
    start_round(game, [6, 6, 1, 2, 3], SIXES)
    with pytest.raises(IllegalMove, match="no hand beats five 6s"):
        game.apply(1, {"announce": SIXES})
    with pytest.raises(IllegalMove, match="throw of all five"):
        game.apply(1, {"throw": [2, 3, 4]})
    assert game.default_action(1) == {"throw": [0, 1, 2, 3, 4]}


def test_matching_five_sixes_within_five_throws_costs_nobody_a_life():
    game = new_game(seats=3)
    start_round(game, [6, 6, 1, 2, 3], SIXES)
    more_dice(game, [6, 6, 6, 1, 2, 6, 6])
    game.apply(1, {"throw": [0, 1, 2, 3, 4]})
    events = game.apply(1, {"throw": [3, 4]})
    assert last(events, "round_end")["reason"] == "contest_won"
    assert game.lives == [3, 3, 3] and game.starter == 1  # ruling 6


def test_failing_five_sixes_in_five_throws_costs_the_contestant_a_life():
    game = new_game(seats=3)
    start_round(game, [6, 6, 1, 2, 3], SIXES)
    more_dice(game, [1, 1, 1, 1, 1] + [2] * 20)
    game.apply(1, {"throw": [0, 1, 2, 3, 4]})
    for throw in range(4):
        events = game.apply(1, {"throw": [0, 1, 2, 3, 4]})
        assert events[0]["public"]["contest"] == throw + 2
        assert events[0]["public"]["hide"] == [], "contest throws land uncovered"
    assert last(events, "round_end")["reason"] == "contest_lost"
    assert game.lives == [3, 2, 3] and game.starter == 1  # ruling 6


def test_refusing_five_sixes_that_are_there_costs_the_refuser():
    game = new_game(seats=3)
    start_round(game, SIXES, SIXES, hide=[0, 1, 2, 3, 4])
    game.apply(1, {"refuse": True})
    assert game.lives == [3, 2, 3]


def test_the_straight_contest_variant_hides_throws_four_and_five_and_counts_throws():
    game = new_game(seats=3, straight_contest=True)
    events = start_round(game, [2, 2, 1, 3, 4], [2, 2, 2, 2, 2])
    assert last(events, "announce")["throws"] == 5
    more_dice(game, [1, 2, 3, 4, 5] + [5] * 4 + [1] * 12)
    game.apply(1, {"throw": [0, 1, 2, 3, 4]})
    for _ in range(2):
        game.apply(1, {"throw": [0, 1, 2, 3]})
    events = game.apply(1, {"throw": [0, 1, 2, 3]})
    assert events[0]["public"]["up"] == [None] * 4, "throw 4 lands under the cup"
    with pytest.raises(IllegalMove, match="five of a kind"):
        game.apply(1, {"announce": [6, 6, 6, 6, 5]})
    events = game.apply(1, {"announce": [3, 3, 3, 3, 3]})
    assert last(events, "announce")["throws"] == 4
    # Receiving five 3s in 4: five 3s in 4 is not better, five 3s in 3 would be.
    assert game.contest == ("beat", 5)
    more_dice(game, [3, 3, 3, 3, 3])
    game.apply(2, {"throw": [0, 1, 2, 3, 4]})
    events = game.apply(2, {"announce": [3, 3, 3, 3, 3]})
    assert last(events, "announce")["throws"] == 1


# --- lives, elimination, placings ------------------------------------------------------------


def lose_round(game, loser):
    """Play a round that ``loser`` (the starter or its receiver) loses by a refusal."""
    starter = game.to_act()
    receiver = game.next_live(starter, game.direction)
    if loser == starter:
        start_round(game, [1, 2, 3, 4, 6], "five of 6")
    else:
        assert loser == receiver
        start_round(game, [1, 1, 2, 3, 4], "pair")
    return game.apply(receiver, {"refuse": True})


def test_the_last_survivor_wins_and_placings_follow_the_order_of_elimination():
    game = new_game(seats=3, starter=1)
    for _ in range(3):
        events = lose_round(game, 1)
    assert game.out[1] and last(events, "round_end")["out"] == 1
    assert game.to_act() == 2, "ruling 7: the next live seat after the eliminated loser"
    for _ in range(3):
        events = lose_round(game, 2)
    assert types(events)[-1] == "game_end" and game.to_act() is None
    assert game.placings() == (0, 2, 1)
    assert last(events, "game_end") == {
        "placings": [0, 2, 1],
        "lives": [3, 0, 0],
        "eliminated": [1, 2],
    }


def test_the_game_may_stop_at_the_first_elimination():
    game = new_game(seats=4, stop_at_first_out=True)
    for _ in range(3):
        lose_round(game, 1)  # as receiver of seat 0, then as the starter twice
    assert game.to_act() is None and game.placings() == (0, 3, 0, 0)


def test_a_forfeit_voids_the_round_and_the_next_live_seat_starts():
    game = new_game(seats=4)
    start_round(game, [1, 1, 2, 3, 4], "pair")
    assert game.eliminate(1) is True
    assert game.to_act() == 2 and game.round == 2 and game.lives == [3, 0, 3, 3]  # ruling 8
    more_dice(game, [1, 1, 2, 3, 4])
    events = game.apply(2, {"throw": [0, 1, 2, 3, 4]})
    assert types(events)[:3] == ["round_end", "round_start", "throw"]
    assert events[0]["public"]["reason"] == "void" and events[0]["public"]["forfeit"] == 1
    game.apply(2, {"announce": "pair"})
    while game.to_act() is not None:  # the absent players' moves play the game out
        more_dice(game, [1, 2, 3, 4, 6] * 5)
        game.apply(game.to_act(), game.default_action(game.to_act()))
    assert game.placings()[1] == 3, "the forfeiting seat is last"


def test_a_forfeit_before_the_first_move_only_moves_the_start():
    game = new_game(seats=3, starter=0)
    assert game.eliminate(0) is True
    assert game.round == 1 and game.to_act() == 1 and game.pending == []


def test_a_two_seat_game_cannot_go_on_without_either_seat():
    game = new_game(seats=2)
    assert game.eliminate(1) is False


def test_a_lie_by_a_receiver_names_the_receiver_as_bettor():
    game = new_game(seats=3, no_lying_first_round=True)
    start_round(game, [3, 3, 4, 2, 1], "pair of 3")  # true: the round goes on
    events = game.apply(1, {"announce": "three of 3"})  # seat 1 passes on a lie
    (round_end,) = [e for e in events if e["type"] == "round_end"]
    assert round_end["public"]["bettor"] == 1 and round_end["public"]["loser"] == 1
