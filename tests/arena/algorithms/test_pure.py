"""``arena.algorithms`` is Django-free: it imports no Django, ORM, models or services."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.source_imports import imported_modules

PACKAGE = Path(__file__).resolve().parents[3] / "arena" / "algorithms"
FORBIDDEN = ("django", "rest_framework", "celery", "arena.models", "arena.services", "workers")


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: p.name)
def test_it_imports_nothing_of_the_web_layers(path):
    for name in imported_modules(path):
        assert not name.startswith(FORBIDDEN), f"{path.name} imports {name}"
