"""Matches: eight games, points by place, placings by points then first places, the winner
of a game leads the next, options and the duplicate format."""

from __future__ import annotations

import itertools

import pytest

from engine import GAMES, InProcessPlayer, builtin_bot, play_match
from engine.game import GameOutcome, GamePlan, Tally
from engine.games.tieng_len.match_rules import EightGames, TiengLenOptions

GAME = GAMES["tieng_len"]


def test_the_default_options():
    assert GAME.match_rules().options() == {"games": 8, "duplicate": False, "instant_wins": False}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rounds": 3}, "unknown match options: \\['rounds'\\]"),
        ({"games": "8"}, "'games' must be an integer"),
        ({"games": True}, "'games' must be an integer"),
        ({"games": 0}, "from 1 to 100"),
        ({"duplicate": 1}, "'duplicate' must be true or false"),
        ({"instant_wins": "no"}, "'instant_wins' must be true or false"),
    ],
)
def test_unknown_or_mistyped_options_are_refused_with_a_clear_message(options, message):
    with pytest.raises(ValueError, match=message):
        GAME.match_rules(options)


def test_the_dealer_rotates_and_every_game_is_a_fresh_deal():
    rules = GAME.match_rules()
    plans = [rules.plan(k, 2, 4) for k in range(1, 9)]
    assert [p.dealer for p in plans] == [2, 3, 0, 1, 2, 3, 0, 1]
    assert [p.deal for p in plans] == list(range(1, 9))
    assert {p.rotation for p in plans} == {0}


@pytest.mark.parametrize(("seats", "games"), [(2, 8), (3, 9), (4, 8)])
def test_duplicate_replays_each_deal_at_every_seat(seats, games):
    rules = GAME.match_rules({"duplicate": True})
    assert rules.games_for(seats) == games
    plans = [rules.plan(k, 0, seats) for k in range(1, games + 1)]
    for deal in {p.deal for p in plans}:
        assert sorted(p.rotation for p in plans if p.deal == deal) == list(range(seats))


def _outcome(placings, seats=4):
    return GameOutcome(
        placings=placings,
        awarded=tuple(seats - 1 - p for p in placings),
        totals={"firsts": tuple(int(p == 0) for p in placings)},
    )


def test_the_match_is_placed_by_points_then_first_places_and_still_equal_shares():
    rules = EightGames(TiengLenOptions(games=2))
    tally = Tally(4)
    tally.add(_outcome((0, 1, 2, 3)))
    assert rules.decide(tally) is None
    tally.add(_outcome((3, 2, 1, 0)))
    assert tally.match_points == [3, 3, 3, 3]
    decision = rules.decide(tally)
    # All on 3 points: seats 0 and 3 won a game each and share first; 1 and 2 share third.
    assert decision.placings == (0, 2, 2, 0) and decision.reason == "games"
    assert rules.standing(tally) == (0, 2, 2, 0)


def test_no_decision_before_the_last_game():
    rules = EightGames()
    tally = Tally(4)
    for _ in range(7):
        tally.add(_outcome((0, 1, 2, 3)))
        assert rules.decide(tally) is None
    tally.add(_outcome((0, 1, 2, 3)))
    assert rules.decide(tally).placings == (0, 1, 2, 3)


def test_options_are_a_plain_dict_and_the_leader_goes_through_the_plans_setup():
    import json

    rules = GAME.match_rules()
    options = rules.options()
    assert type(options) is dict and json.loads(json.dumps(options)) == options
    assert rules.plan(1, 0, 4).setup == {}, "the first game: the lowest card leads"
    rules.last_winner = 2
    assert rules.plan(2, 0, 4).setup == {"leader": 2}


