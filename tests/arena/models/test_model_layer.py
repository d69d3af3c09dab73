"""The models sit below the services: ``arena.models`` imports no services (nor selectors, API,
pages or tasks), directly or through any arena module it imports.

The options a model's ``clean`` checks come from ``arena.algorithms.tournament_options``, the
same pure check the services make, so the models need nothing above them; this test keeps it
so (issue 31). It reads the sources (every ``import``, at module level or inside a function)
and follows the arena modules they import, so a service reached through a helper fails too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
MODELS = ROOT / "arena" / "models"
#: What the models must not reach: everything that builds on them.
ABOVE = ("arena.services", "arena.selectors", "arena.api", "arena.web", "workers")


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _path_of(module: str) -> Path | None:
    base = ROOT.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.exists():
            return candidate
    return None


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, relative imports resolved (``from x import y`` counts
    ``x`` and, where it is a module, ``x.y``)."""
    package = _module_of(path)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def _reached_from(start: list[Path]) -> dict[str, str]:
    """Every arena (or workers) module reached from ``start``, with the module that first
    imported it."""
    seen: dict[str, str] = {}
    todo = [(_module_of(path), path) for path in start]
    while todo:
        importer, path = todo.pop()
        for module in sorted(_imports(path)):
            if not module.startswith(("arena", "workers")) or module in seen:
                continue
            target = _path_of(module)
            if target is None:
                continue  # a name imported from a module, not a module of its own
            seen[module] = importer
            todo.append((module, target))
    return seen


def test_the_models_reach_no_service_selector_api_page_or_task():
    reached = _reached_from(sorted(MODELS.glob("*.py")))
    assert "arena.algorithms.tournament_options" in reached, "the walk follows imports"
    above = {module: by for module, by in reached.items() if module.startswith(ABOVE)}
    assert not above, f"imported by the models' side: {above}"


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        ("from arena.services.tournaments import options_check\n", True),
        ("def clean():\n    from ..services import errors\n", True),
        ("from arena.algorithms import tournament_options\n", False),
    ],
)
def test_the_check_sees_an_import_wherever_it_is(tmp_path, monkeypatch, source, caught):
    """The walk catches an import at module level or inside a function, absolute or
    relative (a model file written here, under a scratch copy of the layout)."""
    fake_root = tmp_path
    models = fake_root / "arena" / "models"
    models.mkdir(parents=True)
    (fake_root / "arena" / "__init__.py").write_text("")
    (models / "__init__.py").write_text("")
    (models / "bad.py").write_text(source)
    for package in ("services", "algorithms"):
        folder = fake_root / "arena" / package
        folder.mkdir()
        (folder / "__init__.py").write_text("")
        (folder / "errors.py").write_text("")
        (folder / "tournaments.py").write_text("")
        (folder / "tournament_options.py").write_text("")
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", fake_root)
    reached = _reached_from([models / "bad.py"])
    assert any(module.startswith("arena.services") for module in reached) == caught
