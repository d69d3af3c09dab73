"""A replay as one self-contained HTML file, drawn by the site's own viewer.

``python -m engine replay FILE --html out.html`` writes it: the page holds the replay, the
site's stylesheet, the viewer's markup and the very modules the site serves (the shell
``viewer/shell.js``, ``viewer/events.js`` and the game's renderer), so a local replay looks
and navigates exactly as on the arena, offline, from ``file://``.

The engine imports nothing from Django: it finds those files by path. The renderer is the
game's own (``Game.renderer_path()``: ``renderer.js`` in the game's folder, a built-in game's
or an installed plug-in's alike). The viewer's shell is the site's: in a checkout (or an
editable install) under ``arena/static/arena/`` and ``arena/templates/arena/matches/
viewer.html``; the engine's wheel carries copies as package data under ``engine/_viewer/``
(setup.py copies them at build time); ``ARENA_VIEWER_STATIC`` names another directory laid
out like ``engine/_viewer/``.

With the bots' output (``logs``: ``MatchResult.logs``, which ``python -m engine play
--replay-dir`` keeps beside each replay as ``*.logs.json``), the page is the owner's match
page: each line of output in the viewer's log panel at the step it was printed in, the faults
listed with a link to their moment, the fault box at that moment, and every entry below the
viewer; steps and labels come from :mod:`engine.steplogs`, as on the site.

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

from engine.registry import GAMES
from engine.steplogs import FAULT_WORDS, fault_moments, viewer_logs

__all__ = ["LOGS_SUFFIX", "ViewerFilesMissing", "logs_path", "replay_html", "viewer_files"]

#: What the local runner's ``*.json.gz`` replay's logs file is called: ``*.logs.json``.
LOGS_SUFFIX = ".logs.json"


def logs_path(replay_path: str | os.PathLike[str]) -> Path:
    """Where the local runner keeps a replay's logs: ``match-0000-7.json.gz`` ->
    ``match-0000-7.logs.json`` (a name ``*.json.gz`` does not match)."""
    path = Path(replay_path)
    name = path.name
    for suffix in (".json.gz", ".json", ".gz"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    return path.with_name(name + LOGS_SUFFIX)


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
    hosted = GAMES.get(game)
    own = getattr(hosted, "renderer_path", None)
    renderer = own() if own is not None else None
    if renderer is None or not renderer.is_file():
        raise ViewerFilesMissing(f"the viewer has no renderer for the game {game!r}")
    for static, markup in _layouts():
        files = {
            "css": static / "arena.css",
            "markup": markup,
            "viewer/events.js": static / "viewer" / "events.js",
            "viewer/shell.js": static / "viewer" / "shell.js",
            "renderer": renderer,
        }
        if files["viewer/shell.js"].is_file() and files["markup"].is_file():
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


def _faults_section(replay: dict[str, Any], names: list[str]) -> str:
    """The match's faults, each with its moment and a link to it (the site's fault box)."""
    items = []
    for fault in fault_moments(replay):
        seat = fault.get("seat")
        who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "A bot"
        game = fault.get("game")
        where = (
            f"in game {game}" + (f" ({fault['where_text']})" if fault["where_text"] else "")
            if game
            else "before the first game"
        )
        link = (
            f' <a href="#{html.escape(fault["link"])}" class="jump-link">See it in the replay</a>'
            if fault["link"]
            else ""
        )
        kind = str(fault.get("kind", ""))
        items.append(
            f'<li data-seat="{html.escape(str(seat))}" data-kind="{html.escape(kind)}">'
            f"<strong>{html.escape(who)}</strong> {html.escape(FAULT_WORDS.get(kind, kind))} "
            f"{html.escape(where)}, and is placed last. "
            f'<span class="detail">{html.escape(str(fault.get("detail", "")))}</span>{link}</li>'
        )
    if not items:
        return ""
    heading = "A fault" if len(items) == 1 else "Faults"
    return (
        '<section class="fault" id="match-error" role="note" aria-labelledby="fault-heading">'
        f'<h2 id="fault-heading">{heading}</h2><ul class="plain">{"".join(items)}</ul></section>'
    )


def _logs_section(logs: list[dict[str, Any]]) -> str:
    """Every seat's output, entry by entry, each labelled and linked to its step."""
    if not logs:
        return ""
    articles = []
    for log in logs:
        entries = []
        for entry in log["entries"]:
            label = html.escape(entry["label"])
            if entry["step"] is not None and entry["game"]:
                jump = f"game={entry['game']}&step={entry['step']}"
                label = f'<a href="#{html.escape(jump)}">{label}</a>'
            entries.append(
                f'<li data-game="{entry["game"]}" data-step="{entry["step"]}">'
                f'<p class="log-marker">{label}</p><pre class="log">{html.escape(entry["text"])}'
                "</pre></li>"
            )
        articles.append(
            f'<article class="match-log" data-seat="{log["seat"]}"><h3>'
            f"{html.escape(log['name'])} (seat {log['seat'] + 1})</h3>"
            f'<ol class="log-entries">{"".join(entries)}</ol></article>'
        )
    return (
        '<section class="owner-only" id="match-logs" aria-labelledby="logs-heading">'
        '<h2 id="logs-heading">What the bots printed <span class="badge">yours: not in the '
        f"replay file</span></h2>{''.join(articles)}</section>"
    )


