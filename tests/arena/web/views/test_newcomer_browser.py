"""A bot author's first hour without the repository (issue 32), in a real browser.

Download the starter kit from a game's page, install it in a fresh virtualenv outside the
repository with no network, run its harness and a sandboxed local match, write an HTML replay
and open it; then upload, see the version validated and watch one of its matches. A numpy bot
validates and plays; the challenge form filters by game; a fault's heading and box name the
same hand on the site and in a local replay.

Screenshots go to test-artifacts/screenshots/; the kit's size and the time from download to
the first local match to test-artifacts/kit-figures.txt.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from django.core.management import call_command

from arena.models import Bot, BotVersion, Match
from arena.services.ratings import rating_activate
from engine import replay as replay_io
from engine.botpackages import BOT_PACKAGES
from engine.cli import main as engine_main
from engine.registry import GAMES
from tests.arena.factories import BotVersionFactory
from tests.arena.web.conftest import REPO, Tab, log_in
from tests.arena.web.data import PASSWORD, bot_make, match_record, user_make

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOTS = Path(__file__).parent / "bots"
LIAR_FAILS = BOTS / "liar_fails_in_hand_three.py"
FIGURES = REPO / "test-artifacts" / "kit-figures.txt"

NUMPY_BOT = '''"""A Lie 21 bot that thinks with numpy."""

import numpy as np


def act(observation):
    hand = observation["hand"]
    ranks = np.array([{"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}.get(c[0], 0) or
                      (int(c[0]) if c[0].isdigit() else 5) for c in hand])
    order = [int(i) for i in np.argsort(ranks, kind="stable")]
    cards = [hand[i] for i in order[:3]]
    print("numpy", np.__version__, "chose", cards)
    if observation["role"] == "liar":
        return {"cards": cards, "face_up": 0}
    return {"cards": cards, "challenge": bool(np.sum(ranks[order[:3]]) % 2)}
'''


def _run(command: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    done = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, f"{command}: {done.stdout}\n{done.stderr}"
    return done


def _base_python() -> str:
    """A plain interpreter for the author's venv (never this test run's own .venv)."""
    for candidate in ("/usr/bin/python3.11", "/usr/bin/python3"):
        if Path(candidate).exists():
            return candidate
    return getattr(sys, "_base_executable", sys.executable)


def _offline_env(home: Path) -> dict[str, str]:
    """An author's shell: no network for pip, nothing of this repository on the path."""
    keep = {"PATH", "LANG", "LC_ALL", "TMPDIR"}
    env = {key: value for key, value in os.environ.items() if key in keep}
    return {
        **env,
        "HOME": str(home),
        "PIP_NO_INDEX": "1",
        "PIP_CONFIG_FILE": os.devnull,
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }


def _wait_valid(page, timeout_ms: int = 120_000) -> None:
    page.wait_for_selector("#version-status[data-status=valid]", timeout=timeout_ms)


@pytest.fixture
def kits_built(settings, tmp_path_factory) -> Path:
    """The downloads as ``manage.py arena_kits`` leaves them (``make run`` and the image
    build them; a request never does)."""
    folder = tmp_path_factory.mktemp("downloads")
    settings.ARENA_DOWNLOADS_DIR = folder
    call_command("arena_kits", stdout=io.StringIO())
    return folder


