"""A Twenty One match: four games in duplicate pairs, placings by games won then bets, the
options and what a replay records; the observation and the end-of-game reveal."""

from __future__ import annotations

import json

import pytest

from engine import InProcessPlayer, Tally, builtin_bot, get_game, play_match
from engine.game import GameOutcome
from engine.games.twenty_one import GAME
from engine.games.twenty_one.match_rules import TwentyOneMatch
from engine.transcript import transcript
from tests.engine.games.twenty_one.helpers import deck, finish_round, game, trump


def _players(a: str = "random", b: str = "random") -> list[InProcessPlayer]:
    return [
        InProcessPlayer("p0", builtin_bot("twenty_one", a)),
        InProcessPlayer("p1", builtin_bot("twenty_one", b)),
    ]


def test_the_game_is_registered_with_its_bots_docs_and_hooks():
    game_ = get_game("twenty_one")
    assert game_ is GAME and (game_.min_players, game_.max_players) == (2, 2)
    assert set(game_.builtin_bots()) == {"random", "basic", "exact", "starter"}
    assert game_.hook_events == {"round_end": "on_round_end"}
    assert game_.lists_legal_actions and game_.supports_duplicate


@pytest.mark.parametrize(
    ("number", "deal", "dealer", "rotation"),
    [(1, 1, 0, 0), (2, 1, 1, 1), (3, 2, 0, 0), (4, 2, 1, 1), (5, 3, 0, 0)],
)
def test_games_two_and_four_replay_games_one_and_three_with_the_seats_swapped(
    number, deal, dealer, rotation
):
    plan = TwentyOneMatch().plan(number, first_dealer=1, num_players=2)
    assert (plan.deal, plan.dealer, plan.rotation) == (deal, dealer, rotation)


def test_a_duplicate_game_deals_each_bot_the_cards_its_opponent_had():
    replay = play_match("twenty_one", _players(), seed=5, record_timing=False).replay
    first, second = replay["games"][0], replay["games"][1]
    assert first["seed"] == second["seed"] and (first["dealer"], second["dealer"]) == (0, 1)
    deal1, deal2 = first["start"][0], second["start"][0]
    assert deal2["private"]["0"] == deal1["private"]["1"]
    assert deal2["private"]["1"] == deal1["private"]["0"]
    assert deal2["public"]["face_up"] == deal1["public"]["face_up"][::-1]
    assert deal1["public"]["starter"] == 0 and deal2["public"]["starter"] == 1
    assert first["record"]["rounds"][0]["deck"] == second["record"]["rounds"][0]["deck"]


def test_a_match_is_four_games_and_records_its_options():
    result = play_match("twenty_one", _players("basic", "random"), seed=3)
    assert result.games_played == 4 and result.reason == "games"
    assert result.replay["options"]["games"] == 4
    assert result.replay["options"]["dealer_mode"] is False
    assert result.replay["options"]["starting_bets"] == 7
    assert result.replay["options"]["trumps"]["remove"] == 2
    assert set(result.totals) == {"game_wins", "bets", "rounds_won"}
    assert sum(result.totals["game_wins"]) <= 4 and sum(result.totals["bets"]) == 4 * 14


def test_options_change_the_matches_per_pairing_the_bets_and_the_trump_deck():
    options = {"games": 2, "starting_bets": 3, "trumps": {"destroy": 0, "shield": 4}}
    result = play_match("twenty_one", _players(), seed=4, options=options)
    replay = result.replay
    assert result.games_played == 2 and replay["options"]["trumps"]["shield"] == 4
    deck_ = replay["games"][0]["record"]["trump_deck"]
    assert "destroy" not in deck_ and deck_.count("shield") == 4
    assert tuple(replay["games"][0]["start"][0]["public"]["bets"]) == (3, 3)


def test_dealer_mode_plays_with_add_number_cards_in_the_trump_deck():
    result = play_match("twenty_one", _players(), seed=6, options={"dealer_mode": True})
    deck_ = result.replay["games"][0]["record"]["trump_deck"]
    assert sum(name.startswith("add_") for name in deck_) == 11
    assert result.replay["options"]["dealer_mode"] is True


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rounds": 3}, "unknown match options"),
        ({"games": 0}, "'games' must be an integer"),
        ({"games": True}, "'games' must be an integer"),
        ({"dealer_mode": 1}, "'dealer_mode' must be true or false"),
        ({"starting_bets": "7"}, "'starting_bets' must be an integer"),
        ({"trumps": ["remove"]}, "must be an object"),
        ({"trumps": {"joker": 1}}, "unknown trump"),
        ({"trumps": {"remove": 9}}, "must be an integer 0-8"),
        ({"trumps": {"add_5": 1}}, "Add Number cards are for dealer mode only"),
    ],
)
def test_bad_options_are_refused_with_a_clear_message(options, message):
    with pytest.raises(ValueError, match=message):
        GAME.match_rules(options)


