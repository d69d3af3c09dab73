"""The built-in Twenty One bots: plain bot files, legal, deterministic, fast, and sensible."""

from __future__ import annotations

import importlib.util
import statistics
from types import ModuleType

import pytest

from engine import InProcessPlayer, builtin_bot, play_match, read_bot_path
from tests.engine.games.twenty_one.helpers import deck, game, play
from tests.engine.players import TimedPlayer
from tests.source_imports import top_level_packages

BOTS = ["random", "basic", "exact", "starter"]


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        f"twenty_one_{name}", builtin_bot("twenty_one", name)
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _observation(state, seat: int) -> dict:
    seen = state.observation(seat)
    seen.update({"game_number": 1, "match_points": [0, 0], "games": []})
    seen["legal_actions"] = state.legal_actions(seat)
    return seen


class Untrusted(InProcessPlayer):
    """Checked like an uploaded bot: every action meets the JSON Schema before the rules."""

    trusted = False


@pytest.mark.parametrize("name", BOTS)
def test_builtin_bots_are_plain_bot_files_importing_only_the_standard_library(name):
    path = builtin_bot("twenty_one", name)
    read_bot_path(path)  # the same checks as an upload
    modules = top_level_packages(path)
    assert modules <= {"random", "math", "itertools", "collections"}


@pytest.mark.parametrize("name", BOTS)
@pytest.mark.parametrize("opponent", ["random", "exact"])
def test_builtin_bots_play_whole_matches_without_a_fault(name, opponent):
    players = [
        Untrusted(name, builtin_bot("twenty_one", name)),
        Untrusted(opponent, builtin_bot("twenty_one", opponent)),
    ]
    result = play_match("twenty_one", players, seed=31, options={"dealer_mode": name == "basic"})
    assert result.faults == () and result.games_played == 4


def test_the_exact_bot_is_deterministic():
    def replay():
        players = [
            InProcessPlayer("exact", builtin_bot("twenty_one", "exact")),
            InProcessPlayer("basic", builtin_bot("twenty_one", "basic")),
        ]
        return play_match("twenty_one", players, seed=17, record_timing=False).replay

    assert replay() == replay()


def test_the_exact_bot_decides_in_milliseconds():
    times: list[float] = []
    for seed in (1, 2):
        exact = TimedPlayer("exact", builtin_bot("twenty_one", "exact"))
        players = [exact, InProcessPlayer("basic", builtin_bot("twenty_one", "basic"))]
        play_match("twenty_one", players, seed=seed)
        times += exact.times
    assert statistics.median(times) < 0.05
    assert max(times) < 0.3


def test_the_starter_bot_prints_a_line_now_and_then():
    players = [
        InProcessPlayer("starter", builtin_bot("twenty_one", "starter")),
        InProcessPlayer("random", builtin_bot("twenty_one", "random")),
    ]
    result = play_match("twenty_one", players, seed=3, collect_logs=True)
    assert any("round 1: total" in entry["text"] for entry in result.logs[0])


# --- sensible decisions -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["basic", "exact"])
def test_a_bot_on_the_target_does_not_draw(name):
    state = game(deck(10, 9, 11, 3))
    assert _load(name).act(_observation(state, 0)) == {"then": "pass"}


@pytest.mark.parametrize("name", ["basic", "exact"])
def test_a_bot_draws_when_no_card_can_take_it_over(name):
    state = game(deck(1, 9, 2, 3))  # 3: even an 11 keeps it under 21
    assert _load(name).act(_observation(state, 0)) == {"then": "draw"}


@pytest.mark.parametrize("name", ["basic", "exact", "starter"])
def test_a_bot_takes_the_number_card_that_makes_21(name):
    state = game(deck(10, 9, 7, 3), hands=(["card_4"], []))  # 17: the 4 makes 21
    assert _load(name).act(_observation(state, 0)) == {"trumps": ["card_4"]}


def test_basic_draws_while_going_over_is_less_likely_than_not():
    module = _load("basic")
    assert module.act(_observation(game(deck(10, 9, 4, 3)), 0)) == {"then": "draw"}  # 14
    assert module.act(_observation(game(deck(10, 9, 7, 3)), 0)) == {"then": "pass"}  # 17


def test_exact_draws_when_the_opponent_has_passed_and_standing_mostly_loses():
    state = game(deck(6, 1, 8, 10, 9, 2), dealer=1)
    play(state, 1, then="draw")  # seat 1 shows 10 and 9
    play(state, 0, then="draw")  # seat 0: 6 + 8 + 2 = 16
    play(state, 1, then="pass")
    # Seat 1 holds 19 and a hidden card from 1, 3, 4, 5, 7, 11: 16 beats only the 11.
    assert _load("exact").act(_observation(state, 0)) == {"then": "draw"}


def test_exact_lays_an_up_card_on_the_opponents_stake_when_it_stands_on_21():
    state = game(deck(10, 9, 11, 3), hands=(["one_up"], []))
    assert _load("exact").act(_observation(state, 0)) == {"trumps": ["one_up"]}
