"""Every replay checked against the envelope's JSON Schema and its game's own."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import jsonschema

from engine import replay as replay_io
from engine.registry import get_game

ROOT = Path(__file__).resolve().parents[1]


def game_schema_path(game: str) -> Path:
    """The game's own schema (``replay.schema.json`` in its folder)."""
    return get_game(game).replay_schema_path()


@functools.cache
def _validator(path: str) -> jsonschema.protocols.Validator:
    schema = json.loads(Path(path).read_text())
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema)


def validate_replay(replay: dict[str, Any]) -> None:
    """Raise jsonschema.ValidationError unless the replay (as JSON) matches both schemas."""
    as_json = json.loads(json.dumps(replay))  # what is stored: tuples are lists
    _validator(str(replay_io.SCHEMA_PATH)).validate(as_json)
    _validator(str(game_schema_path(as_json["game"]))).validate(as_json)
