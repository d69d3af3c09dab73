"""Liars matches: options, the starting seat, placing points, faults, replays."""

from __future__ import annotations

import pytest

from engine import InProcessPlayer, builtin_bot, get_game, play_match
from engine.game import Tally
from engine.games.liars.match_rules import LiarsMatch, placing_points

GAME = get_game("liars")


def players(*names):
    return [InProcessPlayer(f"{n}{s}", builtin_bot("liars", n)) for s, n in enumerate(names)]


def test_options_have_defaults_and_are_recorded_in_every_replay():
    assert GAME.match_rules(None).options() == {
        "games": 1,
        "straights": True,
        "better": False,
        "no_lying_first_round": False,
        "stop_at_first_out": False,
        "straight_contest": False,
    }
    result = play_match("liars", players("random", "random"), seed=3, options={"better": True})
    assert result.replay["options"]["better"] is True


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"lives": 5}, "unknown Liars options"),
        ({"games": 0}, "from 1 to 100"),
        ({"games": "3"}, "from 1 to 100"),
        ({"straights": 1}, "true or false"),
    ],
)
def test_bad_options_are_refused_with_a_clear_message(options, message):
    with pytest.raises(ValueError, match=message):
        LiarsMatch.from_options(options)


def test_the_first_round_of_game_one_is_started_by_seat_zero_then_the_start_rotates():
    rules = LiarsMatch(games=4)
    assert [rules.plan(g, 2, 3).dealer for g in (1, 2, 3, 4)] == [0, 1, 2, 0]
    result = play_match(
        "liars", players("random", "random", "random"), seed=5, options={"games": 3}
    )
    starts = [g["start"][1]["public"]["starter"] for g in result.replay["games"]]
    assert starts == [0, 1, 2]


def test_placing_points_rank_a_several_game_match():
    assert placing_points((0, 2, 1)) == (2, 0, 1)
    tally = Tally(3)
    rules = LiarsMatch(games=3)
    for awarded in ((2, 0, 1), (0, 2, 1), (2, 1, 0)):
        tally.match_points = [a + b for a, b in zip(tally.match_points, awarded, strict=True)]
        tally.outcomes.append(None)  # type: ignore[arg-type]
    assert rules.decide(tally).placings == (0, 1, 2)  # 4, 3 and 2 points


def test_a_one_game_match_is_placed_like_its_game():
    result = play_match("liars", players("honest", "random", "random", "random"), seed=8)
    game = result.replay["games"][0]
    assert list(result.placings) == game["placings"] and result.reason == "games"
    assert result.totals["wins"][result.placings.index(0)] == 1


class _Late(InProcessPlayer):
    """Runs over its move time on every decision: the rules play its default move."""

    def act(self, observation):
        action = super().act(observation)
        self.last_move_late = True
        return action


def test_an_absent_player_gets_the_default_move_twice_and_is_out_on_the_third():
    seats = players("honest", "honest", "honest")
    seats[1] = _Late("late", builtin_bot("liars", "honest"))
    result = play_match("liars", seats, seed=4)
    late_steps = [s for s in result.replay["games"][0]["steps"] if s.get("late")]
    assert len(late_steps) == 2 and all(s["seat"] == 1 for s in late_steps)
    assert [f.seat for f in result.faults] == [1] and result.faults[0].kind == "timeout"
    assert result.placings[1] == 2


def test_stats_read_the_replay():
    result = play_match("liars", players("bayes", "honest", "random"), seed=2)
    stats = GAME.stats(result.replay)
    assert len(stats) == 3
    assert all(s["announcements"] > 0 for s in stats)
    assert sum(s["lives_lost"] for s in stats) >= 6
