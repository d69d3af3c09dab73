"""Strength of the built-in bots: games per table with seats rotating and fixed seeds.

bayes must beat honest and random clearly at every table size, and honest must beat random.
A fair share of first places is 1/seats; the thresholds leave a wide margin below what the
bots reach. ``benchmarks/liars_strength.py`` plays the same tables with the same seeds for 400
games each (about two minutes); here each table plays its first 120 games, which the
thresholds' margins allow.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine import InProcessPlayer, builtin_bot, derive_seed, play_match

pytestmark = [pytest.mark.strength, pytest.mark.slow]

GAMES = 120


def first_places(bots: list[str], games: int = GAMES) -> dict[str, float]:
    """Share of games each bot name placed first (per seat it held), seats rotating."""
    seats = len(bots)
    wins: Counter[str] = Counter()
    for i in range(games):
        order = [bots[(k + i) % seats] for k in range(seats)]
        players = [InProcessPlayer(f"{b}{k}", builtin_bot("liars", b)) for k, b in enumerate(order)]
        result = play_match("liars", players, seed=derive_seed(2026, "liars", seats, i))
        assert result.faults == ()
        for seat, rank in enumerate(result.placings):
            wins[order[seat]] += rank == 0
    return {name: wins[name] / games / bots.count(name) for name in set(bots)}


@pytest.mark.parametrize(
    ("bots", "at_least"),
    [
        (["bayes", "honest"], 0.70),
        (["bayes", "honest", "honest"], 0.60),
        (["bayes", "honest", "honest", "honest", "honest"], 0.45),
    ],
)
def test_bayes_beats_honest_clearly_at_every_table_size(bots, at_least):
    assert first_places(bots)["bayes"] >= at_least


@pytest.mark.parametrize(
    ("bots", "at_least"),
    [
        (["bayes", "random"], 0.95),
        (["bayes", "random", "random"], 0.85),
        (["bayes", "random", "random", "random", "random"], 0.75),
    ],
)
def test_bayes_beats_random_clearly_at_every_table_size(bots, at_least):
    assert first_places(bots)["bayes"] >= at_least


@pytest.mark.parametrize(
    "bots",
    [["bayes", "honest", "random"], ["bayes", "honest", "random", "honest", "random"]],
)
def test_on_mixed_tables_bayes_wins_most_and_random_least(bots):
    share = first_places(bots)
    assert share["bayes"] > share["honest"] + 0.2 > share["random"] + 0.2


@pytest.mark.parametrize(
    ("bots", "at_least"),
    [(["honest", "random"], 0.9), (["honest", "random", "random", "random", "random"], 0.6)],
)
def test_honest_beats_random(bots, at_least):
    assert first_places(bots)["honest"] >= at_least
