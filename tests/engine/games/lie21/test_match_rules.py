"""Best-of-7 match rules: match points, doubles, sweeps, ties and the game cap."""

import pytest

from engine.game import GameOutcome, Tally, winner_of
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
    outcome = RULES.points_outcome(scores)
    assert (outcome.awarded, outcome.label, outcome.ends_match) == (awarded, label, ends)
    assert winner_of(outcome.placings) == winner
    assert outcome.totals["points"] == tuple(scores)
    assert outcome.totals["sweeps"] == tuple(int(label == "sweep" and s == winner) for s in (0, 1))


def _tally(points, games, last=None):
    tally = Tally(2)
    for _ in range(games - 1):
        tally.add(GameOutcome((0, 0), (0, 0), "tie"))
    tally.add(last or GameOutcome((0, 1), (1, 0), "win"))
    tally.match_points = list(points)
    return tally


def _decide(points, games, last=None):
    return RULES.decide(_tally(points, games, last))


def test_first_to_four_match_points_wins():
    assert _decide([3, 2], 5) is None
    decision = _decide([4, 2], 6)
    assert (winner_of(decision.placings), decision.reason) == (0, "match_points")
    assert winner_of(_decide([1, 5], 5, GameOutcome((1, 0), (0, 2), "double")).placings) == 1


def test_a_sweep_ends_the_match_for_the_sweeper_whatever_the_points():
    decision = _decide([2, 3], 5, GameOutcome((0, 1), (2, 0), "sweep", ends_match=True))
    assert (winner_of(decision.placings), decision.reason) == (0, "sweep")


@pytest.mark.parametrize(
    ("points", "winner"), [([3, 2], 0), ([1, 3], 1), ([3, 3], None), ([0, 0], None)]
)
def test_game_cap_goes_to_more_match_points_else_draw(points, winner):
    decision = _decide(points, 13, GameOutcome((0, 0), (0, 0), "tie"))
    assert (winner_of(decision.placings), decision.reason) == (winner, "game_cap")
    if winner is None:
        assert decision.placings == (0, 0), "a drawn match shares first place"


def test_dealer_alternates_every_game():
    assert [RULES.plan(n, 1, 2).dealer for n in range(1, 6)] == [1, 0, 1, 0, 1]
    assert [RULES.plan(n, 1, 2).deal for n in range(1, 4)] == [1, 2, 3], "a fresh deal each game"


def test_the_standing_is_by_match_points():
    assert RULES.standing(_tally([1, 3], 4)) == (1, 0)
    assert RULES.standing(_tally([2, 2], 4)) == (0, 0)


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