@pytest.mark.slow
def test_a_newcomer_downloads_the_kit_plays_locally_uploads_and_watches(
    tab: Tab, tmp_path_factory, kits_built
) -> None:
    page = tab.page
    tab.goto("/games/lie21/")
    assert "starter kit" in page.inner_text("#kit-link").lower()
    tab.screenshot("game-page-kit")
    home = tmp_path_factory.mktemp("author")  # a temporary directory, outside the repo
    assert not home.resolve().is_relative_to(REPO)
    began = time.perf_counter()
    with page.expect_download() as download:
        page.click("#kit-link")
    kit = home / download.value.suggested_filename
    download.value.save_as(kit)
    assert kit.name == "lie21-starter-kit.zip"
    size = kit.stat().st_size
    with zipfile.ZipFile(kit) as archive:
        names = set(archive.namelist())
        archive.extractall(home)
    folder = home / "lie21-starter"
    wheel = next(folder.glob("bluff_arena_engine-*.whl"))
    for part in ("README.md", "my_bot.py", "test_my_bot.py", "rules.md"):
        assert f"lie21-starter/{part}" in names
    readme = (folder / "README.md").read_text()
    assert f"pip install --no-index --find-links wheels {wheel.name}" in readme

    env = _offline_env(home)
    _run([_base_python(), "-m", "venv", str(home / "venv")], home, env)
    python = str(home / "venv" / "bin" / "python")
    _run(
        [python, "-m", "pip", "install", "--no-index", "--find-links", "wheels", wheel.name],
        folder,
        env,
    )
    where = _run([python, "-c", "import engine; print(engine.__file__)"], folder, env)
    assert where.stdout.strip().startswith(str(home / "venv")), "the kit's engine, not the repo's"
    checked = _run([python, "test_my_bot.py"], folder, env)
    assert "without a fault" in checked.stdout
    play = ["play", "my_bot.py", "random", "--game", "lie21", "--seed", "1"]
    play += ["--replay-dir", "replays", "--json"]  # sandboxed, as on the site
    played = _run([python, "-m", "engine", *play], folder, env)
    first_match_s = time.perf_counter() - began
    assert '"game": "lie21"' in played.stdout
    replay = folder / "replays" / "match-0000-1.json.gz"
    _run([python, "-m", "engine", "replay", str(replay), "--html", "match.html"], folder, env)
    FIGURES.parent.mkdir(parents=True, exist_ok=True)
    FIGURES.write_text(
        f"kit_size: {size} bytes\nkit_download_to_first_local_match: {first_match_s:.1f} s\n"
    )
    print(f"\nkit_size: {size} bytes\nkit_download_to_first_local_match: {first_match_s:.1f} s")

    # The local replay opens from the disk in the site's own viewer, with what the starter
    # printed (``hand N: lying with ...``) beside the step it printed at.
    local = tab.page.context.new_page()
    local.goto((folder / "match.html").as_uri())
    local.wait_for_selector("#replay-viewer[data-ready=true]")
    printed = local.inner_text("#match-logs")
    assert re.search(r"hand \d+: lying with ", printed), printed
    local.click("#rv-log-next")
    assert re.search(r"hand \d+: lying with ", local.inner_text("#rv-log-lines"))
    local.screenshot(path=str(REPO / "test-artifacts" / "screenshots" / "kit-local-replay.png"))
    local.close()

    # Upload the very file, see it validated, and watch one of its matches.
    bot_make(user_make("veteran"), name="veteran-bot", on_ladder=True)
    user_make("newcomer")
    log_in(tab, "newcomer", PASSWORD)
    tab.goto("/bots/new/?game=lie21")
    page.fill("#id_name", "first-steps")
    page.set_input_files("#id_file", str(folder / "my_bot.py"))
    page.click("#bot-new-form button[type=submit]")
    _wait_valid(page)
    tab.screenshot("kit-upload-valid")
    bot = Bot.objects.get(name="first-steps")
    match = Match.objects.filter(seats__bot=bot, status=Match.Status.DONE).first()
    assert match is not None, "placement matches were played"
    tab.goto(f"/matches/{match.pk}/")
    page.wait_for_selector("#replay-viewer[data-ready=true]")
    page.keyboard.press("End")
    assert page.locator("#rv-match-end").is_visible()
    tab.screenshot("kit-upload-watch")


@pytest.mark.slow
def test_a_numpy_bot_validates_and_plays(tab: Tab, tmp_path: Path) -> None:
    user_make("numeric")
    bot_make(user_make("rivalry"), name="rival", on_ladder=True)
    log_in(tab, "numeric", PASSWORD)
    source = tmp_path / "np_bot.py"
    source.write_text(NUMPY_BOT)
    page = tab.page
    tab.goto("/bots/new/?game=lie21")
    page.fill("#id_name", "numbers")
    page.set_input_files("#id_file", str(source))
    page.click("#bot-new-form button[type=submit]")
    _wait_valid(page)
    assert "valid: np_bot.py imported in the sandbox" in page.inner_text("#validation-log")
    tab.screenshot("numpy-bot-valid")
    version = BotVersion.objects.get(bot__name="numbers")
    played = Match.objects.filter(seats__version=version, status=Match.Status.DONE)
    assert played.exists() and not played.filter(seats__fault__gt="").exists()
    match = played.first()
    tab.goto(f"/matches/{match.pk}/")
    page.wait_for_selector("#replay-viewer[data-ready=true]")
    # Its owner reads what it printed, numpy's version among it.
    assert "numpy 2." in page.inner_text("#match-logs")


