"""A Twenty One replay as text, round by round (``python -m engine replay FILE``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["transcript"]

_VERB = {"draw": "draws", "pass": "passes", "stop": "ends the turn"}


def _step_text(names: list[str], step: Mapping[str, Any]) -> list[str]:
    out = []
    for ev in step["events"]:
        pub = ev["public"]
        kind = ev["type"]
        if kind == "trump":
            detail = {k: v for k, v in pub.items() if k not in ("seat", "trump", "hands")}
            out.append(f"    {names[pub['seat']]} plays {pub['trump']} {detail}")
        elif kind == "move":
            card = f" {pub['card']}" if pub["move"] == "draw" else ""
            out.append(f"    {names[pub['seat']]} {_VERB[pub['move']]}{card}")
        elif kind == "round_end":
            who = "draw" if pub["winner"] is None else f"{names[pub['winner']]} wins"
            out.append(
                f"  round {pub['round']}: hush {list(pub['hush'])}, totals "
                f"{list(pub['totals'])} to {pub['target']}: {who}, paid {pub['paid']}, "
                f"bets {list(pub['bets'])}"
            )
        elif kind == "round_start":
            out.append(_deal_text(names, pub))
        elif kind == "game_end":
            out.append(f"  game over after {pub['rounds']} rounds: bets {list(pub['bets'])}")
    return out


def _deal_text(names: list[str], pub: Mapping[str, Any]) -> str:
    return (
        f"  round {pub['round']} (acting bet {pub['acting_bet']}): {names[pub['starter']]} "
        f"starts; face up {list(map(list, pub['face_up']))}"
    )


def transcript(replay: Mapping[str, Any]) -> str:
    names = [seat["name"] for seat in replay["seats"]]
    lines = [
        f"Twenty One match, seed {replay['seed']}: "
        + ", ".join(f"{name} (seat {seat})" for seat, name in enumerate(names))
    ]
    for game in replay["games"]:
        lines.append("")
        lines.append(f"Game {game['number']} (rotation {game['rotation']})")
        for ev in game["start"]:
            lines.append(_deal_text(names, ev["public"]))
        for step in game["steps"]:
            lines.extend(_step_text(names, step))
        if game["end"] != "complete":
            lines.append("  (game stopped: a bot failed)")
    lines.append("")
    for fault in replay["faults"]:
        lines.append(f"{names[fault['seat']]} is out ({fault['kind']}): {fault['detail']}")
    order = sorted(range(len(names)), key=lambda s: replay["placings"][s])
    lines.append(
        f"Result ({replay['reason']}): "
        + ", ".join(f"#{replay['placings'][s] + 1} {names[s]}" for s in order)
    )
    return "\n".join(lines) + "\n"