def test_options_changed_in_place_are_checked_again_even_when_equal():
    """A deal checks its options (a caller may deal without building match rules), and
    the last ones checked are kept; the same object changed in place to a value that is
    equal but of another type (1 for true) is checked again, and refused."""
    options = {"dealer_mode": True}
    assert GAME.new_game(seed=1, dealer=0, num_players=2, options=options) is not None
    options["dealer_mode"] = 1  # == True, but not a boolean
    with pytest.raises(ValueError, match="'dealer_mode' must be true or false"):
        GAME.new_game(seed=1, dealer=0, num_players=2, options=options)


def test_options_read_back_from_a_replay_give_the_same_rules():
    rules = GAME.match_rules({"dealer_mode": True, "trumps": {"add_3": 2}})
    again = GAME.match_rules(json.loads(json.dumps(rules.options())))
    assert again == rules and again.options()["trumps"]["add_3"] == 2


def _tally(*outcomes: tuple[tuple[int, int], tuple[int, int]]) -> Tally:
    tally = Tally(2)
    for placings, bets in outcomes:
        tally.add(
            GameOutcome(
                placings=placings,
                awarded=tuple(int(p == 0 and placings[0] != placings[1]) for p in placings),
                totals={"game_wins": tuple(int(p == 0) for p in placings), "bets": bets},
            )
        )
    return tally


def test_placings_go_by_games_won_then_by_bets_held_and_equal_is_a_drawn_match():
    rules = TwentyOneMatch()
    win0, win1 = ((0, 1), (14, 0)), ((1, 0), (0, 14))
    assert rules.decide(_tally(win0, win1, win0)) is None
    assert rules.decide(_tally(win0, win1, win0, win0)).placings == (0, 1)
    assert rules.decide(_tally(win0, win1, win1, win0)).placings == (0, 0)
    capped = ((0, 1), (9, 5))  # a round-cap game: more bets won it
    tied = ((0, 0), (7, 7))
    decision = rules.decide(_tally(win0, win1, capped, tied))
    assert decision.placings == (0, 1) and decision.reason == "games"
    assert rules.standing(_tally(win1)) == (1, 0)


def test_a_game_outcome_gives_the_winner_a_match_point_and_the_totals():
    state = game(deck(10, 9, 11, 3), bets=1)
    finish_round(state)
    outcome = TwentyOneMatch().game_outcome(state)
    assert outcome.placings == (0, 1) and outcome.awarded == (1, 0) and outcome.label == "win"
    assert outcome.totals == {"game_wins": (1, 0), "bets": (2, 0), "rounds_won": (1, 0)}


# --- what a seat sees -------------------------------------------------------------------------


def test_a_seat_sees_its_own_hush_card_and_every_face_up_card_but_not_the_other_hush_card():
    state = game(deck(10, 9, 2, 3), hands=(["remove", "one_up"], ["shield"]))
    seen = state.observation(0)
    assert seen["hush"] == 10 and seen["total"] == 12 and seen["face_up"] == [[2], [3]]
    assert seen["visible_totals"] == [2, 3] and seen["unseen"] == [1, 4, 5, 6, 7, 8, 9, 11]
    assert seen["trumps"] == ["remove", "one_up"] and seen["opponent_trumps"] == 1
    assert seen["deck_count"] == 7 and seen["target"] == 21
    assert seen["bets"] == [7, 7] and seen["acting_bet"] == 1 and seen["stakes"] == [1, 1]
    assert seen["passed"] == [False, False] and seen["last_round"] is None
    assert 9 not in [v for k, v in seen.items() if k in ("hush", "total")]


def test_the_history_shows_the_rounds_moves_with_only_the_seats_own_private_parts():
    state = game(deck(10, 9, 2, 3), hands=(["two_up"], []), trump_deck=["shield"])
    trump(state, 0, "two_up")
    mine, theirs = state.observation(0)["history"], state.observation(1)["history"]
    assert mine == [
        {"type": "trump", "seat": 0, "trump": "two_up", "drew": 1, "trumps": ["shield"]}
    ]
    assert theirs == [{"type": "trump", "seat": 0, "trump": "two_up", "drew": 1}]