def test_a_bot_importing_a_package_the_arena_lacks_is_refused_on_upload(tab: Tab, tmp_path):
    user_make("pandas-fan")
    log_in(tab, "pandas-fan", PASSWORD)
    source = tmp_path / "pd_bot.py"
    source.write_text("import pandas as pd\n\ndef act(observation):\n    return {}\n")
    page = tab.page
    tab.goto("/bots/new/?game=lie21")
    page.fill("#id_name", "frames")
    page.set_input_files("#id_file", str(source))
    page.click("#bot-new-form button[type=submit]")
    error = page.locator(".error").first.inner_text()
    assert "line 1: import pandas: bots may import only" in error
    assert not BotVersion.objects.exists()


def test_the_challenge_form_filters_rivals_by_game_and_by_search(tab: Tab) -> None:
    me = user_make("chooser")
    mine = bot_make(me, name="myliar", on_ladder=True)
    bot_make(me, name="mydice", game="liars", on_ladder=True)
    for name in ("alpha", "bravo", "charlie"):
        bot_make(user_make(f"{name}-owner"), name=name, on_ladder=True)
    bot_make(user_make("dice-owner"), name="dicer", game="liars", on_ladder=True)
    log_in(tab, "chooser", PASSWORD)
    page = tab.page
    tab.goto("/challenges/new/?game=lie21")

    def shown() -> list[str]:
        return page.evaluate(
            "() => Array.from(document.querySelectorAll('#id_rivals label.rival'))"
            ".filter((label) => !label.hidden).map((label) => label.textContent.trim())"
        )

    assert page.input_value("#id_version") == str(mine.active_version_id)
    names = shown()
    assert [name.split(" ")[0] for name in names] == ["alpha", "bravo", "charlie"]
    assert not any("myliar" in name or "dicer" in name for name in names), names
    page.fill("#rival-search", "bra")
    assert [name.split(" ")[0] for name in shown()] == ["bravo"]
    page.fill("#rival-search", "charlie-owner")
    assert [name.split(" ")[0] for name in shown()] == ["charlie"]
    page.fill("#rival-search", "nobody")
    assert shown() == [] and page.locator("#rival-none").is_visible()
    page.fill("#rival-search", "")
    tab.screenshot("challenge-form-lie21")
    page.click("#challenge-games a[data-game=liars]")
    page.wait_for_selector("#challenge-form[data-game=liars]")
    assert [name.split(" ")[0] for name in shown()] == ["dicer"]
    dicer = Bot.objects.get(name="dicer").active_version_id
    page.check(f"#id_rivals input[value='{dicer}']")
    page.fill("#id_match_count", "2")
    page.click("#challenge-form button[type=submit]")
    page.wait_for_selector("#challenge-score")
    assert "±" not in page.inner_text("#challenge-score")
    tab.screenshot("challenge-liars-result")


def test_the_challenge_form_never_offers_the_chosen_version_against_itself(
    tab: Tab, browser, live_server
) -> None:
    """Issue 32: without JavaScript the form listed one's own current version as a rival."""
    me = user_make("twice")
    mine = bot_make(me, name="mine", on_ladder=True)
    first = mine.active_version_id
    second = BotVersionFactory(bot=mine, number=2)
    rating_activate(version=second)
    bot_make(user_make("other-owner"), name="other", on_ladder=True)
    shown = (
        "() => Array.from(document.querySelectorAll('#id_rivals label.rival'))"
        ".filter((label) => label.offsetParent !== null && !label.querySelector('input').disabled)"
        ".map((label) => label.querySelector('input').value)"
    )
    # No script: the server leaves the current version (the one chosen) out.
    bare = browser.new_context(java_script_enabled=False)
    page = bare.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "twice")
    page.fill("#id_password", PASSWORD)
    page.click("#login-form button[type=submit]")
    page.goto(f"{live_server.url}/challenges/new/?game=lie21")
    assert page.input_value("#id_version") == str(second.pk)
    offered = page.evaluate(shown)
    assert str(second.pk) not in offered and str(first) in offered, offered
    bare.close()
    # With it: choosing the earlier version moves the gap to it.
    log_in(tab, "twice", PASSWORD)
    tab.goto("/challenges/new/?game=lie21")
    assert str(second.pk) not in tab.page.evaluate(shown)
    tab.page.select_option("#id_version", str(first))
    offered = tab.page.evaluate(shown)
    assert str(second.pk) in offered and str(first) not in offered, offered


