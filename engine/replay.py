"""Replay documents: one JSON object per match, stored gzip-compressed.

The format is described in ``docs/replay-format.md`` and by the JSON Schema in
``engine/replay.schema.json``; tests validate every replay they produce against it. The
encoding is canonical (fixed separators, gzip without a timestamp) so that the same match
gives the same bytes.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

__all__ = ["REPLAY_FORMAT", "SCHEMA_PATH", "dumps", "load", "loads", "save"]

#: Version of the replay document; bump it when a field changes meaning.
REPLAY_FORMAT = 1
SCHEMA_PATH = Path(__file__).with_name("replay.schema.json")


def dumps(replay: dict[str, Any]) -> bytes:
    """The replay as compressed bytes (deterministic: no gzip timestamp)."""
    raw = json.dumps(replay, separators=(",", ":"), ensure_ascii=False).encode()
    return gzip.compress(raw, compresslevel=6, mtime=0)


def loads(data: bytes) -> dict[str, Any]:
    """Read a replay from gzip-compressed or plain JSON bytes."""
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    replay = json.loads(data)
    if not isinstance(replay, dict) or "format" not in replay:
        raise ValueError("not a Lie 21 Arena replay (no 'format' field)")
    if replay["format"] != REPLAY_FORMAT:
        raise ValueError(f"replay format {replay['format']} is not supported ({REPLAY_FORMAT})")
    return replay


def save(replay: dict[str, Any], path: str | Path) -> Path:
    path = Path(path)
    path.write_bytes(dumps(replay))
    return path


def load(path: str | Path) -> dict[str, Any]:
    return loads(Path(path).read_bytes())
