"""A replay as one self-contained HTML file, drawn by the site's own viewer.

``python -m engine replay FILE --html out.html`` writes it: the page holds the replay, the
site's stylesheet, the viewer's markup and the very modules the site serves (the shell
``viewer/shell.js``, ``viewer/events.js`` and the game's ``games/<game>/renderer.js``), so a
local replay looks and navigates exactly as on the arena, offline, from ``file://``.

The engine imports nothing from Django: it finds those files by path. In a checkout (or an
editable install) they are the arena's own, under ``arena/static/arena/`` and
``arena/templates/arena/matches/viewer.html``; the engine's wheel carries copies as package
data under ``engine/_viewer/`` (setup.py copies them at build time);
``ARENA_VIEWER_STATIC`` names another directory laid out like ``engine/_viewer/``.

ES modules cannot import each other from inside one file, so a small loader turns each
module's text into a ``blob:`` URL and points the relative imports at those URLs; the
modules' code is otherwise inlined unchanged.
"""

from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path
from typing import Any

__all__ = ["ViewerFilesMissing", "replay_html", "viewer_files"]

_PACKAGE = Path(__file__).resolve().parent
_REPO = _PACKAGE.parent


class ViewerFilesMissing(FileNotFoundError):
    """The viewer's files are not where the engine looks (see the module docstring)."""


def _layouts() -> list[tuple[Path, Path]]:
    """Candidate (static directory, viewer markup) pairs, in the order they are tried."""
    pairs = []
    if os.environ.get("ARENA_VIEWER_STATIC"):
        root = Path(os.environ["ARENA_VIEWER_STATIC"])
        pairs.append((root, root / "viewer.html"))
    pairs.append((_PACKAGE / "_viewer", _PACKAGE / "_viewer" / "viewer.html"))
    pairs.append(
        (_REPO / "arena" / "static" / "arena", _REPO / "arena/templates/arena/matches/viewer.html")
    )
    return pairs


def viewer_files(game: str) -> dict[str, Path]:
    """The files a page of ``game``'s replay needs: stylesheet, markup, shell and renderer."""
    for static, markup in _layouts():
        files = {
            "css": static / "arena.css",
            "markup": markup,
            "viewer/events.js": static / "viewer" / "events.js",
            "viewer/shell.js": static / "viewer" / "shell.js",
            "renderer": static / "games" / game / "renderer.js",
        }
        if files["viewer/shell.js"].is_file() and files["markup"].is_file():
            if not files["renderer"].is_file():
                raise ViewerFilesMissing(f"the viewer has no renderer for the game {game!r}")
            return files
    raise ViewerFilesMissing(
        "the replay viewer's files were not found (looked in "
        + ", ".join(str(static) for static, _ in _layouts())
        + "); set ARENA_VIEWER_STATIC"
    )


def _script_json(value: Any) -> str:
    """JSON safe inside a <script> element (as Django's json_script escapes it)."""
    text = json.dumps(value, ensure_ascii=False)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


_LOADER = """
const root = document.getElementById("replay-viewer");
const sources = JSON.parse(document.getElementById("viewer-modules").textContent);
const blob = (text) => URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
const events = blob(sources["viewer/events.js"]);
// Both the shell's "./events.js" and a renderer's "../../viewer/events.js".
const EVENTS = /(from\\s*["'])(?:\\.|\\.\\.\\/\\.\\.\\/viewer)\\/events\\.js(["'])/g;
const linked = (text) => text.replace(EVENTS, (_, open, close) => open + events + close);
root.dataset.renderer = blob(linked(sources.renderer));
import(blob(linked(sources["viewer/shell.js"])));
"""


def replay_html(replay: dict[str, Any], *, title: str | None = None) -> str:
    """The whole page for ``replay`` (a replay document, format 2)."""
    game = str(replay.get("game", ""))
    files = viewer_files(game)
    game_title = title or game
    try:
        from engine.registry import get_game

        game_title = title or get_game(game).title
    except (KeyError, ValueError, ImportError):
        pass
    markup = re.sub(r"\{#.*?#\}", "", files["markup"].read_text(encoding="utf-8"))
    for name, value in (
        ("{{ match.game }}", game),
        ("{{ game_title }}", game_title),
        ("{{ renderer_url }}", ""),  # set by the loader
    ):
        markup = markup.replace(name, html.escape(value))
    if re.search(r"\{[{%#]", markup):
        raise ViewerFilesMissing("the viewer's markup has template tags this page cannot fill")
    modules = {
        name: files[name].read_text(encoding="utf-8")
        for name in ("viewer/events.js", "viewer/shell.js", "renderer")
    }
    names = " · ".join(str(seat.get("name", "?")) for seat in replay.get("seats", []))
    heading = html.escape(f"{game_title}: {names}" if names else game_title)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{heading} (replay)</title>
<style>
{files["css"].read_text(encoding="utf-8")}
</style>
</head>
<body>
<main id="main" class="container">
<h1>{heading}</h1>
<p class="muted">A replay written by <code>python -m engine replay --html</code>: the arena's own
viewer, offline. Keys: arrows step, Home / End, space plays, F jumps to a fault.</p>
{markup}
</main>
<script type="application/json" id="replay-data">{_script_json(replay)}</script>
<script type="application/json" id="viewer-modules">{_script_json(modules)}</script>
<script type="module">{_LOADER}</script>
</body>
</html>
"""
