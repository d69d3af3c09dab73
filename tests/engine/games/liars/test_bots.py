"""The built-in bots: standard library only, legal under every option, fast, deterministic."""

from __future__ import annotations

import itertools
import statistics

import pytest

from engine import InProcessPlayer, builtin_bot, derive_seed, get_game, play_match, read_bot_path
from engine import replay as replay_io
from tests.engine.players import TimedPlayer
from tests.source_imports import top_level_packages

BOTS = ["random", "honest", "bayes", "starter"]


@pytest.mark.parametrize("name", BOTS)
def test_builtin_bots_import_only_the_standard_library(name):
    path = builtin_bot("liars", name)
    read_bot_path(path)  # passes the same checks as an upload
    modules = top_level_packages(path)
    assert modules <= {"random", "itertools", "math"}


def test_builtin_bots_are_addressable_by_name():
    assert set(get_game("liars").builtin_bots()) == set(BOTS)


OPTION_NAMES = ("straights", "better", "no_lying_first_round", "stop_at_first_out")
OPTION_SETS = [
    dict(zip((*OPTION_NAMES, "straight_contest"), flags, strict=True))
    for flags in itertools.product([True, False], repeat=5)
]


@pytest.mark.parametrize("options", [*OPTION_SETS[::3], OPTION_SETS[-1]])
def test_every_builtin_bot_plays_legally_under_the_options(options):
    for seats, first in ((2, 0), (3, 1), (5, 2)):
        names = [BOTS[(first + s) % len(BOTS)] for s in range(seats)]
        seat_players = [
            InProcessPlayer(f"{n}{s}", builtin_bot("liars", n)) for s, n in enumerate(names)
        ]
        result = play_match("liars", seat_players, seed=seats, options=options)
        assert result.faults == (), [f.detail for f in result.faults]


def test_the_bayes_bot_replays_exactly_from_its_seed():
    def play():
        seats = [InProcessPlayer(f"b{s}", builtin_bot("liars", "bayes")) for s in range(3)]
        return replay_io.dumps(play_match("liars", seats, seed=12, record_timing=False).replay)

    assert play() == play()


def test_the_bayes_bot_decides_well_within_its_time():
    def decision_times(i: int, seats: int) -> list[float]:
        bayes = TimedPlayer("bayes", builtin_bot("liars", "bayes"))
        others = [InProcessPlayer(f"h{s}", builtin_bot("liars", "honest")) for s in range(1, seats)]
        play_match("liars", [bayes, *others], seed=derive_seed(3, "timing", i))
        return bayes.times

    times = []
    for i, seats in enumerate((2, 3, 5, 2, 3, 5)):
        match_times = decision_times(i, seats)
        if max(match_times) >= 0.3:
            # The same seeds make the same decisions: a slow position is slow again, while
            # a stall of this virtual machine (its CPU clock runs on) hits one run only.
            again = decision_times(i, seats)
            match_times = [min(pair) for pair in zip(match_times, again, strict=True)]
        times += match_times
    assert statistics.median(times) < 0.05
    assert max(times) < 0.3


def test_the_random_bots_written_out_draws_are_the_standard_librarys():
    """random's _subset and _below draw what ``choice`` and ``shuffle`` draw, so a seed
    still plays the same game; and leave the generator where those leave it."""
    import importlib.util
    import random

    spec = importlib.util.spec_from_file_location("liars_random", builtin_bot("liars", "random"))
    assert spec is not None and spec.loader is not None
    bot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bot)
    for seed in range(200):
        for indexes in ([0], [1, 3], [0, 1, 2, 3, 4], [2, 4, 1]):
            bot._rng, stdlib = random.Random(seed), random.Random(seed)
            for _ in range(10):
                chosen = [d for d in indexes if stdlib.random() < 0.5] or [stdlib.choice(indexes)]
                stdlib.shuffle(chosen)
                assert bot._subset(indexes) == chosen
                assert (1, -1)[bot._below(2)] == stdlib.choice([1, -1])
            assert bot._rng.getstate() == stdlib.getstate()
