"""Every replay checked against the envelope's JSON Schema and its game's own.

The check runs on every replay any test produces (tests/conftest.py), so it uses
jsonschema-rs, a compiled validator of the same drafts (the schemas are 2020-12): the pure
Python ``jsonschema`` took 0.2-1.5 s a replay, more than the match that made it, and was the
largest single cost of the suite.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import jsonschema_rs

from engine import replay as replay_io
from engine.registry import get_game

ROOT = Path(__file__).resolve().parents[1]


def game_schema_path(game: str) -> Path:
    """The game's own schema (``replay.schema.json`` in its folder)."""
    return get_game(game).replay_schema_path()


@functools.cache
def _validator(path: str) -> Any:
    """A compiled validator for the draft the schema names (its ``$schema``)."""
    return jsonschema_rs.validator_for(json.loads(Path(path).read_text()))


def validate_replay(replay: dict[str, Any]) -> None:
    """Raise jsonschema_rs.ValidationError unless the replay (as JSON) matches both schemas."""
    as_json = json.loads(json.dumps(replay))  # what is stored: tuples are lists
    _validator(str(replay_io.SCHEMA_PATH)).validate(as_json)
    _validator(str(game_schema_path(as_json["game"]))).validate(as_json)
