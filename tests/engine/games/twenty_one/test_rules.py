"""The rules of Twenty One (its ``rules.md``), each test named after the rule it checks.

Positions come from scripted decks (``helpers.deck``: both hush cards, both face-up cards,
then the draws) and hands set by hand, so every outcome is pinned exactly.
"""

from __future__ import annotations

import pytest

from engine.game import IllegalMove
from engine.games.twenty_one import TwentyOne
from engine.games.twenty_one.cards import CARDS, standard_trumps
from engine.games.twenty_one.rules import MAX_ROUNDS, round_winner
from tests.engine.games.twenty_one.helpers import (
    deck,
    finish_round,
    game,
    play,
    round_end,
    set_hand,
    trump,
)

# --- the deal ------------------------------------------------------------------------------


def test_each_round_deals_a_hush_card_and_a_face_up_card_from_eleven_cards():
    state = game(deck(10, 9, 2, 3))
    assert state.hush == [10, 9] and state.up == [[2], [3]]
    assert sorted(state.deck + state.hush + state.up[0] + state.up[1]) == list(CARDS)
    assert len(state.deck) == 7


def test_the_deal_goes_by_position_so_a_rotated_game_swaps_the_cards():
    plain = game(deck(10, 9, 2, 3), rotation=0)
    turned = game(deck(10, 9, 2, 3), rotation=1)
    assert turned.hush == plain.hush[::-1] and turned.up == plain.up[::-1]


def test_each_player_draws_two_trumps_at_the_start_of_a_round():
    state = TwentyOne(seed=3, dealer=0, decks=[deck(10, 9, 2, 3)])
    assert len(state.hands[0]) == 2 and len(state.hands[1]) == 2
    assert len(state.trump_deck) == sum(standard_trumps(dealer_mode=False).values()) - 4


def test_the_first_trump_deck_is_the_issues_two_player_deck_without_add_numbers():
    state = TwentyOne(seed=3, dealer=0)
    cards = state.trump_start
    assert len(cards) == 23 and not any(name.startswith("add_") for name in cards)
    assert cards.count("remove") == 2 and cards.count("perfect_draw") == 1


def test_dealer_mode_adds_one_add_number_card_for_each_value():
    state = TwentyOne(seed=3, dealer=0, dealer_mode=True)
    adds = sorted(int(name[4:]) for name in state.trump_start if name.startswith("add_"))
    assert adds == list(CARDS) and len(state.trump_start) == 34


def test_the_seed_alone_decides_every_shuffle():
    a, b = TwentyOne(seed=8, dealer=0), TwentyOne(seed=8, dealer=0)
    assert a.order == b.order and a.trump_start == b.trump_start
    assert (
        TwentyOne(seed=9, dealer=0).order != a.order
        or TwentyOne(seed=9, dealer=0).trump_start != a.trump_start
    )


# --- turns ---------------------------------------------------------------------------------


def test_the_dealer_seat_starts_the_first_round_and_the_starter_alternates_every_round():
    state = game(deck(10, 9, 2, 3), deck(10, 9, 2, 3), deck(10, 9, 2, 3), dealer=1)
    starters = []
    for _ in range(3):
        starters.append(state.to_act())
        finish_round(state)
    assert starters == [1, 0, 1]


def test_drawing_a_card_ends_the_turn():
    state = game(deck(10, 9, 2, 3, 4))
    (event,) = play(state, 0, then="draw")
    assert event["public"] == {"seat": 0, "move": "draw", "card": 4, "deck_count": 6, "drawn": 1}
    assert state.up[0] == [2, 4] and state.to_act() == 1


def test_passing_is_final_for_the_round_and_the_other_seat_moves_on_alone():
    state = game(deck(10, 9, 2, 3, 1, 4))
    play(state, 0, then="pass")
    play(state, 1, then="draw")
    assert state.to_act() == 1, "seat 0 passed: seat 1 takes every turn until it passes"
    assert state.legal_actions(0) == []
    with pytest.raises(IllegalMove, match="not seat 0's turn"):
        play(state, 0, then="draw")


def test_the_round_ends_when_both_players_have_passed():
    state = game(deck(10, 9, 2, 3), deck(1, 2, 3, 4))
    play(state, 0, then="pass")
    events = play(state, 1, then="pass")
    assert [e["type"] for e in events] == ["move", "round_end", "round_start"]
    assert state.round == 2


