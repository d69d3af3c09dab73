"""Reading format-1 replays (Lie 21 only, before the game-neutral format 2).

A format-1 game kept the deck, the dealer and the finished hands. Replaying those moves
through today's rules rebuilds exactly the steps and events format 2 stores, so an old
replay opens in the new viewer with nothing lost (a hand a fault cut short was never
stored, and stays missing).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.game import ranks_from_scores
from engine.games.lie21.rules import Lie21State

__all__ = ["upgrade_replay"]


def _steps(game: Mapping[str, Any]) -> tuple[list[dict[str, Any]], Any]:
    state = Lie21State(game["deck"], game["dealer"])
    times = list(game.get("move_ms", []))
    steps = []
    for hand in game["hands"]:
        lie = {"cards": list(hand["liar_cards"]), "face_up": hand["face_up"]}
        answer = {"cards": list(hand["judge_cards"]), "challenge": hand["challenge"]}
        for seat, action in ((hand["liar"], lie), (hand["judge"], answer)):
            step: dict[str, Any] = {"seat": seat, "action": action}
            step["events"] = state.apply(seat, dict(action, cards=list(action["cards"])))
            if times:
                step["ms"] = times.pop(0)
            steps.append(step)
    return steps, state


def _upgrade_game(game: Mapping[str, Any]) -> dict[str, Any]:
    """One game of a format-1 replay as a format-2 game entry (its steps played again)."""
    steps, state = _steps(game)
    complete = game["end"] == "complete"
    return {
        "number": game["number"],
        "seed": game["seed"],
        "dealer": game["dealer"],
        "rotation": 0,
        "start": state.start_events(),
        "steps": steps,
        "end": "complete" if complete else "fault",
        "placings": list(ranks_from_scores(game["scores"])) if complete else None,
        "scores": list(game["scores"]),
        "awarded": list(game["awarded"]),
        "result": game["result"] if complete else "fault",
        "record": {
            "deck": game["deck"],
            "trump_card": game["trump_card"],
            "trump_suit": game["trump_suit"],
            "deal": game["deal"],
            "hands": game["hands"],
            "scores": game["scores"],
        },
    }


def _placings_and_faults(
    result: Mapping[str, Any], seats: int
) -> tuple[list[int], list[dict[str, Any]]]:
    """A format-1 result's placings and its fault (the seat in error), as format 2 has them."""
    error = result.get("error")
    if result["winner"] is None:
        placings = (
            [0] * seats if error is None else [0 if s != error["seat"] else 1 for s in range(seats)]
        )
    else:
        placings = [0 if s == result["winner"] else 1 for s in range(seats)]
    faults = []
    if error:
        where = {k: error[k] for k in ("hand", "phase") if k in error}
        phase = error.get("phase", "act")
        faults.append(
            {
                "seat": error["seat"],
                "kind": error["kind"],
                "detail": error["detail"],
                "game": error["game"],
                "phase": phase if phase in ("start", "on_hand_end", "on_game_end") else "act",
                "step": None,
                "where": where,
            }
        )
    return placings, faults


def upgrade_replay(old: Mapping[str, Any]) -> dict[str, Any]:
    """A format-1 Lie 21 replay as format 2."""
    from engine.replay import REPLAY_FORMAT

    if old.get("format") != 1:
        raise ValueError(f"not a format-1 replay (format {old.get('format')!r})")
    result = old["result"]
    games = [_upgrade_game(game) for game in old["games"]]
    placings, faults = _placings_and_faults(result, len(old["players"]))
    return {
        "format": REPLAY_FORMAT,
        "game": "lie21",
        "rules_version": 1,
        "options": old["options"],
        "limits": old["limits"],
        "seed": old["seed"],
        "first_dealer": old["first_dealer"],
        "seats": [
            {"seat": s, "name": name, "bot_seed": old["bot_seeds"][s]}
            for s, name in enumerate(old["players"])
        ],
        "placings": placings,
        "scores": list(result["match_points"]),
        "reason": "fault" if result["reason"] == "error" else result["reason"],
        "games_played": result["games_played"],
        "totals": {
            "game_wins": list(result["game_wins"]),
            "points": list(result["points"]),
            "sweeps": list(result["sweeps"]),
        },
        "faults": faults,
        "games": games,
    }
