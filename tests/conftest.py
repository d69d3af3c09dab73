"""The fixed cast every test can use: an anonymous client, an owner, another user, staff."""

from __future__ import annotations

import os

import pytest
from django.contrib.auth import get_user_model

# Before anything imports the engine's registry: the test game is hosted in every process.
os.environ.setdefault("ARENA_EXTRA_GAMES", "tests.games.highcard")

# Bots with stored versions and real workers, for the service tests in tests/arena/ and the
# worker tests in tests/workers/ alike.
pytest_plugins = ["tests.workers.fixtures"]


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
    """Validate every replay produced in this process against the envelope's schema
    (engine/replay.schema.json) and its game's own (replay.schema.json in its folder)."""
    from engine.match import REPLAY_CHECKS
    from tests.replay_schemas import validate_replay

    REPLAY_CHECKS.append(validate_replay)
    yield
    REPLAY_CHECKS.remove(validate_replay)


@pytest.fixture(autouse=True)
def _strength_tests_skip_the_schema_check(request):
    """Strength tests play hundreds of matches whose replays are like every other test's:
    the check's JSON round trip alone (3-6 ms a replay) would add seconds to each of them
    for nothing the other tests do not already check."""
    from engine.match import REPLAY_CHECKS
    from tests.replay_schemas import validate_replay

    if request.node.get_closest_marker("strength") is None or validate_replay not in REPLAY_CHECKS:
        yield
        return
    REPLAY_CHECKS.remove(validate_replay)
    yield
    REPLAY_CHECKS.append(validate_replay)


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Pages cached by one test (ladders, match lists, a process's copies of final match
    pages and replays) must not be served to the next, nor version files kept by one (the
    same pk and checksum can recur) to the next."""
    from django.core.cache import cache

    from arena.freshness import local_copies_clear
    from arena.services.matches import version_cache_clear

    cache.clear()
    local_copies_clear()
    version_cache_clear()
