"""engine/ and sandbox/ stay free of Django, Celery and the arena."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = {"django", "celery", "kombu", "rest_framework", "arena", "workers"}


@pytest.mark.parametrize("package", ["engine", "sandbox"])
def test_package_imports_nothing_from_the_web_layer(package):
    offenders = []
    for path in (ROOT / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [
                f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] in FORBIDDEN
            ]
    assert offenders == []
