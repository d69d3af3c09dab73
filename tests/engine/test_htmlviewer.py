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
    assert modules["renderer"] == (ROOT / "engine/games/lie21/renderer.js").read_text()
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
    """A wheel has no arena checkout: the shell comes from its own engine/_viewer/ (and the
    renderer, as always, from the game's folder)."""
    shipped = tmp_path / "_viewer"
    for relative in ("arena.css", "viewer/shell.js", "viewer/events.js"):
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


LIAR_FAILS = ROOT / "tests" / "arena" / "web" / "views" / "bots" / "liar_fails_in_hand_three.py"


def test_a_local_replay_carries_the_output_and_the_fault_at_their_steps(tmp_path):
    """Issue 32: a local single-file replay had no bot output, no fault beside its step and
    no margins. The runner keeps the output beside the replay; the page files it by step."""
    argv = ["play", str(LIAR_FAILS), "random", "--seed", "3", "--in-process"]
    assert main([*argv, "--replay-dir", str(tmp_path / "replays")]) == 0
    replay_file = tmp_path / "replays" / "match-0000-3.json.gz"
    logs_file = tmp_path / "replays" / "match-0000-3.logs.json"
    assert logs_file.is_file() and sorted(tmp_path.glob("replays/*.json.gz")) == [replay_file]
    assert "hand 1 liar" not in replay_file.read_bytes().decode("latin-1"), "never in the replay"
    out = tmp_path / "m.html"
    assert main(["replay", str(replay_file), "--html", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert '<main id="main" class="page">' in page  # the site's margins
    logs = _script(page, "viewer-logs")
    entries = logs[0]["entries"]
    assert logs[0]["name"] == "liar_fails_in_hand_three"
    assert entries[0] == {
        "game": 0,
        "step": None,
        "label": "Before the first game · start",
        "text": "hello from seat 0\n",
    }
    assert entries[1]["label"] == "Game 1 · step 1 · hand 1, lie"
    # Printed while deciding step s: shown once s is played, labelled with the game's place.
    failing = entries[-1]
    assert failing["label"] == "Game 1 · step 4 · hand 3, lie" and failing["step"] == 4
    assert "RuntimeError: my bug in hand 3" in failing["text"]
    fault = page.split('id="match-error"', 1)[1].split("</section>", 1)[0]
    assert "liar_fails_in_hand_three</strong> crashed in game 1 (after step 4: hand 3, lie)" in (
        fault
    )
    assert 'href="#game=1&amp;step=4"' in fault
    listed = page.split('id="match-logs"', 1)[1]
    assert '<a href="#game=1&amp;step=4">Game 1 · step 4 · hand 3, lie</a>' in listed


def test_without_its_logs_file_a_replay_still_makes_a_page(replay_file, tmp_path):
    out = tmp_path / "plain.html"
    assert main(["replay", str(replay_file), "--html", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert 'id="viewer-logs"' not in page and 'id="match-logs"' not in page
