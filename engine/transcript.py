"""A replay as readable text (``python -m engine replay FILE``).

A game may write its own transcript (``Game.transcript``); any other game gets this one,
read straight from the game-neutral envelope: every step's seat and action, every game's
placings, every fault, and the match's placings.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from engine.registry import GAMES

__all__ = ["transcript"]


def _ordinal(rank: int) -> str:
    return {0: "1st", 1: "2nd", 2: "3rd"}.get(rank, f"{rank + 1}th")


def transcript(replay: Mapping[str, Any]) -> str:
    game = GAMES.get(replay.get("game", ""))
    # A game may write its own (an optional method, not part of the Game protocol).
    own: Callable[[Mapping[str, Any]], str] | None = getattr(game, "transcript", None)
    if own is not None:
        return own(replay)
    return generic_transcript(replay)


def generic_transcript(replay: Mapping[str, Any]) -> str:
    names = [seat["name"] for seat in replay["seats"]]
    lines = [
        f"{replay['game']} match, seed {replay['seed']}: "
        + ", ".join(f"{name} (seat {seat})" for seat, name in enumerate(names))
    ]
    for game in replay["games"]:
        lines.append("")
        lines.append(f"Game {game['number']}: {names[game['dealer']]} deals")
        for number, step in enumerate(game["steps"]):
            action = json.dumps(step["action"], separators=(",", ":"))
            late = " (late: the default move)" if step.get("late") else ""
            lines.append(f"  step {number}: {names[step['seat']]} plays {action}{late}")
        if game["end"] != "complete":
            lines.append("  (game stopped: a bot failed)")
        elif game["placings"] is not None:
            order = sorted(range(len(names)), key=lambda s: game["placings"][s])
            lines.append(
                "  Placings: "
                + ", ".join(f"{_ordinal(game['placings'][s])} {names[s]}" for s in order)
            )
    lines.append("")
    for fault in replay["faults"]:
        lines.append(
            f"{names[fault['seat']]} is out by {fault['kind']} in game {fault['game']}: "
            f"{fault['detail']}"
        )
    order = sorted(range(len(names)), key=lambda s: replay["placings"][s])
    lines.append(
        f"Result ({replay['reason']}): "
        + ", ".join(f"{_ordinal(replay['placings'][s])} {names[s]}" for s in order)
    )
    return "\n".join(lines) + "\n"
