"""Every number a game reports about a seat says what it is (issue 32: "Lies 16.00")."""

from __future__ import annotations

import pytest

from engine import InProcessPlayer, builtin_bot, play_match
from engine.registry import GAMES

HOSTED = [name for name in GAMES if name != "highcard"]


@pytest.mark.parametrize("name", HOSTED)
def test_each_stat_has_a_unit_and_a_meaning(name):
    game = GAMES[name]
    players = [
        InProcessPlayer(f"r{seat}", builtin_bot(name, "random")) for seat in range(game.min_players)
    ]
    replay = play_match(name, players, seed=3).replay
    reported = set().union(*(seat.keys() for seat in game.stats(replay)))
    meaning = game.stats_meaning
    assert reported == set(meaning)
    for unit, words in meaning.values():
        assert unit in {"share", "count", "number"} and words and not words.endswith(".")
