"""The fixed cast every test can use: an anonymous client, an owner, another user, staff."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model


@pytest.fixture
def owner(db):
    return get_user_model().objects.create_user("alice", "alice@example.com", "alice-pass-123")


@pytest.fixture
def other_user(db):
    return get_user_model().objects.create_user("bob", "bob@example.com", "bob-pass-123")


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user(
        "olga", "olga@example.com", "olga-pass-123", is_staff=True
    )


@pytest.fixture(autouse=True, scope="session")
def _every_replay_matches_the_schema():
    """Validate every replay produced in this process against engine/replay.schema.json."""
    import json

    import jsonschema

    from engine import replay as replay_io
    from engine.match import REPLAY_CHECKS

    validator = jsonschema.Draft202012Validator(json.loads(replay_io.SCHEMA_PATH.read_text()))
    REPLAY_CHECKS.append(validator.validate)
    yield
    REPLAY_CHECKS.remove(validator.validate)


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Pages cached by one test (ladders, match lists) must not be served to the next."""
    from django.core.cache import cache

    cache.clear()