def replay_html(
    replay: dict[str, Any],
    *,
    title: str | None = None,
    logs: list[list[dict[str, Any]]] | None = None,
) -> str:
    """The whole page for ``replay`` (a replay document, format 2); with ``logs`` (per seat,
    as ``MatchResult.logs``), the bots' output beside its steps."""
    game = str(replay.get("game", ""))
    files = viewer_files(game)
    game_title = _game_title(game, title)
    markup = _viewer_markup(files["markup"], game, game_title)
    modules = {
        name: files[name].read_text(encoding="utf-8")
        for name in ("viewer/events.js", "viewer/shell.js", "renderer")
    }
    seat_names = [str(seat.get("name", "?")) for seat in replay.get("seats", [])]
    names = " · ".join(seat_names)
    heading = html.escape(f"{game_title}: {names}" if names else game_title)
    filed = viewer_logs(replay, logs) if logs else []
    logs_script = (
        f'<script type="application/json" id="viewer-logs">{_script_json(filed)}</script>\n'
        if filed
        else ""
    )
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
<main id="main" class="page">
<header class="page-header">
<h1>{heading}</h1>
<p class="muted">A replay written by <code>python -m engine replay --html</code>: the arena's own
viewer, offline. Keys: arrows step, Home / End, space plays, F jumps to a fault.{
        " What the bots printed is beside each step and listed below the viewer." if filed else ""
    }</p>
</header>
{_faults_section(replay, seat_names)}
<section class="viewer-section" aria-label="Replay">
{markup}
</section>
{_logs_section(filed)}
</main>
<script type="application/json" id="replay-data">{_script_json(replay)}</script>
{logs_script}<script type="application/json" id="viewer-modules">{_script_json(modules)}</script>
<script type="module">{_LOADER}</script>
</body>
</html>
"""


def _game_title(game: str, title: str | None) -> str:
    """``title``, else the game's own title, else its name (an unknown or unloadable game)."""
    game_title = title or game
    try:
        from engine.registry import get_game

        game_title = title or get_game(game).title
    except (KeyError, ValueError, ImportError):
        pass
    return game_title


def _viewer_markup(template: Path, game: str, game_title: str) -> str:
    """The site's viewer template with its few tags filled; ViewerFilesMissing if it has
    tags this page cannot fill (the template changed beyond what this page knows)."""
    markup = re.sub(r"\{#.*?#\}", "", template.read_text(encoding="utf-8"))
    for name, value in (
        ("{{ match.game }}", game),
        ("{{ game_title }}", game_title),
        ("{{ renderer_url }}", ""),  # set by the loader
    ):
        markup = markup.replace(name, html.escape(value))
    if re.search(r"\{[{%#]", markup):
        raise ViewerFilesMissing("the viewer's markup has template tags this page cannot fill")
    return markup
