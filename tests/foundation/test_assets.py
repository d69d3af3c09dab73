"""The committed script bundle (the playground's CodeMirror editor) is exactly what
``make assets`` builds from ``assets/`` with the versions pinned in its package-lock.json:
nobody edits the bundle by hand, and a change to the sources or the pins is rebuilt.

Needs node and npm (Debian's or nodesource's); ``npm ci`` fetches the pinned packages from
the npm registry once into ``assets/node_modules``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ASSETS = REPO / "assets"
BUNDLE = REPO / "arena" / "static" / "arena" / "editor" / "editor.bundle.js"


def _tools() -> tuple[str, str]:
    node, npm = shutil.which("node"), shutil.which("npm")
    if node and npm:
        return node, npm
    if os.environ.get("CI") == "true":
        pytest.fail("node and npm are needed to check the committed bundle", pytrace=False)
    pytest.skip("node and npm are not installed")


@pytest.mark.slow
def test_the_committed_editor_bundle_is_what_the_pinned_sources_build(tmp_path: Path) -> None:
    node, npm = _tools()
    installed = ASSETS / "node_modules" / ".package-lock.json"
    lock = ASSETS / "package-lock.json"
    if not installed.exists() or installed.stat().st_mtime < lock.stat().st_mtime:
        subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=ASSETS,
            check=True,
            timeout=600,
        )
    rebuilt = tmp_path / "editor.bundle.js"
    subprocess.run([node, "build.mjs", str(rebuilt)], cwd=ASSETS, check=True, timeout=300)
    assert rebuilt.read_bytes() == BUNDLE.read_bytes(), (
        "arena/static/arena/editor/editor.bundle.js differs from what assets/ builds: "
        "run `make assets` and commit the bundle"
    )


def test_the_bundle_is_committed_and_says_how_it_is_made() -> None:
    head = BUNDLE.read_text(encoding="utf-8")[:400]
    assert "Generated: do not edit; run `make assets`" in head
    assert "CodeMirror 6" in head