def test_observations_share_nothing_with_the_game_or_the_other_seat():
    """What a seat does to its observation changes nothing the rules read nor the other
    seat's view; of its own only the history entries it was shown (its own copies)."""
    state = game(deck(10, 9, 2, 3), hands=(["two_up"], []), trump_deck=["shield"])
    trump(state, 0, "two_up")
    theirs = json.dumps(state.observation(1))
    seen = state.observation(0)
    seen["face_up"][0].append(11)
    seen["trumps"].append("destroy")
    seen["history"][0]["trumps"].append("remove")
    seen["stakes"][0] = 99
    again = state.observation(0)
    assert again["face_up"] == [[2], [3]] and again["trumps"] == ["shield"]
    assert again["stakes"] == [1, 3]
    assert json.dumps(state.observation(1)) == theirs
    assert state.hands[0] == ["shield"] and state.legal_actions(0)[0] == {"trumps": ["shield"]}


def test_the_last_round_with_both_hush_cards_is_shown_once_the_round_has_ended():
    state = game(deck(10, 9, 11, 3), deck(1, 2, 3, 4))
    finish_round(state)
    last = state.observation(1)["last_round"]
    assert last["hush"] == [10, 9] and last["totals"] == [21, 12] and last["winner"] == 0
    assert state.observation(1)["history"] == []


def test_the_game_end_reveal_holds_nothing_but_the_public_round_results():
    result = play_match("twenty_one", _players(), seed=8, record_timing=False)
    for number, played in enumerate(json.loads(json.dumps(result.replay))["games"]):
        publics = [
            e["public"] for s in played["steps"] for e in s["events"] if e["type"] == "round_end"
        ]
        state = GAME.new_game(
            seed=played["seed"], dealer=played["dealer"], num_players=2, rotation=played["rotation"]
        )
        for step in played["steps"]:
            state.apply(step["seat"], step["action"])
        reveal = json.loads(json.dumps(state.reveal()))
        assert reveal["rounds"] == publics, number
        assert reveal["bets"] == played["scores"]


def test_a_replay_plays_back_to_the_same_record():
    result = play_match("twenty_one", _players("exact", "basic"), seed=12, record_timing=False)
    for played in json.loads(json.dumps(result.replay))["games"]:
        state = GAME.new_game(
            seed=played["seed"], dealer=played["dealer"], num_players=2, rotation=played["rotation"]
        )
        for step in played["steps"]:
            events = state.apply(step["seat"], step["action"])
            assert json.loads(json.dumps(events)) == step["events"]
        assert json.loads(json.dumps(state.record())) == played["record"]


# --- stats and transcript ----------------------------------------------------------------------


def test_stats_give_each_seat_its_round_numbers():
    result = play_match("twenty_one", _players("basic", "random"), seed=9)
    stats = GAME.stats(result.replay)
    assert len(stats) == 2
    for seat in stats:
        assert set(seat) == {
            "rounds",
            "round_win_rate",
            "round_draw_rate",
            "over_rate",
            "exact_rate",
            "draws_per_round",
            "trumps_per_round",
            "net_bets",
            "mean_paid_when_lost",
        }
        assert 0 <= seat["round_win_rate"] <= 1
    assert stats[0]["net_bets"] == -stats[1]["net_bets"]


def test_the_transcript_tells_the_match_round_by_round():
    result = play_match("twenty_one", _players("basic", "random"), seed=9)
    text = transcript(result.replay)
    assert text.startswith("Twenty One match, seed 9") and "round 1 (acting bet 1)" in text
    assert "Result (games)" in text


HOOKED_BOT = """
import json


def on_round_end(observation):
    last = observation["last_round"]
    print(json.dumps(["round", last["round"], last["hush"]]))


def on_game_end(reveal):
    print(json.dumps(["game", len(reveal["rounds"]), reveal["bets"]]))


def act(observation):
    return {"then": "pass"}
"""


def test_on_round_end_tells_each_bot_the_round_it_just_played_with_both_hush_cards(tmp_path):
    path = tmp_path / "hooked.py"
    path.write_text(HOOKED_BOT)
    players = [
        InProcessPlayer("hooked", path),
        InProcessPlayer("random", builtin_bot("twenty_one", "random")),
    ]
    result = play_match("twenty_one", players, seed=2, options={"games": 1}, collect_logs=True)
    assert result.faults == ()
    seen = [json.loads(line) for entry in result.logs[0] for line in entry["text"].splitlines()]
    rounds = result.replay["games"][0]["record"]["rounds"]
    assert seen[:-1] == [["round", r["round"], r["hush"]] for r in rounds]
    assert seen[-1] == ["game", len(rounds), result.replay["games"][0]["scores"]]