def test_trumps_without_then_leave_the_turn_with_the_same_seat():
    state = game(hands=(["one_up", "shield"], []))
    trump(state, 0, "one_up")
    assert state.to_act() == 0
    assert {"then": "stop"} in state.legal_actions(0)


def test_stop_ends_a_turn_only_after_a_trump():
    state = game(hands=(["one_up"], []))
    with pytest.raises(IllegalMove, match="after at least one trump"):
        play(state, 0, then="stop")
    trump(state, 0, "one_up")
    (event,) = play(state, 0, then="stop")
    assert event["public"] == {"seat": 0, "move": "stop"}
    assert state.to_act() == 1 and state.passed == [False, False]


def test_drawing_from_an_empty_deck_is_not_a_legal_move():
    state = game()
    state.deck.clear()
    assert {"then": "draw"} not in state.legal_actions(0)
    with pytest.raises(IllegalMove, match="deck is empty"):
        play(state, 0, then="draw")


def test_legal_actions_list_one_decision_each_distinct_trump_then_the_moves():
    state = game(hands=(["shield", "remove", "shield", "card_3"], []))
    assert state.legal_actions(0) == [
        {"trumps": ["card_3"]},
        {"trumps": ["remove"]},
        {"trumps": ["shield"]},
        {"then": "draw"},
        {"then": "pass"},
    ]
    assert state.legal_actions(1) == []


def test_the_combined_form_plays_its_trumps_in_order_then_ends_the_turn():
    state = game(deck(10, 9, 2, 3, 1, 4), hands=(["one_up", "card_4"], []))
    events = play(state, 0, trumps=["card_4", "one_up"], then="draw")
    assert [e["type"] for e in events] == ["trump", "trump", "move"]
    assert state.up[0] == [2, 4, 1] and state.stakes() == [1, 2] and state.to_act() == 1


def test_a_combined_action_that_fails_part_way_leaves_the_game_as_it_was():
    state = game(deck(10, 9, 2, 3, 1), hands=(["perfect_draw"], []))
    state.deck[:] = [1]  # one card left: Perfect Draw takes it, then the draw has none
    before = (state.deck[:], [r[:] for r in state.up], [h[:] for h in state.hands], state.played)
    with pytest.raises(IllegalMove, match="deck is empty"):
        play(state, 0, trumps=["perfect_draw"], then="draw")
    after = (state.deck[:], [r[:] for r in state.up], [h[:] for h in state.hands], state.played)
    assert after == before and state.history == ([], [])


def test_a_trump_that_trump_switch_discarded_cannot_be_played_after_it_in_the_same_list():
    state = game(hands=(["trump_switch", "shield", "remove"], []), trump_deck=["destroy"] * 3)
    with pytest.raises(IllegalMove, match="left your hand"):
        play(state, 0, trumps=["trump_switch", "shield"])
    assert sorted(state.hands[0]) == ["remove", "shield", "trump_switch"]


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"trumps": ["remove"]}, "do not hold 'remove'"),
        ({"trumps": ["shield", "shield"]}, "that often"),
        ({"trumps": ["joker"]}, "is not a trump name"),
        ({"trumps": []}, "list of 1 to 64"),
        ({"then": "fold"}, "'then' must be"),
        ({"then": ["draw"]}, "'then' must be"),
        ({"cards": [1]}, "unknown key"),
        ({}, "plays trumps, or says 'then'"),
    ],
)
def test_illegal_actions_are_refused_with_a_short_reason(action, message):
    state = game(hands=(["shield"], []))
    with pytest.raises(IllegalMove, match=message):
        state.apply(0, action)


def test_the_default_action_passes_and_is_always_legal():
    state = game()
    assert state.default_action(0) == {"then": "pass"}
    assert state.can_apply(0, state.default_action(0))


# --- the every-third-card rule -------------------------------------------------------------


def test_every_third_card_a_player_draws_in_a_round_brings_a_trump():
    state = game(deck(10, 9, 1, 2, 3, 4, 5, 6, 7), trump_deck=["shield", "remove"])
    got = []
    for _ in range(3):
        got += play(state, 0, then="draw")
        got += play(state, 1, then="draw")
    draws = [e for e in got if e["public"]["seat"] == 0]
    assert [e["public"].get("bonus") for e in draws] == [None, None, True]
    assert draws[2]["private"] == {"0": {"trumps": ("shield",)}}
    assert state.hands == [["shield"], ["remove"]]


