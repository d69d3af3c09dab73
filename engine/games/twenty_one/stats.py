"""Numbers a Twenty One bot author reads about each seat of a match (``Game.stats``).

* ``rounds``: rounds played; ``round_win_rate`` / ``round_draw_rate``: shares of them won
  and drawn;
* ``over_rate``: share of rounds it ended over the target; ``exact_rate``: ended exactly on it;
* ``draws_per_round``: playing cards it drew from the deck per round (not through trumps);
* ``trumps_per_round``: trumps it played per round;
* ``net_bets``: bets won minus bets lost over the match (final bets minus starting bets,
  game by game);
* ``mean_paid_when_lost``: the bets it paid on average in the rounds it lost.

A rate is None where its seat never had the chance (no round played, no round lost).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["MEANING", "seat_stats"]


#: What each number is, for the pages that show it (``Game.stats_meaning``): its unit
#: (``share`` of 0..1, a ``count`` per match, or another ``number``) and a few words.
MEANING: dict[str, tuple[str, str]] = {
    "rounds": ("count", "rounds played"),
    "round_win_rate": ("share", "of the rounds it won"),
    "round_draw_rate": ("share", "of the rounds drawn"),
    "over_rate": ("share", "of the rounds it ended over the target"),
    "exact_rate": ("share", "of the rounds it ended exactly on the target"),
    "draws_per_round": ("number", "cards it drew from the deck per round"),
    "trumps_per_round": ("number", "trumps it played per round"),
    "net_bets": ("number", "bets won minus bets lost over a match"),
    "mean_paid_when_lost": ("number", "bets it paid on average in a round it lost"),
}


def _rate(part: float, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def seat_stats(replay: Mapping[str, Any]) -> list[dict[str, float | None]]:
    seats = len(replay["seats"])
    start = replay.get("options", {}).get("starting_bets", 7)
    rounds = 0
    won, drawn_rounds, over, exact = [0] * seats, 0, [0] * seats, [0] * seats
    cards, trumps, net, lost, paid = [0] * seats, [0] * seats, [0] * seats, [0] * seats, [0] * seats
    for game in replay["games"]:
        record = game["record"]
        for r in record["rounds"]:
            rounds += 1
            winner = r["winner"]
            if winner is None:
                drawn_rounds += 1
            else:
                won[winner] += 1
                lost[1 - winner] += 1
                paid[1 - winner] += r["paid"]
            for s in range(seats):
                over[s] += r["totals"][s] > r["target"]
                exact[s] += r["totals"][s] == r["target"]
                cards[s] += r["drawn"][s]
                trumps[s] += r["trumps_played"][s]
        for s in range(seats):
            net[s] += record["bets"][s] - start
    return [
        {
            "rounds": rounds,
            "round_win_rate": _rate(won[s], rounds),
            "round_draw_rate": _rate(drawn_rounds, rounds),
            "over_rate": _rate(over[s], rounds),
            "exact_rate": _rate(exact[s], rounds),
            "draws_per_round": _rate(cards[s], rounds),
            "trumps_per_round": _rate(trumps[s], rounds),
            "net_bets": net[s],
            "mean_paid_when_lost": _rate(paid[s], lost[s]),
        }
        for s in range(seats)
    ]
