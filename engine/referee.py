"""Re-playing a replay from what it holds: what a referee does to check a recorded match.

A replay carries every random draw its games made (each game's ``record`` says where; the
game's rules document lists it), every action and every fault. :func:`differences` deals
each game again from its record through the game's ``rebuild`` (never from its seed),
eliminates the seats that faulted where the replay says they did, plays every recorded
action, and compares what the rules say now with what the replay says: the deal's events,
each step's events, the game's record, placings and scores. An empty list means the replay
is the match its rules and draws give.

    python -m engine replay match.json.gz --check
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from engine.registry import get_game

__all__ = ["CannotReplay", "differences"]


class CannotReplay(ValueError):
    """The game offers no way to deal a game from its record (no ``rebuild``)."""


def _plain(value: Any) -> Any:
    """As the replay stores it: JSON (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value))


def differences(replay: Mapping[str, Any], *, limit: int = 20) -> list[str]:
    """What re-playing ``replay`` from its own contents gives differently (at most ``limit``
    lines); an empty list when every game re-plays to the same record."""
    game = get_game(replay["game"])
    if getattr(game, "rebuild", None) is None:
        raise CannotReplay(f"{game.title} cannot deal a game from its replay (no rebuild)")
    found: list[str] = []
    for entry in replay["games"]:
        found += _game_differences(game, replay, entry)
        if len(found) >= limit:
            return found[:limit]
    return found


def _game_differences(game: Any, replay: Mapping[str, Any], entry: Mapping[str, Any]) -> list[str]:
    """One game re-played as the match runner played it (``engine/match.py``): the seats
    out before it eliminated first, then each step, with each fault's elimination before
    the step it happened at."""
    seats = len(replay["seats"])
    number = entry["number"]
    where = f"game {number}"
    faults = replay.get("faults", [])
    try:
        state = game.rebuild(entry, num_players=seats, options=replay.get("options", {}))
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        return [f"{where}: cannot be dealt from its record ({type(exc).__name__}: {exc})"]
    out_before = sorted({f["seat"] for f in faults if f["game"] < number})
    for seat in out_before:
        state.eliminate(seat)
    live = seats - len(out_before)
    fewest = max(2, game.min_players)
    found: list[str] = []
    if _plain(state.start_events()) != entry["start"]:
        found.append(f"{where}: the deal's events differ")
    faulted_at: dict[int, list[int]] = {}
    for fault in faults:
        if fault["game"] == number and fault.get("step") is not None:
            faulted_at.setdefault(fault["step"], []).append(fault["seat"])
    steps = entry["steps"]
    try:
        for index in range(len(steps) + 1):
            for seat in faulted_at.get(index, ()):
                live -= 1
                if live < fewest:
                    return found + _compare(game, replay, where, state, entry)  # cut here
                if state.to_act() is None:
                    continue
                if not state.eliminate(seat):
                    return found + _compare(game, replay, where, state, entry)
                take = getattr(state, "take_events", None)
                events = take() if take is not None else []
                if events:
                    step = steps[index] if index < len(steps) else {}
                    if step.get("action", 0) is not None or _plain(events) != step["events"]:
                        found.append(f"{where} step {index}: the fault's events differ")
                        return found
            if index == len(steps):
                break
            step = steps[index]
            if step.get("action") is None:
                continue  # a fault's own step, checked above
            if state.to_act() != step["seat"]:
                found.append(f"{where} step {index}: seat {step['seat']} moved out of turn")
                return found
            if _plain(state.apply(step["seat"], step["action"])) != step["events"]:
                found.append(f"{where} step {index}: the events differ")
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        found.append(f"{where}: re-playing failed ({type(exc).__name__}: {exc})")
        return found
    return found + _compare(game, replay, where, state, entry)


def _compare(
    game: Any, replay: Mapping[str, Any], where: str, state: Any, entry: Mapping[str, Any]
) -> list[str]:
    """The finished (or stopped) game against its entry: record, scores, and for a game
    played to its end what the match rules made of it (placings, match points, result)."""
    found = []
    if _plain(state.record()) != entry["record"]:
        found.append(f"{where}: the record differs")
    if _plain(state.scores()) != entry["scores"]:
        found.append(f"{where}: the scores differ")
    if entry["end"] != "complete" or entry.get("placings") is None:
        return found
    if state.to_act() is not None:
        return [*found, f"{where}: the game is not over after its last step"]
    outcome = game.match_rules(replay.get("options")).game_outcome(state)
    if list(outcome.placings) != entry["placings"]:
        found.append(f"{where}: the placings differ")
    if list(outcome.awarded) != entry["awarded"] or outcome.label != entry["result"]:
        found.append(f"{where}: the match points or the result differ")
    return found