def test_cards_gained_through_trumps_do_not_count_toward_the_third_card():
    state = game(
        deck(10, 9, 1, 2, 3, 4, 5), hands=(["card_6", "card_7"], []), trump_deck=["shield"]
    )
    trump(state, 0, "card_6")
    trump(state, 0, "card_7")
    play(state, 0, then="draw")
    play(state, 1, then="pass")
    (event,) = play(state, 0, then="draw")
    assert state.drawn[0] == 2 and "bonus" not in event["public"] and state.hands[0] == []


def test_the_third_card_count_starts_again_each_round():
    state = game(deck(10, 9, 1, 2, 3, 4), deck(10, 9, 1, 2, 3), trump_deck=["shield"])
    play(state, 0, then="draw")
    play(state, 1, then="pass")
    play(state, 0, then="draw")
    play(state, 0, then="pass")
    assert state.round == 2 and state.drawn == [0, 0]


def test_an_empty_trump_deck_is_refilled_by_shuffling_the_discards():
    state = game(hands=(["remove", "card_2"], []))
    trump(state, 0, "remove")
    trump(state, 0, "card_2")
    assert state.trump_deck == [] and sorted(state.discards) == ["card_2", "remove"]
    state.drawn[0] = 2
    play(state, 0, then="draw")
    assert state.discards == [] and len(state.trump_deck) == 1
    assert sorted(state.hands[0] + state.trump_deck) == ["card_2", "remove"]


def test_with_no_trump_deck_and_no_discards_nothing_is_drawn():
    state = game()
    state.drawn[0] = 2
    (event,) = play(state, 0, then="draw")
    assert event["public"]["bonus"] is False and "private" not in event


# --- scoring --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("totals", "target", "winner"),
    [
        ((20, 19), 21, 0),  # both under: closer wins
        ((22, 19), 21, 0),  # over by one beats under by two
        ((23, 19), 21, None),  # equally close, over and under: a draw
        ((25, 23), 21, 1),  # both over: the closest still wins
        ((21, 21), 21, None),  # equal totals: a draw
        ((17, 21), 17, 0),  # a Go For target
        ((27, 24), 27, 0),
    ],
)
def test_the_total_closest_to_the_target_wins_over_or_under(totals, target, winner):
    assert round_winner(totals, target) == winner


def test_a_round_scores_hush_card_and_face_up_cards_and_the_loser_pays_its_stake():
    state = game(deck(10, 9, 11, 3))  # 21 against 12
    end = round_end(finish_round(state))
    assert end["totals"] == (21, 12) and end["winner"] == 0 and end["hush"] == (10, 9)
    assert end["paid"] == 1 and state.bets == [8, 6]


def test_a_player_over_the_target_can_still_win_when_closer():
    state = game(deck(11, 5, 2, 1, 9))  # seat 0: 13, draws 9: 22; seat 1: 6
    play(state, 0, then="draw")
    end = round_end(finish_round(state))
    assert end["totals"] == (22, 6) and end["winner"] == 0


def test_equally_close_is_a_draw_and_moves_no_bets():
    state = game(deck(10, 9, 2, 3, 4))  # 12 and 12
    end = round_end(finish_round(state))
    assert end["winner"] is None and end["paid"] == 0 and state.bets == [7, 7]


def test_the_acting_bet_is_one_in_the_first_round_and_grows_every_round_draws_included():
    state = game(deck(10, 9, 2, 3), deck(10, 9, 2, 3), deck(10, 9, 2, 3))
    bets = []
    for _ in range(3):
        bets.append(state.acting_bet)
        finish_round(state)  # every round a draw
    assert bets == [1, 2, 3] and state.acting_bet == 4