def test_the_fault_heading_and_box_name_the_same_hand_on_the_site_and_locally(
    tab: Tab, tmp_path: Path
) -> None:
    """Issue 32: "Game 1, hand 2" above a fault box saying "hand 3": The Liar of hand 3 failed
    before its lie, so the table still showed hand 2."""
    steady, faulty = bot_make(name="steady"), bot_make(name="faulty")
    for seed in range(1, 40):  # a deal where it is The Liar of hand 3 (the arena's own seeds)
        match = match_record(steady, faulty, seed=seed, players=("random", LIAR_FAILS))
        if match.reason == "fault":
            break
    assert match.reason == "fault"
    for seed in range(1, 40):  # the same, in the local runner
        local = ["play", "random", str(LIAR_FAILS), "--seed", str(seed), "--in-process"]
        engine_main([*local, "--quiet", "--replay-dir", str(tmp_path / str(seed))])
        replay = next((tmp_path / str(seed)).glob("*.json.gz"))
        if replay_io.load(replay)["faults"]:
            break
    assert engine_main(["replay", str(replay), "--html", str(tmp_path / "m.html")]) == 0
    page = tab.page
    for where, address, name in (
        ("site", f"{tab.base_url}/matches/{match.pk}/", "faulty"),
        ("local", (tmp_path / "m.html").as_uri(), LIAR_FAILS.stem),
    ):
        page.goto(address)
        page.wait_for_selector("#replay-viewer[data-ready=true]")
        page.keyboard.press("f")
        page.wait_for_selector("#rv-fault:not([hidden])")
        heading = page.inner_text("#l21-status")
        box = page.inner_text("#rv-fault")
        listed = page.inner_text("#match-error")
        found = re.search(r"game (\d+), after step \d+: hand (\d+), lie", box)
        assert found, box
        game, hand = found.groups()
        assert heading.startswith(f"Game {game}, hand {hand}: "), (where, heading, box)
        assert f"{name} (The Liar) crashed" in heading, heading
        assert f"hand {hand}, lie" in listed, listed
        # The table still shows the hand before: the heading names the fault's own.
        shown = page.get_attribute("#l21-board", "data-hand")
        assert shown == str(int(hand) - 1), shown
        tab.screenshot(f"fault-heading-{where}")


def test_the_kit_is_offered_on_every_game_page_and_on_write_a_bot(tab: Tab) -> None:
    """The links, and what they say: installs offline, numpy from PyPI (the kit carries
    every wheel but numpy's, which is built per platform)."""
    page = tab.page
    tab.goto("/docs/bot-api/")
    note = page.inner_text("#kit-note")
    assert "works offline" in note and f"pip install numpy=={BOT_PACKAGES['numpy']}" in note
    links = page.eval_on_selector_all(
        "#kit-downloads a[data-game]", "(links) => links.map((a) => a.getAttribute('href'))"
    )
    hosted = [name for name, game in GAMES.items() if "starter" in game.builtin_bots()]
    assert links == [f"/games/{name}/kit.zip" for name in hosted]
    assert page.get_attribute("#wheel-link", "href") == "/downloads/engine/"
    tab.screenshot("write-a-bot-kits")
    for name in hosted:
        tab.goto(f"/games/{name}/")
        assert page.get_attribute("#kit-link", "href") == f"/games/{name}/kit.zip"
        note = page.inner_text("#kit-note")
        assert "installs offline" in note and "from PyPI" in note, note
        assert page.get_attribute("#wheel-link", "href") == "/downloads/engine/"
