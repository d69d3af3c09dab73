"""No import circle anywhere in the project's code, and arena's rooms import one way only.

The graph is read from the source with ``ast``, not by importing: every ``import`` counts,
at module level, inside a function or under ``if TYPE_CHECKING:`` alike, because a circle
hidden inside a function is still a circle for the reader (and for the next refactoring that
lifts the import to the top). ``from package import name`` points at ``package.name`` when
that is a module, else at ``package``; relative imports are resolved.

Three checks:

* between modules of ``arena/``, ``engine/``, ``sandbox/`` and ``workers/``: no strongly
  connected component of more than one module;
* between packages, at every level: ``arena``, ``engine``, ``sandbox``, ``workers``; inside
  ``arena`` its rooms (``arena.models``, ``arena.services``, ``arena.web``, ...); inside
  each package its children (``arena.services.matches`` beside ``arena.services.ladder``):
  none either;
* every arrow between arena's rooms is one of ``ALLOWED``, the table
  ``docs/architecture.md`` draws: a new arrow is either added there on purpose or is an
  upward one, and fails.
"""

from __future__ import annotations

import ast
import functools
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("arena", "engine", "sandbox", "workers")

# The rooms of arena/, each with the rooms it may import (itself always). Lower rooms first.
# ``algorithms`` and the leaf modules import no other room; ``models`` never imports
# ``services``; ``api`` and ``web`` share what they share through ``http`` or ``selectors``.
# What both front ends, the API and the pages, may import.
_FRONT_ENDS = {
    "arena.models",
    "arena.selectors",
    "arena.services",
    "arena.algorithms",
    "arena.errors",
    "arena.crontabs",
    "arena.config",
    "arena.http",
}
ALLOWED: dict[str, set[str]] = {
    # leaves: import no other room
    "arena": set(),
    "arena.algorithms": set(),  # Django-free rules (tests/arena/algorithms, no database)
    "arena.errors": set(),  # the domain errors every room raises or maps to HTTP
    "arena.crontabs": set(),
    "arena.config": set(),
    "arena.http": set(),  # HTTP helpers the API and the pages share
    "arena.postgres": set(),
    "arena.broker": set(),
    "arena.cache": set(),
    "arena.freshness": set(),  # the cached reads' versions, bumped by writes
    "arena.queue": set(),
    "arena.settings": {"arena.config"},
    # the layers: models < selectors < services < api, web
    "arena.models": {"arena.algorithms", "arena.errors", "arena.crontabs", "arena.config"},
    "arena.selectors": {
        "arena.models",
        "arena.algorithms",
        "arena.errors",
        "arena.crontabs",
        "arena.config",
        "arena.freshness",
    },
    "arena.services": {
        "arena.models",
        "arena.selectors",
        "arena.algorithms",
        "arena.errors",
        "arena.crontabs",
        "arena.config",
        "arena.freshness",
        "arena.queue",
    },
    "arena.preflight": {"arena.services", "arena.queue", "arena.config"},
    "arena.checks": {"arena.preflight", "arena.config"},
    "arena.api": _FRONT_ENDS,
    # the pages besides: cached reads' versions, the queue's and the preflight's health
    "arena.web": _FRONT_ENDS | {"arena.freshness", "arena.queue", "arena.preflight"},
    # the top: what Django and the commands start from
    "arena.templatetags": {"arena.web"},
    "arena.urls": {"arena.api", "arena.web"},
    "arena.admin": {
        "arena.models",
        "arena.selectors",
        "arena.services",
        "arena.algorithms",
        "arena.errors",
    },
    "arena.management": {
        "arena.models",
        "arena.errors",
        "arena.selectors",
        "arena.services",
        "arena.algorithms",
        "arena.config",
        "arena.preflight",
    },
    "arena.migrations": {"arena.models", "arena.algorithms"},
    "arena.apps": {"arena.checks", "arena.services"},
    "arena.gunicorn_conf": {"arena.checks"},
    "arena.asgi": set(),
    "arena.wsgi": set(),
}


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _sources(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Every module of the packages, by its dotted name."""
    return {
        _module_name(path, root): path
        for package in packages
        for path in (root / package).rglob("*.py")
    }


def _resolve(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    """The absolute name ``from <node.module>`` means inside ``module``."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    base = base[: len(base) - node.level + (1 if is_package else 0)]
    return ".".join(base + ([node.module] if node.module else []))


def _known(name: str, modules: Iterable[str]) -> str | None:
    """``name`` if it is one of ours, else its nearest enclosing module that is, else None."""
    known = set(modules)
    parts = name.split(".")
    while parts:
        if ".".join(parts) in known:
            return ".".join(parts)
        parts.pop()
    return None


def import_graph(root: Path = ROOT, packages: Iterable[str] = PACKAGES) -> dict[str, set[str]]:
    """Module -> the modules of ours it imports (anywhere in its source)."""
    sources = _sources(root, packages)
    graph: dict[str, set[str]] = {name: set() for name in sources}
    for module, path in sources.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(module, node, is_package)
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in sources else base
                    for alias in node.names
                ]
            for target in targets:
                found = _known(target, sources)
                if found and found != module:
                    graph[module].add(found)
    return graph


