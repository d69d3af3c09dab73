"""The course of one game: deal, roles, draws, legality of moves, scoring at the end."""

import pytest

from engine.games.lie21 import Lie21, Lie21Game
from engine.games.lie21.cards import DECK
from engine.games.lie21.rules import IllegalMove, WinRule

DEALER = ["AS", "2S", "3S", "4S", "5S", "6S"]
OTHER = ["AH", "2H", "3H", "4H", "5H", "6H"]


def lie(cards, face_up=0):
    return {"cards": list(cards), "face_up": face_up}


def answer(cards, challenge):
    return {"cards": list(cards), "challenge": challenge}


def test_dealer_gets_the_top_six_cards_and_the_other_player_the_next_six(make_game):
    game = make_game(DEALER, OTHER, "7D", dealer=1)
    assert game.hands[1] == sorted(DEALER)
    assert game.hands[0] == sorted(OTHER)
    assert game.deal == (tuple(sorted(OTHER)), tuple(sorted(DEALER)))


def test_bottom_card_is_turned_up_and_its_suit_is_trump(make_game):
    game = make_game(DEALER, OTHER, "7D")
    assert (game.trump_card, game.trump_suit) == ("7D", "D")
    assert game.stock[-1] == "7D"
    assert game.deck_count == 30


def test_a_joker_turned_up_means_no_trump_suit(make_game):
    game = make_game(DEALER, OTHER, "XR")
    assert game.trump_suit is None


def test_the_dealer_is_the_liar_of_hand_1(make_game):
    game = make_game(DEALER, OTHER, "7D", dealer=1)
    assert game.to_act() == 1
    assert game.role_of(1) == "liar"


def test_forfeit_gives_the_hand_to_the_liar_and_the_winner_draws_first(make_game):
    draws = ["KC", "QC", "JC", "KD", "QD", "JD"]
    game = make_game(DEALER, OTHER, "7D", draws=draws)
    game.apply(0, lie(["2S", "3S", "4S"]))
    assert game.to_act() == 1
    events = game.apply(1, answer(["2H", "3H", "4H"], challenge=False))
    assert [e["type"] for e in events] == ["hand_end"]  # fires on_hand_end
    end = events[0]
    assert end["public"]["winner"] == 0 and "judge_cards" not in end["public"]
    assert end["private"] == {"0": {"drew": ("KC", "QC", "JC")}, "1": {"drew": ("KD", "QD", "JD")}}
    assert end["public"]["deck_count"] == 24
    record = game.log[0]
    assert (record.winner, record.rule) == (0, WinRule.FORFEIT)
    assert record.draws == ((0, ("KC", "QC", "JC")), (1, ("KD", "QD", "JD")))
    assert set(game.hands[0]) == {"AS", "5S", "6S", "KC", "QC", "JC"}
    assert set(game.captured[0]) == {"2S", "3S", "4S", "2H", "3H", "4H"}
    assert game.to_act() == 0  # the winner is The Liar of the next hand


def test_challenge_winner_takes_the_six_cards_and_leads_next(make_game):
    draws = ["KC", "QC", "JC", "KD", "QD", "JD"]
    game = make_game(DEALER, OTHER, "7D", draws=draws)
    game.apply(0, lie(["2S", "3S", "4S"]))  # 9
    game.apply(1, answer(["AH", "5H", "6H"], challenge=True))  # 11 + 5 + 6 = 22 -> A=1: 12
    record = game.log[0]
    assert (record.liar_sum, record.judge_sum, record.winner) == (9, 12, 1)
    assert record.draws[0] == (1, ("KC", "QC", "JC"))  # the winner draws first
    assert game.to_act() == 1
    assert game.points == [0, 11]


def _play_out(game, challenge):
    """Each side plays its first three cards in hand order."""
    while (seat := game.to_act()) is not None:
        cards = game.hands[seat][:3]
        if game.pending is None:
            game.apply(seat, lie(cards))
        else:
            game.apply(seat, answer(cards, challenge))


