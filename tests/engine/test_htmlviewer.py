"""``python -m engine replay FILE --html out.html``: one file, the site's own viewer modules."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from engine import htmlviewer
from engine import replay as replay_io
from engine.cli import main

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "arena" / "static" / "arena"


@pytest.fixture
def replay_file(tmp_path) -> Path:
    argv = ["play", "greedy", "random", "--seed", "5", "--in-process", "--quiet"]
    assert main([*argv, "--replay-dir", str(tmp_path), "--json"]) == 0
    return next(tmp_path.glob("*.json.gz"))


def _script(page: str, element_id: str) -> object:
    body = re.search(
        rf'<script type="application/json" id="{element_id}">(.*?)</script>', page, re.S
    )
    assert body, element_id
    return json.loads(body.group(1))


def test_the_page_inlines_the_sites_own_modules_and_the_replay(replay_file, tmp_path, capsys):
    out = tmp_path / "out.html"
    assert main(["replay", str(replay_file), "--html", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    modules = _script(page, "viewer-modules")
    assert modules["viewer/shell.js"] == (STATIC / "viewer/shell.js").read_text()
    assert modules["viewer/events.js"] == (STATIC / "viewer/events.js").read_text()
    assert modules["renderer"] == (STATIC / "games/lie21/renderer.js").read_text()
    assert _script(page, "replay-data") == replay_io.load(replay_file)
    assert 'id="replay-viewer"' in page and 'data-game="lie21"' in page
    assert not re.search(r"\{[{%#]", page.split("<script", 1)[0]), "no template syntax is left"
    assert "src=" not in page and "href=" not in page.split("<main", 1)[0], "nothing to fetch"
    assert str(out) in capsys.readouterr().err


def test_a_seat_name_cannot_close_the_script_element(tmp_path):
    replay = replay_io.load(next(iter(_replays(tmp_path))))
    replay["seats"][0]["name"] = "</script><img src=x onerror=alert(1)>"
    page = htmlviewer.replay_html(replay)
    assert "<img src=x" not in page
    assert _script(page, "replay-data")["seats"][0]["name"] == replay["seats"][0]["name"]


def test_an_installed_engine_uses_the_copies_shipped_with_it(tmp_path, monkeypatch):
    """A wheel has no arena checkout: the files come from its own engine/_viewer/."""
    shipped = tmp_path / "_viewer"
    for relative in ("arena.css", "viewer/shell.js", "viewer/events.js", "games/lie21/renderer.js"):
        (shipped / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(STATIC / relative, shipped / relative)
    shutil.copyfile(ROOT / "arena/templates/arena/matches/viewer.html", shipped / "viewer.html")
    (shipped / "viewer/shell.js").write_text("/* the shipped shell */")
    monkeypatch.setattr(htmlviewer, "_PACKAGE", tmp_path)
    page = htmlviewer.replay_html(replay_io.load(next(iter(_replays(tmp_path)))))
    assert _script(page, "viewer-modules")["viewer/shell.js"] == "/* the shipped shell */"


def test_without_the_viewer_files_it_is_one_line_and_exit_2(
    replay_file, tmp_path, monkeypatch, capsys
):
    monkeypatch.setattr(htmlviewer, "_layouts", lambda: [(tmp_path, tmp_path / "viewer.html")])
    out = tmp_path / "out.html"
    assert main(["replay", str(replay_file), "--html", str(out)]) == 2
    err = capsys.readouterr().err
    assert "replay viewer's files were not found" in err and err.count("\n") == 1
    assert not out.exists()


def test_a_game_without_a_renderer_is_refused(tmp_path):
    replay = replay_io.load(next(iter(_replays(tmp_path))))
    replay["game"] = "nosuchgame"
    with pytest.raises(htmlviewer.ViewerFilesMissing, match="no renderer for the game"):
        htmlviewer.replay_html(replay)


def _replays(tmp_path: Path) -> list[Path]:
    folder = tmp_path / "replays"
    argv = ["play", "random", "random", "--seed", "2", "--in-process", "--quiet", "--json"]
    assert main([*argv, "--replay-dir", str(folder)]) == 0
    return sorted(folder.glob("*.json.gz"))
