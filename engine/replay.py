"""Replay documents: one JSON object per match, stored gzip-compressed.

Format 2 is one envelope for every game (seats, placings, faults, and per game its start
events and a step log of seat, action, time and events) around a game-specific ``record``;
see ``docs/replay-format.md``, the envelope's JSON Schema ``engine/replay.schema.json`` and
each game's schema (``Game.replay_schema_path()``: ``replay.schema.json`` in its folder).
Older formats are upgraded on read by the game that wrote them. The encoding is canonical
(fixed separators, gzip without a timestamp) so that the same match gives the same bytes.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["REPLAY_FORMAT", "SCHEMA_PATH", "dumps", "load", "loads", "save", "upgrade"]

#: Version of the replay document; bump it when a field changes meaning.
REPLAY_FORMAT = 2
SCHEMA_PATH = Path(__file__).with_name("replay.schema.json")


def dumps(replay: dict[str, Any]) -> bytes:
    """The replay as compressed bytes (deterministic: no gzip timestamp)."""
    raw = json.dumps(replay, separators=(",", ":"), ensure_ascii=False).encode()
    return gzip.compress(raw, compresslevel=6, mtime=0)


def upgrade(replay: dict[str, Any]) -> dict[str, Any]:
    """A replay of an older format in the current one (the game that wrote it converts it)."""
    if replay.get("format") == REPLAY_FORMAT:
        return replay
    from engine.registry import get_game

    game = get_game(replay.get("game", ""))
    # An optional method of a game whose replays changed format (not in the Game protocol).
    convert: Callable[[Mapping[str, Any]], dict[str, Any]] | None = getattr(
        game, "upgrade_replay", None
    )
    if convert is None:
        raise ValueError(f"replay format {replay.get('format')} of {game.name} cannot be read")
    return convert(replay)


def loads(data: bytes) -> dict[str, Any]:
    """Read a replay from gzip-compressed or plain JSON bytes (older formats upgraded)."""
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    replay = json.loads(data)
    if not isinstance(replay, dict) or "format" not in replay:
        raise ValueError("not an arena replay (no 'format' field)")
    if type(replay["format"]) is not int or not 1 <= replay["format"] <= REPLAY_FORMAT:
        raise ValueError(f"replay format {replay['format']!r} is not supported")
    return upgrade(replay)


def save(replay: dict[str, Any], path: str | Path) -> Path:
    path = Path(path)
    path.write_bytes(dumps(replay))
    return path


def load(path: str | Path) -> dict[str, Any]:
    return loads(Path(path).read_bytes())
