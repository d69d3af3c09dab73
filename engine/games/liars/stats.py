"""Numbers a Liars bot author reads about each seat of a match (``Game.stats``).

* ``announcements``: hands it announced;
* ``bluff_rate``: share of its announcements higher than the dice really were then;
* ``caught_rate``: share of its announcements that were refused and cost it a life;
* ``refusals``: times it said "liar"; ``refusal_success``: share of those that cost the
  bettor the life;
* ``looks``: times it looked under the cup;
* ``lives_lost``: lives it lost over the match (a forfeit is not counted here).

A rate is None where its seat never had the chance.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["MEANING", "seat_stats"]


#: What each number is, for the pages that show it (``Game.stats_meaning``): its unit
#: (``share`` of 0..1, a ``count`` per match, or another ``number``) and a few words.
MEANING: dict[str, tuple[str, str]] = {
    "announcements": ("count", "hands it announced"),
    "bluff_rate": ("share", "of its announcements higher than the dice really were"),
    "caught_rate": ("share", "of its announcements refused at the cost of a life"),
    "refusals": ("count", 'times it said "liar"'),
    "refusal_success": ("share", "of its refusals that cost the bettor a life"),
    "looks": ("count", "times it looked under the cup"),
    "lives_lost": ("count", "lives it lost (a forfeit not counted)"),
}


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def seat_stats(replay: Mapping[str, Any]) -> list[dict[str, float | None]]:
    seats = len(replay["seats"])
    said, bluffs, caught = [0] * seats, [0] * seats, [0] * seats
    refusals, won, looks, lost = [0] * seats, [0] * seats, [0] * seats, [0] * seats
    for game in replay["games"]:
        for rnd in game["record"]["rounds"]:
            for entry in rnd["chain"]:
                said[entry["seat"]] += 1
                bluffs[entry["seat"]] += not entry["true"]
            for seat in rnd["looks"]:
                looks[seat] += 1
            loser, refuser = rnd["loser"], rnd["refuser"]
            if loser is not None:
                lost[loser] += 1
            if refuser is not None:
                refusals[refuser] += 1
                if rnd["reason"] == "refused_false":
                    won[refuser] += 1
                    caught[loser] += 1
    return [
        {
            "announcements": said[s],
            "bluff_rate": _rate(bluffs[s], said[s]),
            "caught_rate": _rate(caught[s], said[s]),
            "refusals": refusals[s],
            "refusal_success": _rate(won[s], refusals[s]),
            "looks": looks[s],
            "lives_lost": lost[s],
        }
        for s in range(seats)
    ]
