"""Numbers a Tieng Len bot author reads about each seat of a match (``Game.stats``).

* ``games``: games the seat finished with a place (games cut short by a fault are skipped);
* ``first_rate``: share of those games it went out first;
* ``mean_place``: its mean place, 1 for first;
* ``pass_rate``: share of its moves that were passes (leads cannot be passed);
* ``leads``: tricks it led; ``tricks_won``: tricks whose last play was its own;
* ``bombs``: bombs it played on 2s; ``twos``: 2s it played;
* ``cards_left_when_last``: mean cards it held when it was left last (None: never last).

A rate is None where the seat never had the chance.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["MEANING", "seat_stats"]


#: What each number is, for the pages that show it (``Game.stats_meaning``): its unit
#: (``share`` of 0..1, a ``count`` per match, or another ``number``) and a few words.
MEANING: dict[str, tuple[str, str]] = {
    "games": ("count", "games it finished with a place"),
    "first_rate": ("share", "of those games it went out first"),
    "mean_place": ("number", "its mean place in a game, 1 for first"),
    "pass_rate": ("share", "of its moves that were passes"),
    "leads": ("count", "tricks it led"),
    "tricks_won": ("count", "tricks whose last play was its own"),
    "bombs": ("count", "bombs it played on 2s"),
    "twos": ("count", "2s it played"),
    "cards_left_when_last": ("number", "cards it held, on average, when left last"),
}


def _rate(part: float, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def seat_stats(replay: Mapping[str, Any]) -> list[dict[str, float | None]]:
    seats = len(replay["seats"])
    games, firsts, place_sum = [0] * seats, [0] * seats, [0] * seats
    moves, passes, leads, won = [0] * seats, [0] * seats, [0] * seats, [0] * seats
    bombs, twos = [0] * seats, [0] * seats
    lasts, left_when_last = [0] * seats, [0] * seats
    for game in replay["games"]:
        placings = game.get("placings")
        if placings is not None and game.get("end") == "complete":
            for seat, rank in enumerate(placings):
                games[seat] += 1
                firsts[seat] += rank == 0
                place_sum[seat] += rank + 1
        for event in game.get("start", ()):
            if event["type"] == "deal" and event["public"].get("leader") is not None:
                leads[event["public"]["leader"]] += 1
        for step in game.get("steps", ()):
            seat = step["seat"]
            moves[seat] += 1
            for event in step.get("events", ()):
                kind, public = event["type"], event["public"]
                if kind == "pass":
                    passes[seat] += 1
                elif kind == "play":
                    twos[seat] += sum(1 for c in public["cards"] if c[0] == "2")
                    bombs[seat] += bool(public.get("bomb"))
                elif kind == "lead":
                    leads[public["seat"]] += 1
                elif kind == "game_end" and public.get("last") is not None:
                    last = public["last"]
                    lasts[last] += 1
                    left_when_last[last] += public["cards_left"][last]
        # A trick is won by its last play (the next leader, or a seat that went out with it).
        winner_of_trick = None
        for step in game.get("steps", ()):
            for event in step.get("events", ()):
                if event["type"] == "play":
                    winner_of_trick = event["public"]["seat"]
                elif event["type"] == "lead" and winner_of_trick is not None:
                    won[winner_of_trick] += 1
                    winner_of_trick = None
    return [
        {
            "games": games[s],
            "first_rate": _rate(firsts[s], games[s]),
            "mean_place": _rate(place_sum[s], games[s]),
            "pass_rate": _rate(passes[s], moves[s]),
            "leads": leads[s],
            "tricks_won": won[s],
            "bombs": bombs[s],
            "twos": twos[s],
            "cards_left_when_last": _rate(left_when_last[s], lasts[s]),
        }
        for s in range(seats)
    ]
