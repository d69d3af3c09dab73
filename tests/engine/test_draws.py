"""The shared draws (engine/draws.py): the written-out shuffle and randrange are the standard
library's, draw for draw."""

from __future__ import annotations

import random

import pytest

from engine.draws import below, shuffle


@pytest.mark.parametrize("size", [0, 1, 2, 7, 11, 23, 34, 64])
def test_the_shuffle_gives_the_order_random_shuffle_gives(size: int) -> None:
    for seed in range(200):
        ours, theirs = list(range(size)), list(range(size))
        mine, stdlib = random.Random(seed), random.Random(seed)
        shuffle(mine, ours)
        stdlib.shuffle(theirs)
        assert ours == theirs
        assert mine.getstate() == stdlib.getstate(), "and leaves the generator where it does"


@pytest.mark.parametrize("n", [1, 2, 3, 8, 11, 12, 100])
def test_below_draws_what_randrange_draws(n: int) -> None:
    mine, stdlib = random.Random(n), random.Random(n)
    assert [below(mine, n) for _ in range(500)] == [stdlib.randrange(n) for _ in range(500)]
    assert mine.getstate() == stdlib.getstate()
