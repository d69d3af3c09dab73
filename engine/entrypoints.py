"""Entry points of the engine's plug-in groups, from a checkout as from an installed engine.

Games (``bluff_arena.games``) and the local sandbox (``bluff_arena.sandbox``) are plug-ins: a
distribution declares them in its metadata and the engine imports none of them by name. An
engine run from a source checkout has no installed metadata of its own on ``sys.path``, so
its own entry points are read from the ``pyproject.toml`` beside it (the table its wheel's
metadata is built from); an installed copy of the engine then stands aside, so a checkout
always uses what its own sources declare.
"""

from __future__ import annotations

import tomllib
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

__all__ = ["DISTRIBUTION", "group_entry_points"]

#: The engine's own distribution (its plug-ins are entry points of it like any other's).
DISTRIBUTION = "bluff-arena-engine"
_CHECKOUT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def _normal(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def _checkout_entry_points(group: str) -> list[EntryPoint] | None:
    """The engine's own entry points of ``group`` when it runs from a source checkout; None
    when the engine is an installed distribution."""
    if not _CHECKOUT.is_file():
        return None
    project = tomllib.loads(_CHECKOUT.read_text(encoding="utf-8")).get("project", {})
    if _normal(project.get("name", "")) != DISTRIBUTION:
        return None
    table = project.get("entry-points", {}).get(group, {})
    return [EntryPoint(name, value, group) for name, value in table.items()]


def group_entry_points(group: str) -> list[EntryPoint]:
    """Every entry point of ``group``: the installed distributions', and in a checkout the
    engine's own first, from its ``pyproject.toml``."""
    own = _checkout_entry_points(group)
    found = []
    for point in entry_points(group=group):
        dist = getattr(point, "dist", None)
        if own is not None and dist is not None and _normal(dist.name) == DISTRIBUTION:
            continue
        found.append(point)
    return found if own is None else own + found
