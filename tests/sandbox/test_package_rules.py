"""Rules about the sandbox package itself: its imports and its seccomp list."""

from __future__ import annotations

import ast
import os
import subprocess
from pathlib import Path

import pytest

from sandbox.seccomp_filter import DENIED_SYSCALLS, EXEC_SYSCALLS, SIGNAL_SYSCALLS
from tests.sandbox.conftest import REPO

FORBIDDEN_TOP_LEVEL = {"django", "celery", "arena", "workers", "rest_framework", "kombu"}


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", sorted((REPO / "sandbox").glob("*.py")), ids=lambda p: p.name)
def test_sandbox_imports_nothing_from_the_web_stack(path):
    imported = _imports(path)
    assert not {name for name in imported if name.split(".")[0] in FORBIDDEN_TOP_LEVEL}
    engine = {name for name in imported if name.split(".")[0] == "engine"}
    # the player interface, the one list of bot packages, and what a local sandbox provides
    assert engine <= {"engine.players", "engine.botpackages", "engine.sandboxes"}


def test_bootstrap_uses_only_the_standard_library():
    # It runs inside the jail, where the sandbox package and the engine do not exist.
    imported = _imports(REPO / "sandbox" / "bootstrap.py")
    assert not {n for n in imported if n.split(".")[0] in {"sandbox", "engine"}}


def test_every_filtered_syscall_is_known_to_libseccomp():
    # A misspelt name would be skipped silently by the compiler: check them all here.
    names = [*DENIED_SYSCALLS, *SIGNAL_SYSCALLS, *EXEC_SYSCALLS, "clone", "clone3"]
    script = (
        "import seccomp, sys\n"
        "bad = []\n"
        "for n in sys.argv[1:]:\n"
        "    if seccomp.resolve_syscall(seccomp.Arch.NATIVE, n) < 0:\n"
        "        bad.append(n)\n"
        "print(' '.join(bad))\n"
    )
    done = subprocess.run(
        ["/usr/bin/python3.11", "-I", "-c", script, *names],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        if os.environ.get("CI"):
            pytest.fail(f"python3-seccomp not usable on CI: {done.stderr.strip()}")
        pytest.skip(f"python3-seccomp not usable: {done.stderr.strip()}")
    assert done.stdout.strip() == ""
