"""The engine installs from its wheel and a starter kit runs outside the repo."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from arena.services.kits import engine_wheel, starter_kit
from engine.registry import GAMES, get_game

pytestmark = pytest.mark.slow

STATIC = Path(__file__).resolve().parents[3] / "arena" / "static" / "arena"


@pytest.fixture
def data_dir(settings, tmp_path):
    settings.DATA_DIR = tmp_path / "data"
    return settings.DATA_DIR


def run(command, cwd, env):
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_every_game_has_a_starter_kit_that_runs_from_its_own_folder(data_dir, tmp_path):
    wheel = engine_wheel()
    assert wheel.name.endswith("-py3-none-any.whl")
    assert engine_wheel() == wheel, "built once per version of the sources"
    site = tmp_path / "site"
    installed = run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", site, wheel],
        tmp_path,
        os.environ,
    )
    assert installed.returncode == 0, installed.stderr
    env = {**os.environ, "PYTHONPATH": str(site), "ARENA_EXTRA_GAMES": ""}
    for game in [name for name in GAMES if name != "highcard"]:
        kit = zipfile.ZipFile(io.BytesIO(starter_kit(game)))
        names = set(kit.namelist())
        folder = f"{game}-starter"
        for part in ("README.md", "my_bot.py", "test_my_bot.py", "rules.md", wheel.name):
            assert f"{folder}/{part}" in names, (game, part)
        shipped = {
            name.split("/")[-1].split("-")[0].lower() for name in names if "/wheels/" in name
        }
        assert {"fastjsonschema", "rich", "trueskillthroughtime", "pygments"} <= shipped, shipped
        kit.extractall(tmp_path / "kits")
        here = tmp_path / "kits" / folder
        readme = (here / "README.md").read_text()
        assert f"pip install --no-index --find-links wheels {wheel.name}" in readme
        assert f"--game {game}" in readme and "numpy" in readme
        played = run(
            [
                sys.executable,
                "-m",
                "engine",
                "play",
                "my_bot.py",
                "random",
                "--game",
                game,
                "--matches",
                "2",
                "--in-process",
                "--json",
                "--replay-dir",
                "replays",
            ],
            here,
            env,
        )
        assert played.returncode == 0, played.stderr
        assert f'"game": "{game}"' in played.stdout
        # The wheel carries the site's viewer: a replay becomes one HTML page, offline.
        replay = sorted((here / "replays").glob("*.json.gz"))[0]
        page = run(
            [sys.executable, "-m", "engine", "replay", replay, "--html", "m.html"], here, env
        )
        assert page.returncode == 0, page.stderr
        html = (here / "m.html").read_text()
        modules = json.loads(
            re.search(r'<script type="application/json" id="viewer-modules">(.*?)</script>', html)[
                1
            ]
        )
        assert modules["viewer/shell.js"] == (STATIC / "viewer/shell.js").read_text()
        # The renderer is the game folder's, which the wheel carries as package data.
        assert modules["renderer"] == get_game(game).renderer_path().read_text()
        checked = run([sys.executable, "test_my_bot.py"], here, env)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert "without a fault" in checked.stdout
    # The engine came from the wheel, not from the repository.
    where = run(
        [sys.executable, "-c", "import engine; print(engine.__file__)"], tmp_path / "kits", env
    )
    assert where.stdout.strip().startswith(str(site))
    assert not Path(where.stdout.strip()).is_relative_to(Path(__file__).resolve().parents[3])


def test_the_site_serves_the_kit_and_the_wheel(data_dir, client, monkeypatch):
    """Issue 32: the kit the README promised could not be downloaded from anywhere."""
    response = client.get("/games/lie21/kit.zip")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert 'filename="lie21-starter-kit.zip"' in response["Content-Disposition"]
    body = response.getvalue()
    names = zipfile.ZipFile(io.BytesIO(body)).namelist()
    assert client.get("/games/lie21/kit.zip").getvalue() == body, "built once, then served"
    assert "lie21-starter/my_bot.py" in names and any("/wheels/rich-" in n for n in names)
    latest = client.get("/downloads/engine/")
    assert latest.status_code == 302
    wheel = latest["Location"].rsplit("/", 1)[1]
    assert wheel == engine_wheel().name
    served = client.get(latest["Location"])
    assert served.status_code == 200 and served.getvalue() == engine_wheel().read_bytes()
    assert client.get(
        "/downloads/engine/bluff_arena_engine-0.0.1-py3-none-any.whl"
    ).status_code == (404)
    assert client.get("/games/nosuchgame/kit.zip").status_code == 404

    from arena.services import kits

    def broken() -> list:
        raise kits.KitError("building the engine's dependency wheels failed: no index")

    monkeypatch.setattr(kits, "dependency_wheels", broken)
    refused = client.get("/games/lie21/kit.zip")
    assert refused.status_code == 503 and b"no index" in refused.content
