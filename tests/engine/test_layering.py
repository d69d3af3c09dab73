"""engine/ and sandbox/ stay free of Django, Celery and the arena, and the engine of the
sandbox (which imports the engine's player interface: the local runner finds it as a plug-in,
engine/sandboxes.py)."""

import ast
from pathlib import Path

import pytest

from tests.source_imports import imported_modules

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = {"django", "celery", "kombu", "rest_framework", "arena", "workers"}


@pytest.mark.parametrize(
    ("package", "forbidden"), [("engine", FORBIDDEN | {"sandbox"}), ("sandbox", FORBIDDEN)]
)
def test_package_imports_nothing_from_the_layers_above(package, forbidden):
    offenders = []
    for path in (ROOT / package).rglob("*.py"):
        names = imported_modules(path)
        offenders += [
            f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] in forbidden
        ]
    assert offenders == []


def test_the_arena_imports_nothing_from_the_workers():
    """Services queue tasks by name (``arena.queue``); health checks use the same app. Any
    import of ``workers`` from ``arena/``, even inside a function, is a circle:
    ``workers.tasks`` imports the services."""
    offenders = []
    for path in (ROOT / "arena").rglob("*.py"):
        names = imported_modules(path)
        offenders += [
            f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] == "workers"
        ]
    assert offenders == []


# --- game neutrality (everything above engine/games/<game>/ is game-neutral) ---------------

GAME_NEUTRAL = ["arena", "workers", "sandbox"]
ENGINE_CORE = list((ROOT / "engine").glob("*.py"))


def _code_strings_and_names(path: Path) -> set[str]:
    """String constants (docstrings excluded) and identifiers used in a module's code."""
    tree = ast.parse(path.read_text())
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                found.add(node.value.lower())
        elif isinstance(node, ast.Name):
            found.add(node.id.lower())
        elif isinstance(node, ast.Attribute):
            found.add(node.attr.lower())
    return found


@pytest.mark.parametrize("package", ["arena", "workers"])
def test_the_arena_and_workers_import_no_game_package(package):
    offenders = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
        for name in imported_modules(path)
        if name.startswith("engine.games")
    ]
    assert offenders == []


def _game_words() -> set[str]:
    """Names and hooks no code outside a game's folder may use: each game's name and its
    own hooks, and Lie 21's roles."""
    from engine.registry import GAMES

    words = {"liar", "judge", "on_hand_end"}
    for name, game in GAMES.items():
        words.add(name)
        words.update(game.hooks)
    return words


def test_no_code_outside_the_games_names_a_game_or_its_concepts():
    words = _game_words()
    paths = [
        path
        for package in GAME_NEUTRAL
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    ] + ENGINE_CORE
    offenders = []
    for path in paths:
        used = _code_strings_and_names(path)
        for word in sorted(words):
            hits = [text for text in used if word in text.split() or text == word]
            if hits:
                offenders.append(f"{path.relative_to(ROOT)}: {word!r} in {sorted(hits)[:3]}")
    assert offenders == []


def test_the_sandbox_names_no_game_hook():
    from engine.registry import GAMES

    hooks = {hook for game in GAMES.values() for hook in game.hooks}
    offenders = [
        f"{path.relative_to(ROOT)}: {hook}"
        for path in (ROOT / "sandbox").rglob("*.py")
        for hook in hooks
        if hook in path.read_text()
    ]
    assert offenders == []


def test_pages_and_scripts_name_no_game():
    """Every renderer is in its game's folder: the site's pages and scripts are all neutral."""
    words = {"lie21", "the liar", "the judge", "liar's", "judge's"}
    places = [ROOT / "arena" / "templates", ROOT / "arena" / "static" / "arena"]
    offenders = []
    for place in places:
        for path in place.rglob("*"):
            if not path.is_file() or path.suffix not in {".html", ".js", ".css"}:
                continue
            if "editor" in path.relative_to(place).parts:
                continue  # the bundled code editor (CodeMirror), not ours
            text = path.read_text(errors="replace").lower()
            offenders += [f"{path.relative_to(ROOT)}: {w!r}" for w in words if w in text]
    assert offenders == []


def test_a_games_files_live_in_its_folder_alone():
    """Nothing outside a game's folder is one of its files: no renderer, rules document or
    replay schema of a game under arena/, docs/, workers/ or sandbox/, and nothing that
    builds the engine (setup.py) or its viewer copies a game's file by name."""
    from engine.registry import GAMES

    offenders = []
    for place in ("arena", "docs", "workers", "sandbox"):
        for path in (ROOT / place).rglob("*"):
            parts = {part.lower() for part in path.relative_to(ROOT).parts}
            stem = path.name.split(".")[0].lower()
            if path.is_file() and (stem in GAMES or parts & set(GAMES)):
                offenders.append(str(path.relative_to(ROOT)))
    code = (ROOT / "setup.py").read_text().split('"""', 2)[-1]  # past the docstring
    offenders += [f"setup.py: {word}" for word in ("renderer", *GAMES) if word in code]
    assert offenders == []