@pytest.mark.parametrize(
    ("mine", "theirs", "stakes"),
    [
        ([], [], [3, 3]),
        ([], ["one_up"], [4, 3]),
        ([], ["two_up", "one_up"], [6, 3]),
        (["shield"], [], [2, 3]),
        (["shield", "shield"], ["one_up"], [2, 3]),
        (["shield"] * 5, [], [0, 3]),  # never below zero
        (["one_up", "shield"], ["shield"], [2, 3]),
    ],
)
def test_a_stake_is_the_acting_bet_plus_the_opponents_ups_minus_own_shields(mine, theirs, stakes):
    state = game(deck(10, 9, 2, 3), deck(10, 9, 2, 3), deck(10, 9, 2, 3))
    finish_round(state)
    finish_round(state)
    assert state.acting_bet == 3
    state.table[0], state.table[1] = list(mine), list(theirs)
    state._restake()
    assert state.stakes() == stakes


def test_stakes_come_from_the_trumps_lying_on_the_table():
    state = game(deck(1, 9, 2, 10), hands=(["one_up", "two_up"], ["shield"]), trump_deck=["remove"])
    trump(state, 0, "two_up")
    trump(state, 0, "one_up")
    play(state, 0, then="stop")
    trump(state, 1, "shield")
    assert state.stakes() == [1, 3]
    end = round_end(play(state, 1, then="pass") + play(state, 0, then="pass"))
    assert end["winner"] == 1 and end["paid"] == 1 and end["stakes"] == (1, 3)


def test_a_loser_pays_at_most_the_bets_it_holds():
    state = game(
        deck(10, 9, 11, 3), bets=2, hands=(["two_up", "one_up"], []), trump_deck=["shield"]
    )
    trump(state, 0, "two_up")
    trump(state, 0, "one_up")
    end = round_end(finish_round_from(state, 0))
    assert end["stakes"] == (1, 4) and end["paid"] == 2 and state.bets == [4, 0]


def finish_round_from(state, seat):
    return play(state, seat, then="pass") + play(state, 1 - seat, then="pass")


def test_a_player_at_zero_bets_loses_the_game():
    state = game(deck(10, 9, 11, 3), bets=1)
    events = finish_round(state)
    assert [e["type"] for e in events][-2:] == ["round_end", "game_end"]
    assert events[-1]["public"] == {"bets": (2, 0), "winner": 0, "rounds": 1, "reason": "bets"}
    assert state.to_act() is None and state.placings() == (0, 1) and state.scores() == [2, 0]


def test_a_game_still_running_after_the_round_cap_ends_with_more_bets_winning():
    state = game(deck(10, 9, 2, 3), bets=50)
    state.round = MAX_ROUNDS
    state.bets = [60, 40]
    events = finish_round(state)
    assert events[-1]["type"] == "game_end" and events[-1]["public"]["reason"] == "round_cap"
    assert state.placings() == (0, 1)


def test_trumps_in_hand_carry_over_and_table_trumps_are_discarded_at_round_end():
    state = game(
        deck(10, 9, 2, 3),
        deck(10, 9, 2, 3),
        hands=(["one_up", "remove"], []),
        trump_deck=["shield"] * 4,
    )
    trump(state, 0, "one_up")
    end = round_end(finish_round_from(state, 0))
    assert end["cleared"] == ("one_up",) and state.discards == ["one_up"]
    assert state.hands[0] == ["remove", "shield", "shield"] and state.table == [[], []]


# --- the trumps -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "draws", "took", "up"),
    [
        ("card_2", (5,), None, [3]),  # 2 is seat 0's hush card: nothing
        ("card_4", (5,), 4, [3, 4]),
        ("card_7", (5,), 7, [3, 7]),
        ("card_5", (), 5, [3, 5]),
    ],
)
def test_a_number_card_takes_that_card_from_the_deck_if_it_is_still_there(name, draws, took, up):
    state = game(deck(2, 9, 3, 10, *draws), hands=([name], []))
    public = trump(state, 0, name)
    assert public["took"] == took and state.up[0] == up
    assert (took in state.deck) is False


def test_a_number_card_on_an_empty_deck_takes_nothing():
    state = game(deck(10, 9, 2, 3), hands=(["card_4"], []))
    state.deck.clear()
    assert trump(state, 0, "card_4")["took"] is None and state.up[0] == [2]


def test_a_number_card_whose_card_lies_face_up_takes_nothing():
    state = game(deck(1, 9, 3, 6), hands=(["card_6"], []))
    assert trump(state, 0, "card_6")["took"] is None and state.up == [[3], [6]]


