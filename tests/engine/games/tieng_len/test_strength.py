"""Strength of the built-in bots at four seats (slow: ``pytest -m strength``).

The full 400-match tables come from ``benchmarks/tieng_len_strength.py``; these tests play
fewer matches, with fixed seeds, and assert the ordering with a safe margin.
"""

from __future__ import annotations

import pytest

from engine import InProcessPlayer, builtin_bot, derive_seed, play_match

pytestmark = [pytest.mark.strength, pytest.mark.slow]


def points_per_game(strong: str, weak: str, matches: int, games: int = 8) -> tuple[float, float]:
    """Mean game points per game of each bot, two seats each (S W S W, then W S W S)."""
    points = {strong: 0, weak: 0}
    for index in range(matches):
        names = [strong, weak] * 2 if index % 2 == 0 else [weak, strong] * 2
        players = [
            InProcessPlayer(f"{name}{seat}", builtin_bot("tieng_len", name))
            for seat, name in enumerate(names)
        ]
        result = play_match(
            "tieng_len",
            players,
            seed=derive_seed(2026, "tl-strength", strong, index),
            options={"games": games},
        )
        assert result.faults == ()
        for seat, name in enumerate(names):
            points[name] += result.scores[seat]
    per = 2 * matches * games
    return points[strong] / per, points[weak] / per


def test_search_beats_greedy_clearly():
    # 320 games (40 matches of 8); the 400-match run gives about 1.9 to 1.1 (see the docs).
    search, greedy = points_per_game("search", "greedy", matches=40)
    assert search + greedy == pytest.approx(3.0)  # 3+2+1+0 points a game over two seats each
    assert search > greedy + 0.4, (search, greedy)


def test_greedy_beats_random_clearly():
    greedy, rand = points_per_game("greedy", "random", matches=50)
    assert greedy > rand + 1.0, (greedy, rand)
