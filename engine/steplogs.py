"""What a bot printed and how it failed, filed at the viewer's step: one rule for the site and
for local replays.

The match runner files each seat's output under the game and step it was printed in
(``MatchResult.logs``: ``{"game", "step", "phase", "where", "text"}``, the step being the index
of the move being decided) and each fault under the step that failed (``replay["faults"]``).
The viewer counts positions differently: ``step`` there is how many steps of the game have
been *played* (0 = the deal), so output printed while deciding step ``s`` shows once ``s`` is
played, and a fault at step ``s`` shows at the moment the game stopped. This module turns the
one into the other, with the labels both pages print ("Game 4 · step 7 · hand 4, lie"), so
the arena's match page and ``python -m engine replay --html`` agree to the step and the hand.

Standard library only, like the rest of ``engine``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "FAULT_WORDS",
    "fault_moments",
    "played_steps",
    "step_entries",
    "viewer_logs",
    "where_words",
]

#: How a fault kind reads in a sentence ("alice crashed"): the match page, the local replay
#: and the viewer (``viewer/events.js``) say the same.
FAULT_WORDS = {
    "timeout": "timed out",
    "crash": "crashed",
    "memory": "ran out of memory",
    "illegal_move": "played an illegal move",
    "bad_output": "sent bad output",
    "forbidden": "tried a forbidden operation",
    "protocol": "broke the bot protocol",
}


def where_words(where: Mapping[str, Any] | None) -> str:
    """A game's own location (``{"hand": 3, "phase": "answer"}``) as "hand 3, answer".

    >>> where_words({"hand": 4, "phase": "lie"})
    'hand 4, lie'
    >>> where_words({"game_round": 2, "phase": "bet", "turn": 1})
    'game round 2, bet, turn 1'
    """
    parts = []
    for key, value in (where or {}).items():
        label = str(key).replace("_", " ")
        parts.append(str(value) if key == "phase" else f"{label} {value}")
    return ", ".join(parts)


def played_steps(replay: Mapping[str, Any] | None, number: int) -> int | None:
    """How many steps game ``number`` (1-based) of the replay recorded, or None."""
    games = (replay or {}).get("games") or []
    if not isinstance(number, int) or not 1 <= number <= len(games):
        return None
    return len(games[number - 1].get("steps") or [])


def fault_moments(replay: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """Each fault of the replay with where the viewer shows it: ``at`` (steps played when the
    game stopped, None when unknown), ``where`` ("after step 6: hand 4, lie", or "" before the
    first game) and ``link`` ("game=4&step=6", "" when there is no such moment)."""
    moments = []
    for fault in (replay or {}).get("faults") or []:
        number, step = fault.get("game"), fault.get("step")
        played = played_steps(replay, number)
        # A fault at step s stopped the game with s steps played: the viewer shows that moment.
        at = None if played is None else min(step, played) if isinstance(step, int) else played
        where = where_words(fault.get("where") if isinstance(fault.get("where"), dict) else None)
        if at is not None:
            moment = f"after step {at}" if at else "at the deal"
            where = moment + (f": {where}" if where else "")
        moments.append(
            {
                **fault,
                "at": at,
                "where_text": where,
                "link": f"game={number}&step={at}" if at is not None else "",
            }
        )
    return moments


def _label(number: int, at: int | None, entry: Mapping[str, Any]) -> str:
    parts = [f"Game {number}"] if number else ["Before the first game"]
    if number and at is not None:
        parts.append(f"step {at}")
    where = where_words(entry.get("where") if isinstance(entry.get("where"), dict) else None)
    if where:
        parts.append(where)
    phase = entry.get("phase") or ""
    if phase and phase != "act":
        parts.append(str(phase).replace("_", " "))
    return " · ".join(parts)


def step_entries(
    entries: Sequence[Mapping[str, Any]], replay: Mapping[str, Any] | None
) -> list[dict[str, Any]]:
    """One seat's log entries as the viewer files them: ``{"game", "step", "label", "text"}``
    with ``step`` the viewer position (steps played), None when the replay has no such game."""
    filed = []
    for entry in entries:
        if not isinstance(entry, Mapping):
            continue
        game = entry.get("game")
        number = game if isinstance(game, int) else 0
        step = entry.get("step")
        played = played_steps(replay, number) if number else None
        # Printed while deciding step s (or in a hook it fired): shown once s is played.
        at = None if played is None else min(step + 1, played) if isinstance(step, int) else played
        filed.append(
            {
                "game": number,
                "step": at,
                "label": _label(number, at, entry),
                "text": str(entry.get("text", "")),
                **({"fault": True} if entry.get("fault") else {}),
            }
        )
    return filed


def viewer_logs(
    replay: Mapping[str, Any], logs: Sequence[Sequence[Mapping[str, Any]]]
) -> list[dict[str, Any]]:
    """Every seat's output for the viewer (``viewer-logs``): ``[{"seat", "name", "entries"}]``,
    seats that printed nothing left out. ``logs`` is ``MatchResult.logs``, a list per seat."""
    names = [str(seat.get("name") or f"seat {n + 1}") for n, seat in enumerate(replay["seats"])]
    found = []
    for seat, entries in enumerate(logs):
        filed = step_entries(entries, replay)
        if filed and seat < len(names):
            found.append({"seat": seat, "name": names[seat], "entries": filed})
    return found
