"""A game published as a distribution of its own plugs in through the entry points alone.

The three-seat test game (``tests/games/highcard``, with its own ``pyproject.toml``) is built
and installed, without the network, into a scratch directory; processes that have that
directory on their path (and no ``ARENA_EXTRA_GAMES``) list it with ``python -m engine
games``, play it with the CLI, and the arena hosts it: its rules page, its replay schema,
its renderer found by the static files and collected, the replay viewer offering it, the API
listing it, and its game page with its ladder.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "tests" / "games" / "highcard"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The test game built from a copy of its folder (the build writes beside its sources)
    and installed with pip into a directory of its own: its site."""
    scratch = tmp_path_factory.mktemp("plugin")
    source = scratch / "src"
    shutil.copytree(SOURCE, source, ignore=shutil.ignore_patterns("__pycache__"))
    site = scratch / "site"
    pip = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation"]
    subprocess.run(
        [*pip, "--no-index", "--quiet", "--target", str(site), str(source)],
        check=True,
        capture_output=True,
        text=True,
    )
    assert (site / "bluff_highcard" / "renderer.js").is_file()
    return site


def _env(site: Path | None, **more: str) -> dict[str, str]:
    """The environment of a process that has the plug-in installed (or not): the checkout
    first on the path, the test suite's own way of hosting the test game switched off."""
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE"}}
    env["ARENA_EXTRA_GAMES"] = ""
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *([str(site)] if site else [])])
    env.update(more)
    return env


def _run(args: list[str], env: dict[str, str], cwd: Path = ROOT) -> str:
    done = subprocess.run(args, env=env, cwd=cwd, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_installed_game_is_listed_beside_the_engines_own(installed: Path, tmp_path) -> None:
    listing = _run([sys.executable, "-m", "engine", "games"], _env(installed), cwd=tmp_path)
    names = [line.split("\t")[0] for line in listing.splitlines()]
    assert names[-1] == "highcard" and "2-4 seats" in listing.splitlines()[-1]
    assert {"lie21", "liars", "twenty_one", "tieng_len"} <= set(names)
    without = _run([sys.executable, "-m", "engine", "games"], _env(None), cwd=tmp_path)
    assert "highcard" not in without, "not installed: not hosted"


def test_the_cli_plays_the_installed_game(installed: Path, tmp_path) -> None:
    replays = tmp_path / "replays"
    command = [sys.executable, "-m", "engine", "play", "--game", "highcard"]
    options = ["--matches", "2", "--in-process", "--quiet", "--json", "--no-timing"]
    out = _run(
        [*command, "random", "random", "starter", *options, "--replay-dir", str(replays)],
        _env(installed),
        cwd=tmp_path,
    )
    summary = json.loads(out)
    assert summary["game"] == "highcard" and summary["matches"] == 2
    assert [bot["matches"] for bot in summary["bots"]] == [2, 2, 2]
    replay = sorted(replays.glob("*.json.gz"))[0]
    checked = _run(
        [sys.executable, "-m", "engine", "replay", str(replay), "--check"], _env(installed)
    )
    assert "every game re-plays from the replay" in checked


HOST = textwrap.dedent(
    """
    import json, sys
    import django
    django.setup()
    from django.core.management import call_command
    from django.contrib.staticfiles import finders
    from django.test import Client, override_settings
    from django.test.utils import setup_test_environment

    setup_test_environment()
    call_command("migrate", verbosity=0)
    client = Client()
    found = {}
    for url in (
        "/games/",
        "/games/highcard/",
        "/games/highcard/rules/",
        "/games/highcard/rules/replay.schema.json",
        "/replay/",
        "/api/games/highcard/",
    ):
        response = client.get(url)
        found[url] = [response.status_code, response.content.decode()]
    found["renderer"] = finders.find("arena/games/highcard/renderer.js")
    with override_settings(STATIC_ROOT=sys.argv[1]):
        call_command("collectstatic", interactive=False, verbosity=0)
    print(json.dumps(found))
    """
)


def test_the_arena_hosts_the_installed_game_with_its_renderer_and_rules(
    installed: Path, tmp_path: Path
) -> None:
    env = _env(
        installed,
        DJANGO_SETTINGS_MODULE="tests.settings",
        DATABASE_URL=f"sqlite:///{tmp_path / 'arena.sqlite3'}",
    )
    collected = tmp_path / "static"
    found = json.loads(_run([sys.executable, "-c", HOST, str(collected)], env))
    pages = {url: answer for url, answer in found.items() if url.startswith("/")}
    assert {url: status for url, (status, _) in pages.items()} == dict.fromkeys(pages, 200)
    rules = (SOURCE / "rules.md").read_text()
    title = next(line for line in rules.splitlines() if line.startswith("# "))[2:]
    assert title in pages["/games/highcard/rules/"][1]
    assert 'href="/games/highcard/"' in pages["/games/"][1]
    schema = json.loads(pages["/games/highcard/rules/replay.schema.json"][1])
    assert schema == json.loads((SOURCE / "replay.schema.json").read_text())
    assert "/static/arena/games/highcard/renderer.js" in pages["/replay/"][1]
    assert json.loads(pages["/api/games/highcard/"][1])["name"] == "highcard"
    assert found["renderer"] == str(installed / "bluff_highcard" / "renderer.js")
    shipped = (installed / "bluff_highcard" / "renderer.js").read_bytes()
    assert (collected / "arena" / "games" / "highcard" / "renderer.js").read_bytes() == shipped
