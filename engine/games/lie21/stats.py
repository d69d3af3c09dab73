"""Numbers a Lie 21 bot author reads about each seat of a match (``Game.stats``).

* ``bluff_rate``: share of its lies that were bluffs, a lie whose three cards sum to 16 or
  less, or over 21: a hand that wins a challenge only by luck of the trumps;
* ``challenge_rate``: share of its answers as The Judge that were challenges;
* ``challenge_success``: share of its challenges it won;
* ``caught_rate``: share of its lies that were challenged and lost.

A rate is None where its seat never had the chance (no lie, no challenge).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["BLUFF_AT_MOST", "MEANING", "seat_stats"]


#: What each number is, for the pages that show it (``Game.stats_meaning``): its unit
#: (``share`` of 0..1, a ``count`` per match, or another ``number``) and a few words.
MEANING: dict[str, tuple[str, str]] = {
    "lies": ("count", "hands it played as The Liar"),
    "bluff_rate": (
        "share",
        "of its lies that were bluffs: three cards summing to 16 or less, or over 21",
    ),
    "caught_rate": ("share", "of its lies that were challenged and lost"),
    "answers": ("count", "hands it answered as The Judge"),
    "challenge_rate": ("share", "of its answers that were challenges"),
    "challenge_success": ("share", "of its challenges it won"),
}

#: A lie summing to this or less (or over 21) counts as a bluff.
BLUFF_AT_MOST = 16


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def seat_stats(replay: Mapping[str, Any]) -> list[dict[str, float | None]]:
    seats = len(replay["seats"])
    lies, bluffs, caught = [0] * seats, [0] * seats, [0] * seats
    answers, challenges, won = [0] * seats, [0] * seats, [0] * seats
    for game in replay["games"]:
        for hand in game["record"]["hands"]:
            liar, judge = hand["liar"], hand["judge"]
            lies[liar] += 1
            total = hand["liar_sum"]
            bluffs[liar] += total <= BLUFF_AT_MOST or total > 21
            answers[judge] += 1
            if hand["challenge"]:
                challenges[judge] += 1
                won[judge] += hand["winner"] == judge
                caught[liar] += hand["winner"] == judge
    return [
        {
            "lies": lies[s],
            "bluff_rate": _rate(bluffs[s], lies[s]),
            "caught_rate": _rate(caught[s], lies[s]),
            "answers": answers[s],
            "challenge_rate": _rate(challenges[s], answers[s]),
            "challenge_success": _rate(won[s], challenges[s]),
        }
        for s in range(seats)
    ]