def test_each_match_gets_its_own_rules_object():
    assert GAME.match_rules() is not GAME.match_rules()


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_first_game_is_led_by_the_lowest_card_and_later_games_by_the_last_winner(seats):
    path = builtin_bot("tieng_len", "greedy")
    players = [InProcessPlayer(f"g{s}", path) for s in range(seats)]
    replay = play_match("tieng_len", players, seed=31 + seats).replay
    games = replay["games"]
    assert len(games) == 8
    first = games[0]
    deal = first["start"][0]["public"]
    lowest = min(
        (card for hand in first["record"]["hands"] for card in hand),
        key=lambda c: ("3456789TJQKA2".index(c[0]), "SCDH".index(c[1])),
    )
    assert deal["first_game"] is True and deal["must_include"] == lowest
    assert lowest in first["record"]["hands"][deal["leader"]]
    assert lowest in first["steps"][0]["action"]["cards"]
    for before, game in itertools.pairwise(games):
        deal = game["start"][0]["public"]
        assert deal["first_game"] is False and deal["must_include"] is None
        assert deal["leader"] == before["placings"].index(0), "the last game's winner leads"
        assert game["steps"][0]["seat"] == deal["leader"]


def test_match_points_are_the_sum_of_game_points():
    path = builtin_bot("tieng_len", "random")
    result = play_match("tieng_len", [InProcessPlayer(f"r{s}", path) for s in range(4)], seed=5)
    per_game = [g["awarded"] for g in result.replay["games"]]
    assert list(result.scores) == [sum(g[s] for g in per_game) for s in range(4)]
    assert all(sorted(g) == [0, 1, 2, 3] for g in per_game)
    assert result.replay["totals"]["firsts"] == [
        sum(g["placings"][s] == 0 for g in result.replay["games"]) for s in range(4)
    ]


def test_instant_wins_end_a_game_at_the_deal_when_the_option_is_on():
    from engine.games.tieng_len import TiengLen
    from engine.games.tieng_len.cards import INDEX

    hands = [
        "2S 2C 2D 2H 3S 4S 5S 6S 7S 8S 9S TS JS",  # four 2s
        "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC QS",  # a dragon, 3 to A
        "5H 5D 6H 6D 7H 7D 8H 8D 9H 9D TH TD JH",  # six pairs
    ]
    held = {c for h in hands for c in h.split()}
    hands.insert(2, " ".join(c for c in INDEX if c not in held))
    numbers = [[INDEX[c] for c in h.split()] for h in hands]
    off = TiengLen(numbers)
    assert off.to_act() == 0
    on = TiengLen(numbers, instant_wins=True)
    assert on.to_act() is None
    assert on.instant == {0: "four_twos", 1: "dragon", 3: "six_pairs"}
    assert on.placings() == (0, 0, 3, 0)
    assert on.scores() == [3, 3, 0, 3]
    start = on.start_events()
    assert [e["type"] for e in start] == ["deal", "instant_win", "game_end"]
    assert start[1]["public"]["kinds"] == {"0": "four_twos", "1": "dragon", "3": "six_pairs"}


def test_a_match_with_instant_wins_on_plays_its_eight_games():
    path = builtin_bot("tieng_len", "random")
    players = [InProcessPlayer(f"r{s}", path) for s in range(4)]
    result = play_match("tieng_len", players, seed=8, options={"instant_wins": True})
    assert result.games_played == 8 and not result.faults


def test_a_duplicate_match_deals_every_hand_to_every_seat():
    path = builtin_bot("tieng_len", "greedy")
    players = [InProcessPlayer(f"g{s}", path) for s in range(3)]
    replay = play_match("tieng_len", players, seed=2, options={"duplicate": True}).replay
    games = replay["games"]
    assert len(games) == 9
    for block in range(3):
        hands = [g["record"]["hands"] for g in games[3 * block : 3 * block + 3]]
        assert hands[1] == hands[0][1:] + hands[0][:1]
        assert hands[2] == hands[0][2:] + hands[0][:2]


def test_the_plan_is_a_game_plan():
    assert isinstance(EightGames().plan(1, 0, 4), GamePlan)
