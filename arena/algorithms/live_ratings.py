"""TrueSkill's live update, Django-free: each game's environment and a table's new ratings.

A match's seats are rated together with ``trueskill.rate`` and the seats' placings as ranks
(ties allowed), in one ``trueskill.TrueSkill`` environment per game whose draw probability
is the game's measured tie rate (``Game.draw_probability``). ``arena.services.ratings``
reads and writes the rows around it; the selectors read :func:`win_probability` for the
statistics pages.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import trueskill

from engine.registry import get_game

__all__ = [
    "DEFAULT_DRAW_PROBABILITY",
    "environment",
    "rate_ranks",
    "rate_table",
    "win_probability",
]

#: For a game that has not measured its tie rate (the trueskill package's default).
DEFAULT_DRAW_PROBABILITY = 0.10


@functools.cache
def environment(game: str) -> trueskill.TrueSkill:
    """The game's TrueSkill environment: mu 25, sigma 25/3, beta 25/6, tau 25/300, and the
    game's measured draw probability."""
    draw = getattr(get_game(game), "draw_probability", DEFAULT_DRAW_PROBABILITY)
    return trueskill.TrueSkill(draw_probability=draw)


def rate_ranks(
    env: trueskill.TrueSkill, ratings: Sequence[tuple[float, float]], placings: Sequence[int]
) -> list[tuple[float, float]]:
    """New (mu, sigma) of every seat after a match with these placings (0 = first, ties
    share a rank), in environment ``env``: ``trueskill.rate`` with one team per seat.

    >>> new = rate_ranks(trueskill.TrueSkill(), [(25, 25 / 3)] * 2, [0, 1])
    >>> [(round(mu, 3), round(sigma, 3)) for mu, sigma in new]
    [(29.396, 7.171), (20.604, 7.171)]
    """
    groups = [(env.create_rating(mu, sigma),) for mu, sigma in ratings]
    rated = env.rate(groups, ranks=list(placings))
    return [(group[0].mu, group[0].sigma) for group in rated]


def rate_table(
    game: str, ratings: Sequence[tuple[float, float]], placings: Sequence[int]
) -> list[tuple[float, float]]:
    """:func:`rate_ranks` in the game's own environment."""
    return rate_ranks(environment(game), ratings, placings)


def win_probability(game: str, a: tuple[float, float], b: tuple[float, float]) -> float:
    """The chance that a player rated ``a`` places ahead of one rated ``b`` (TrueSkill's
    performance model: each performance is N(mu, sigma² + beta²))."""
    env = environment(game)
    spread = (a[1] ** 2 + b[1] ** 2 + 2 * env.beta**2) ** 0.5
    return float(env.cdf((a[0] - b[0]) / spread))