def strongly_connected(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Tarjan's components of more than one node (or a node importing itself), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1 or node in graph.get(node, ()):
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


@functools.cache
def project_graph() -> dict[str, set[str]]:
    """The project's graph, read once for the three checks."""
    return import_graph()


def room(module: str) -> str:
    """The package a module belongs to: inside arena its room (``arena.services``,
    ``arena.crontabs``), elsewhere its top-level package."""
    parts = module.split(".")
    if parts[0] == "arena" and len(parts) > 1:
        return ".".join(parts[:2])
    return parts[0]


def collapsed(graph: Mapping[str, Iterable[str]], key) -> dict[str, set[str]]:
    """The graph between ``key(module)`` groups, self-arrows dropped."""
    out: dict[str, set[str]] = defaultdict(set)
    for module, targets in graph.items():
        out[key(module)]
        for target in targets:
            if key(target) != key(module):
                out[key(module)].add(key(target))
    return dict(out)


def _arrows(graph: Mapping[str, Iterable[str]], source: str, target: str, key) -> list[str]:
    return sorted(
        f"{m} -> {t}" for m in graph if key(m) == source for t in graph[m] if key(t) == target
    )


def _describe(components: list[list[str]], graph, key=lambda m: m) -> str:
    lines = []
    for component in components:
        lines.append("circle: " + ", ".join(component))
        members = set(component)
        for node in component:
            for target in sorted(collapsed(graph, key).get(node, ())):
                if target in members:
                    lines += [f"    {a}" for a in _arrows(graph, node, target, key)]
    return "\n".join(lines)


@pytest.mark.slow
def test_no_module_imports_itself_round_a_circle():
    graph = project_graph()
    components = strongly_connected(graph)
    assert not components, "\n" + _describe(components, graph)


def _child_of(package: str):
    """The key that names a module by ``package``'s child holding it (None outside it)."""

    def key(module: str) -> str | None:
        if package and not module.startswith(package + "."):
            return None
        rest = module[len(package) + 1 :] if package else module
        return f"{package}.{rest.split('.')[0]}" if package else rest.split(".")[0]

    return key


def test_no_circle_between_packages_or_arena_rooms():
    """At every level: the four packages; inside each package, its subpackages and modules
    (arena's rooms, services.matches beside services.ladder, ...)."""
    graph = project_graph()
    packages = {m for m in graph if any(other.startswith(m + ".") for other in graph)}
    found = []
    for package in ["", *sorted(packages)]:
        key = _child_of(package)
        inside = {m: {t for t in targets if key(t)} for m, targets in graph.items() if key(m)}
        components = strongly_connected(collapsed(inside, key))
        if components:
            found.append(_describe(components, inside, key))
    assert not found, "\n" + "\n".join(found)


def test_arena_rooms_import_only_the_rooms_below_them():
    graph = project_graph()
    rooms = collapsed({m: t for m, t in graph.items() if m.startswith("arena")}, room)
    unknown = sorted(r for r in rooms if r not in ALLOWED)
    assert not unknown, f"rooms missing from ALLOWED (add them where they belong): {unknown}"
    upward = [
        arrow
        for source, targets in sorted(rooms.items())
        for target in sorted(targets)
        if target.startswith("arena.") and target not in ALLOWED[source]
        for arrow in _arrows(graph, source, target, room)
    ]
    assert not upward, "arrows not in ALLOWED:\n" + "\n".join(upward)


def test_the_graph_sees_in_function_relative_and_type_checking_imports(tmp_path):
    """The reader itself, on a small tree with each kind of import: every arrow is seen."""
    files = {
        "pkg/__init__.py": "from . import a\n",
        "pkg/a.py": "def f():\n    from pkg.sub import b\n",
        "pkg/sub/__init__.py": "",
        "pkg/sub/b.py": "import typing\nif typing.TYPE_CHECKING:\n    from .. import c\n",
        "pkg/c.py": "import pkg.a\nimport json\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    graph = import_graph(tmp_path, ["pkg"])
    assert graph == {
        "pkg": {"pkg.a"},
        "pkg.a": {"pkg.sub.b"},
        "pkg.sub": set(),
        "pkg.sub.b": {"pkg.c"},
        "pkg.c": {"pkg.a"},
    }
    assert strongly_connected(graph) == [["pkg.a", "pkg.c", "pkg.sub.b"]]
    assert strongly_connected(collapsed({"p.x": {"q.y"}, "q.y": {"p.z"}}, lambda m: m[0])) == [
        ["p", "q"]
    ]
