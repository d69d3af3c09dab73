"""The built-in bots are ordinary bot files, and the heuristic one plays well."""

import pytest

from engine import InProcessPlayer, builtin_bot, derive_seed, get_game, play_match, read_bot_path
from tests.source_imports import top_level_packages


@pytest.mark.parametrize("name", ["random", "greedy", "heuristic", "search"])
def test_builtin_bots_import_only_the_standard_library(name):
    path = builtin_bot("lie21", name)
    read_bot_path(path)  # passes the same checks as an upload
    modules = top_level_packages(path)
    assert modules <= {"random", "itertools", "collections", "math", "time"}


def _win_rate(a, b, matches):
    wins = 0
    for i in range(matches):
        seats = [("a", a), ("b", b)] if i % 2 == 0 else [("b", b), ("a", a)]
        players = [InProcessPlayer(n, builtin_bot("lie21", bot)) for n, bot in seats]
        result = play_match("lie21", players, seed=derive_seed(2026, "strength", i))
        assert result.error is None
        if result.winner is not None and players[result.winner].name == "a":
            wins += 1
    return wins / matches


@pytest.mark.slow
@pytest.mark.strength
def test_heuristic_beats_random_in_at_least_80_percent_of_400_matches():
    assert _win_rate("heuristic", "random", 400) >= 0.80


@pytest.mark.slow
@pytest.mark.strength
def test_heuristic_beats_greedy_in_more_than_55_percent_of_400_matches():
    assert _win_rate("heuristic", "greedy", 400) > 0.55


def test_builtin_bots_are_addressable_by_name():
    assert set(get_game("lie21").builtin_bots()) == {
        "random",
        "greedy",
        "heuristic",
        "search",
        "starter",
    }
