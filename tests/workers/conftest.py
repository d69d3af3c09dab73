"""The worker tests store uploaded files in a private directory (``media``, from
tests/workers/fixtures.py with the other fixtures they share with the service tests)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_media(media: Path) -> Path:
    """Every worker test gets its own MEDIA_ROOT, as the arena tests get theirs."""
    return media