@pytest.mark.parametrize(
    ("dealt", "took"),
    [
        ((10, 9, 2, 3), 8),  # 12: a 9 would make 21, but it is seat 1's hush card
        ((6, 9, 2, 3), 11),  # 8: 11 makes 19
        ((10, 1, 9, 3), 2),  # 19: 2 makes 21 exactly
    ],
)
def test_perfect_draw_takes_the_deck_card_closest_to_the_target_without_going_over(dealt, took):
    state = game(deck(*dealt), hands=(["perfect_draw"], []))
    assert trump(state, 0, "perfect_draw")["took"] == took and state.up[0][-1] == took
    assert took not in state.deck


def test_perfect_draw_takes_the_lowest_card_when_every_card_goes_over():
    state = game(deck(11, 1, 10, 2), hands=(["perfect_draw"], []))  # 21: every card is over
    assert trump(state, 0, "perfect_draw")["took"] == 3 and state.total(0) == 24


def test_perfect_draw_on_an_empty_deck_takes_nothing():
    state = game(hands=(["perfect_draw"], []))
    state.deck.clear()
    assert trump(state, 0, "perfect_draw")["took"] is None


def test_remove_sends_the_opponents_last_face_up_card_back_into_the_deck():
    state = game(deck(10, 9, 2, 3, 4), hands=([], ["remove"]))
    play(state, 0, then="draw")
    public = trump(state, 1, "remove")
    assert public["card"] == 4 and state.up[0] == [2] and 4 in state.deck
    assert len(state.deck) == 7


def test_remove_with_nothing_to_remove_does_nothing():
    state = game(hands=(["remove", "remove"], []))
    trump(state, 0, "remove")
    public = trump(state, 0, "remove")
    assert public["card"] is None and state.up[1] == [] and len(state.deck) == 8


def test_remove_and_return_put_the_card_back_at_a_random_place():
    places = set()
    for seed in range(40):
        state = TwentyOne(seed=seed, dealer=0, decks=[deck(10, 9, 2, 3)], trumps_top_first=())
        set_hand(state, 0, ["return"])
        trump(state, 0, "return")
        places.add(state.deck.index(2))
    assert len(places) > 3


def test_return_sends_your_own_last_face_up_card_back_into_the_deck():
    state = game(deck(10, 9, 2, 3, 11), hands=([], []))
    play(state, 0, then="draw")  # 10 + 2 + 11 = 23
    play(state, 1, then="pass")
    set_hand(state, 0, ["return"])
    public = trump(state, 0, "return")
    assert public["card"] == 11 and state.total(0) == 12 and 11 in state.deck


def test_exchange_swaps_the_last_face_up_cards():
    state = game(deck(10, 9, 2, 3, 4), hands=([], ["exchange"]))
    play(state, 0, then="draw")
    public = trump(state, 1, "exchange")
    assert (public["gave"], public["got"]) == (3, 4)
    assert state.up == [[2, 3], [4]]


def test_exchange_with_no_face_up_card_on_one_side_does_nothing():
    state = game(hands=(["remove", "exchange"], []))
    trump(state, 0, "remove")
    public = trump(state, 0, "exchange")
    assert public["gave"] is None and public["got"] is None and state.up == [[2], []]


@pytest.mark.parametrize("name", ["go_for_17", "go_for_24", "go_for_27"])
def test_go_for_sets_the_rounds_target(name):
    state = game(hands=([name], []))
    public = trump(state, 0, name)
    assert state.target == int(name[7:]) == public["target"] and state.table[0] == [name]


def test_a_go_for_replaces_any_go_for_lying_on_the_table():
    state = game(hands=(["go_for_17"], ["go_for_27"]))
    trump(state, 0, "go_for_17")
    play(state, 0, then="stop")
    public = trump(state, 1, "go_for_27")
    assert public["replaced"] == "go_for_17" and state.target == 27
    assert state.table == [[], ["go_for_27"]] and "go_for_17" in state.discards


def test_the_go_for_target_lasts_only_for_the_round():
    state = game(deck(10, 9, 2, 3), deck(10, 9, 2, 3), hands=(["go_for_24"], []))
    trump(state, 0, "go_for_24")
    end = round_end(finish_round_from(state, 0))
    assert end["target"] == 24 and state.target == 21