@pytest.mark.parametrize("challenge", [False, True])
def test_seven_hands_no_draws_in_hands_6_and_7_and_loser_of_hand_5_takes_the_trump(challenge):
    game = Lie21Game().new_game(seed=5, dealer=0)
    _play_out(game, challenge)
    assert len(game.log) == 7
    assert [len(h.draws) for h in game.log] == [2, 2, 2, 2, 2, 0, 0]
    fifth = game.log[4]
    loser = 1 - fifth.winner
    assert fifth.draws[1] == (loser, fifth.draws[1][1])
    assert fifth.draws[1][1][-1] == game.trump_card
    assert game.hands == [[], []]
    assert sum(game.scores()) == 120
    assert game.is_over and game.to_act() is None


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"cards": ["KC", "2S", "3S"], "face_up": 0}, "KC is not in your hand"),
        ({"cards": ["2S", "3S"], "face_up": 0}, "exactly 3 cards, not 2"),
        ({"cards": ["2S", "3S", "4S", "5S"], "face_up": 0}, "exactly 3 cards, not 4"),
        ({"cards": ["2S", "2S", "3S"], "face_up": 0}, "repeated"),
        ({"cards": ["2S", "3S", "4S"], "face_up": 3}, "face_up index 3 is out of range"),
        ({"cards": ["2S", "3S", "4S"], "face_up": -1}, "out of range"),
        ({"cards": ["2S", "3S", "4S"], "face_up": True}, "whole number 0, 1 or 2, not True"),
        ({"cards": ["2S", "3S", "4S"], "face_up": 1.0}, "whole number 0, 1 or 2, not 1.0"),
        ({"cards": ["2S", "3S", "4S"], "face_up": "1"}, "whole number 0, 1 or 2, not '1'"),
        ({"cards": ["2S", "3S", "4S"]}, "needs 'face_up'"),
        ({"cards": ["2S", "3S", "ZZ"], "face_up": 0}, "'ZZ' is not a card code"),
        ({"cards": "2S 3S 4S", "face_up": 0}, "'cards'"),
        ({"face_up": 0}, "'cards'"),
        (["2S", "3S", "4S"], "JSON object"),
    ],
)
def test_illegal_lies_are_refused_with_a_reason(make_game, action, message):
    game = make_game(DEALER, OTHER, "7D")
    with pytest.raises(IllegalMove, match=message):
        game.apply(0, action)
    assert game.hands[0] == sorted(DEALER), "a refused move changes nothing"
    assert not game.can_apply(0, action)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"cards": ["2H", "3H", "4H"]}, "needs 'challenge'"),
        ({"cards": ["2H", "3H", "4H"], "challenge": 1}, "true or false, not 1"),
        ({"cards": ["2H", "3H", "2S"], "challenge": True}, "2S is not in your hand"),
    ],
)
def test_illegal_answers_are_refused_with_a_reason(make_game, action, message):
    game = make_game(DEALER, OTHER, "7D")
    game.apply(0, lie(["2S", "3S", "4S"]))
    with pytest.raises(IllegalMove, match=message):
        game.apply(1, action)


def test_moving_out_of_turn_is_refused(make_game):
    game = make_game(DEALER, OTHER, "7D")
    with pytest.raises(IllegalMove, match="not seat 1's turn"):
        game.apply(1, lie(["2H", "3H", "4H"]))


def test_legal_actions_are_sorted_and_all_legal():
    game = Lie21Game().new_game(seed=1, dealer=0)
    actions = list(game.legal_actions(0))
    assert len(actions) == 20 * 3
    assert all(game.can_apply(0, a) for a in actions)
    assert list(game.legal_actions(1)) == []


def test_a_deck_must_be_complete():
    with pytest.raises(ValueError, match="42 cards"):
        Lie21([*DECK[:-1], "AS"], 0)
