"""What a Python source file imports, read from its syntax tree (nothing is run): the layering
tests and the built-in bots' standard-library tests ask it."""

from __future__ import annotations

import ast
from pathlib import Path


def imported_modules(path: Path | str) -> list[str]:
    """The modules ``path`` imports by absolute name, in the order of a walk of its tree
    (``import a.b`` gives ``a.b``, ``from a.b import c`` gives ``a.b``; relative imports are
    left out)."""
    names = []
    for node in ast.walk(ast.parse(Path(path).read_text())):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def top_level_packages(path: Path | str) -> set[str]:
    """The top-level packages ``path`` imports (``a`` of ``a.b``)."""
    return {name.split(".")[0] for name in imported_modules(path)}