def test_two_up_raises_the_opponents_stake_by_two_and_draws_a_trump():
    state = game(hands=(["two_up"], []), trump_deck=["shield"])
    events = state.apply(0, {"trumps": ["two_up"]})
    assert events[0]["public"]["drew"] == 1 and events[0]["private"] == {
        "0": {"trumps": ("shield",)}
    }
    assert state.stakes() == [1, 3] and state.hands[0] == ["shield"]


def test_shield_lowers_your_own_stake_never_below_zero():
    state = game(hands=(["shield", "shield"], []))
    trump(state, 0, "shield")
    trump(state, 0, "shield")
    assert state.stakes() == [0, 1]


def test_destroy_discards_the_opponents_last_trump_on_the_table():
    state = game(hands=(["one_up", "shield"], ["destroy"]))
    trump(state, 0, "shield")
    trump(state, 0, "one_up")
    play(state, 0, then="stop")
    public = trump(state, 1, "destroy")
    assert public["destroyed"] == "one_up" and state.table[0] == ["shield"]
    assert state.stakes() == [0, 1] and "one_up" in state.discards


def test_destroy_with_nothing_on_the_table_does_nothing():
    state = game(hands=(["destroy"], []))
    public = trump(state, 0, "destroy")
    assert public["destroyed"] is None and state.discards == ["destroy"]


def test_destroying_a_go_for_sets_the_target_back_to_21():
    state = game(hands=(["go_for_17"], ["destroy"]))
    trump(state, 0, "go_for_17")
    play(state, 0, then="stop")
    public = trump(state, 1, "destroy")
    assert public["destroyed"] == "go_for_17" and state.target == 21 == public["target"]


def test_trump_switch_discards_two_other_trumps_at_random_and_draws_three():
    state = game(
        hands=(["trump_switch", "shield", "remove", "card_2"], []),
        trump_deck=["card_3", "card_4", "card_5"],
    )
    events = state.apply(0, {"trumps": ["trump_switch"]})
    public = events[0]["public"]
    assert len(public["discarded"]) == 2 and public["drew"] == 3
    assert set(public["discarded"]) <= {"shield", "remove", "card_2"}
    assert sorted(events[0]["private"]["0"]["trumps"]) == ["card_3", "card_4", "card_5"]
    assert len(state.hands[0]) == 4 and "trump_switch" in state.discards


def test_trump_switch_with_fewer_than_two_other_trumps_discards_what_there_is():
    state = game(hands=(["trump_switch"], []), trump_deck=["card_3", "card_4"])
    public = trump(state, 0, "trump_switch")
    assert public["discarded"] == () and public["drew"] == 2
    assert state.hands[0] == ["card_3", "card_4"]


def test_resolved_trumps_go_to_the_discard_pile_and_table_trumps_stay_until_the_round_ends():
    state = game(hands=(["remove", "one_up"], []))
    trump(state, 0, "remove")
    trump(state, 0, "one_up")
    assert state.discards == ["remove"] and state.table[0] == ["one_up"]


def test_add_number_gives_the_card_when_its_value_is_nowhere_on_the_table():
    state = game(deck(10, 9, 2, 3), hands=(["add_11"], []), dealer_mode=True)
    public = trump(state, 0, "add_11")
    assert public["took"] == 11 and state.up[0] == [2, 11]


def test_add_number_is_refused_when_the_value_sits_in_a_hush_card():
    state = game(deck(10, 9, 2, 3), hands=(["add_9"], []), dealer_mode=True)
    public = trump(state, 0, "add_9")  # 9 is seat 1's hush card
    assert public["took"] is None and state.up[0] == [2] and "add_9" in state.discards


def test_add_number_is_refused_when_the_value_lies_face_up():
    state = game(deck(10, 9, 2, 3), hands=(["add_3"], []), dealer_mode=True)
    assert trump(state, 0, "add_3")["took"] is None


def test_the_playing_cards_are_all_accounted_for_after_every_trump():
    state = game(
        deck(10, 9, 2, 3, 4, 5),
        hands=(["remove", "return", "exchange", "perfect_draw", "card_7"], ["remove"]),
    )
    for name in ["card_7", "perfect_draw", "exchange", "return", "remove"]:
        trump(state, 0, name)
        cards = state.deck + state.hush + state.up[0] + state.up[1]
        assert sorted(cards) == list(CARDS)
