"""Best-of-7 match rules: match points, doubles, sweeps, ties and the game cap."""

import pytest

from engine.game import GameOutcome
from engine.games.lie21.match_rules import BestOfSeven

RULES = BestOfSeven()


@pytest.mark.parametrize(
    ("scores", "winner", "awarded", "label", "ends"),
    [
        ([61, 59], 0, (1, 0), "win", False),  # more than 60 wins the game: 1 match point
        ([30, 90], 1, (0, 2), "double", False),  # 90 or more: 2 match points
        ([89, 31], 0, (1, 0), "win", False),
        ([119, 1], 0, (2, 0), "double", False),
        ([120, 0], 0, (2, 0), "sweep", True),  # 120 is a sweep and ends the match
        ([0, 120], 1, (0, 2), "sweep", True),
        ([60, 60], None, (0, 0), "tie", False),  # a tied game gives none
    ],
)
def test_game_outcome(scores, winner, awarded, label, ends):
    assert RULES.game_outcome(scores) == GameOutcome(winner, awarded, ends, label)


def _decide(points, games, last=GameOutcome(0, (1, 0))):
    return RULES.decide(points, games, last)


def test_first_to_four_match_points_wins():
    assert _decide([3, 2], 5) is None
    decision = _decide([4, 2], 6)
    assert (decision.winner, decision.reason) == (0, "match_points")
    assert _decide([1, 5], 5, GameOutcome(1, (0, 2))).winner == 1


def test_a_sweep_ends_the_match_for_the_sweeper_whatever_the_points():
    decision = _decide([2, 3], 5, GameOutcome(0, (2, 0), True, "sweep"))
    assert (decision.winner, decision.reason) == (0, "sweep")


@pytest.mark.parametrize(
    ("points", "winner"), [([3, 2], 0), ([1, 3], 1), ([3, 3], None), ([0, 0], None)]
)
def test_game_cap_goes_to_more_match_points_else_draw(points, winner):
    decision = _decide(points, 13, GameOutcome(None, (0, 0), False, "tie"))
    assert (decision.winner, decision.reason) == (winner, "game_cap")


def test_dealer_alternates_every_game():
    assert [RULES.dealer_of(n, 1, 2) for n in range(1, 6)] == [1, 0, 1, 0, 1]


def test_options_override_defaults_and_unknown_options_are_refused():
    assert BestOfSeven.from_options({"game_cap": 3}).game_cap == 3
    with pytest.raises(ValueError, match="unknown match options"):
        BestOfSeven.from_options({"best_of": 9})


@pytest.mark.parametrize(
    "options", [{"target": 0}, {"game_cap": 0}, {"win_above": 95}, {"target": "4"}, {"target": 1.5}]
)
def test_nonsense_match_options_are_refused(options):
    with pytest.raises(ValueError, match="match option"):
        BestOfSeven.from_options(options)
