"""Running a game's renderer in Debian's Chromium, outside the arena (renderer tests).

``renderer_page(tmp_path, replay, game)`` serves ``arena/static`` under ``/static/`` (with the
game's renderer from its folder, as the site's static finder serves it) and the harness page
and the replay from a throwaway HTTP server, opens the harness in a headless Chromium driven
by Playwright, and yields the page: call ``page.evaluate("show(g, m, p)")`` to render game
``g`` after ``m`` moves from perspective ``p`` (``null`` = spectator).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.registry import get_game

ROOT = Path(__file__).resolve().parents[3]
HARNESS = Path(__file__).resolve().parent / "harness"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@contextlib.contextmanager
def renderer_page(tmp_path: Path, replay: dict[str, Any], game: str) -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI") == "true":
            pytest.fail("Debian's chromium is missing (make test installs it)")
        pytest.skip("Debian's chromium is not installed")
    playwright_api = pytest.importorskip("playwright.sync_api")
    site = tmp_path / "site"
    (site / "tests" / "engine" / "games").mkdir(parents=True)
    shutil.copytree(ROOT / "arena" / "static", site / "static")
    shutil.copytree(HARNESS, site / "tests" / "engine" / "games" / "harness")
    # The game's renderer from its folder, where the site serves it (arena/web/gamefiles.py).
    renderer = site / "static" / "arena" / "games" / game / "renderer.js"
    renderer.parent.mkdir(parents=True)
    shutil.copyfile(get_game(game).renderer_path(), renderer)
    (site / "replay.json").write_text(json.dumps(replay))
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = (
        f"http://127.0.0.1:{server.server_port}/tests/engine/games/harness/renderer.html"
        f"?game={game}&replay=/replay.json"
    )
    try:
        with playwright_api.sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=CHROMIUM,
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            )
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
            page.goto(url)
            page.wait_for_selector("#board[data-ready='true']", timeout=10_000)
            page.errors = errors  # type: ignore[attr-defined]
            yield page
            assert errors == [], errors
            browser.close()
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
    }

    def log_message(self, *args: Any) -> None:
        pass
