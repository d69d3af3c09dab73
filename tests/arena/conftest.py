"""Arena test fixtures: API clients for the cast, a private MEDIA_ROOT, an empty cache."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.arena.helpers import client_for


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path: Path) -> Path:
    """Every arena test stores files in its own directory, so none leaks into another."""
    root = tmp_path / "media"
    root.mkdir()
    settings.MEDIA_ROOT = root
    return root


@pytest.fixture(autouse=True)
def _clear_cache():
    """Throttle counts and cached list counts live in the cache: a test starts with none."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def anon_client(db) -> APIClient:
    return client_for(None)


@pytest.fixture
def owner_client(owner) -> APIClient:
    return client_for(owner)


@pytest.fixture
def other_client(other_user) -> APIClient:
    return client_for(other_user)


@pytest.fixture
def staff_client(staff) -> APIClient:
    return client_for(staff)
