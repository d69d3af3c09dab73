"""The bot author's loop in a real browser: challenge a rival, read "v2 vs v1", open a local
replay (dropped on /replay/, or the single HTML file ``python -m engine replay --html``
writes), and jump to a fault there.

Upload and the fault page with its jump are in test_browser.py. Each test fails on any
console error (the ``tab`` fixture); screenshots go to test-artifacts/screenshots/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from arena.models import Challenge, Match
from arena.services.challenges import challenge_create, comparison_start
from arena.services.ratings import rating_activate
from engine import replay as replay_io
from engine.cli import main as engine_main
from engine.registry import GAMES
from tests.arena.factories import BotVersionFactory
from tests.arena.web.conftest import Tab, log_in
from tests.arena.web.data import PASSWORD, bot_make, challenge_finish, user_make

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOTS = Path(__file__).parent / "bots"


def test_an_owner_challenges_a_rival_from_its_page_and_reads_the_score(tab: Tab) -> None:
    me = user_make("carla")
    mine = bot_make(me, name="carlabot", on_ladder=True)
    rival = bot_make(user_make("dmitri"), name="dmitribot", on_ladder=True)
    log_in(tab, "carla", PASSWORD)
    tab.goto(f"/bots/{rival.pk}/")
    tab.page.click("#challenge-bot")
    tab.page.wait_for_selector("#challenge-form")
    chosen = tab.page.evaluate(
        "() => Array.from(document.querySelectorAll('#id_rivals input[name=rivals]'))"
        ".filter((box) => box.checked).map((box) => box.value)"
    )
    assert chosen == [str(rival.active_version_id)], "the rival comes preselected"
    tab.page.select_option("#id_version", str(mine.active_version_id))
    tab.page.fill("#id_match_count", "4")
    tab.screenshot("challenge-form")
    tab.page.click("#challenge-form button[type=submit]")
    tab.page.wait_for_selector("#challenge-score")
    challenge = Challenge.objects.get()
    assert tab.page.url.endswith(f"/challenges/{challenge.pk}/")
    # The test settings play queued matches at once (eager tasks), in the sandbox, for real.
    assert Match.objects.filter(challenge=challenge, status="done", ranked=False).count() == 4
    score = tab.page.inner_text("#challenge-score")
    assert score.startswith("carlabot v1: ") and "%, 95% interval " in score
    assert "over 4 matches" in score and "±" not in score
    assert tab.page.locator("table.matches tbody tr[data-match]").count() == 4
    tab.screenshot("challenge-results")


def test_the_bot_page_shows_v2_vs_v1_and_links_to_the_comparison(tab: Tab, settings) -> None:
    settings.ARENA_COMPARISON_MATCHES = 6
    me = user_make("erin")
    bot = bot_make(me, name="erinbot", on_ladder=True)
    second = BotVersionFactory(bot=bot, number=2)
    rating_activate(version=second)
    comparison = comparison_start(version_id=second.pk)
    challenge_finish(comparison, [0, 0, 0, 0, 0, 1])
    log_in(tab, "erin", PASSWORD)
    tab.goto(f"/bots/{bot.pk}/")
    line = tab.page.inner_text("#comparison")
    assert line.startswith("v2 vs v1: 83%, 95% interval ") and "over 6 matches" in line
    tab.screenshot("bot-comparison")
    tab.page.click("#comparison a")
    tab.page.wait_for_selector("#challenge-score")
    assert "Version comparison" in tab.page.inner_text("h1")
    tab.goto(f"/bots/{bot.pk}/versions/2/")
    assert tab.page.inner_text("#comparison") == line


def _crash_replay(tmp_path: Path) -> Path:
    """A real local match that a bot loses by crashing in its game's third hand."""
    folder = tmp_path / "replays"
    argv = ["play", str(BOTS / "crash_in_hand_three.py"), "random", "--in-process", "--quiet"]
    assert engine_main([*argv, "--seed", "4", "--replay-dir", str(folder), "--json"]) == 0
    return next(folder.glob("*.json.gz"))


def test_a_local_replay_file_opens_on_the_replay_page_and_jumps_to_its_fault(
    tab: Tab, tmp_path: Path
) -> None:
    replay_file = _crash_replay(tmp_path)
    fault = replay_io.load(replay_file)["faults"][0]
    tab.goto("/replay/")
    tab.page.set_input_files("#replay-file", str(replay_file))
    tab.page.wait_for_selector("#replay-viewer[data-ready=true]")
    assert replay_file.name in tab.page.inner_text("#replay-file-name")
    tab.page.keyboard.press("f")
    tab.page.wait_for_function(
        "(where) => window.location.hash.startsWith(where)", arg=f"#game={fault['game']}&step="
    )
    assert "stopped by a fault" in tab.page.inner_text("#rv-position")
    tab.screenshot("replay-page-fault")


def test_a_file_that_is_not_a_replay_is_explained_on_the_replay_page(
    tab: Tab, tmp_path: Path
) -> None:
    junk = tmp_path / "notes.json"
    junk.write_text('{"hello": "world"}')
    tab.goto("/replay/")
    tab.page.set_input_files("#replay-file", str(junk))
    tab.page.wait_for_selector("#replay-error:not([hidden])")
    assert "notes.json cannot be opened: it is not an arena replay" in tab.page.inner_text(
        "#replay-error"
    )
    assert tab.page.locator("#replay-viewer").is_hidden()


def test_the_html_file_of_engine_replay_draws_with_the_sites_viewer(tab: Tab, tmp_path) -> None:
    replay_file = _crash_replay(tmp_path)
    out = tmp_path / "match.html"
    assert engine_main(["replay", str(replay_file), "--html", str(out)]) == 0
    tab.page.goto(out.as_uri())
    tab.page.wait_for_selector("#replay-viewer[data-ready=true]")
    assert tab.page.get_attribute("#replay-viewer", "data-renderer-error") is None
    assert tab.page.locator("#rv-board *").count() > 10, "the renderer drew the table"
    tab.page.keyboard.press("f")
    tab.page.wait_for_function("() => window.location.hash.startsWith('#game=')")
    assert "stopped by a fault" in tab.page.inner_text("#rv-position")
    tab.screenshot("engine-replay-html")


RENDERED = sorted(name for name, game in GAMES.items() if game.renderer_path().is_file())


@pytest.mark.parametrize("game", RENDERED)
def test_every_games_html_replay_is_drawn_by_its_renderer(tab: Tab, tmp_path, game) -> None:
    seats = ["random"] * GAMES[game].min_players
    folder = tmp_path / "replays"
    argv = ["play", "--game", game, *seats, "--in-process", "--quiet", "--json"]
    assert engine_main([*argv, "--replay-dir", str(folder)]) == 0
    out = tmp_path / "match.html"
    assert engine_main(["replay", str(next(folder.glob("*.json.gz"))), "--html", str(out)]) == 0
    tab.page.goto(out.as_uri())
    tab.page.wait_for_selector("#replay-viewer[data-ready=true]")
    assert tab.page.get_attribute("#replay-viewer", "data-renderer-error") is None
    tab.page.keyboard.press("End")
    assert "game over" in tab.page.inner_text("#rv-position")
    assert tab.page.locator("#rv-board *").count() > 5
    tab.screenshot(f"engine-replay-html-{game}")


def test_the_challenge_and_version_pages_fit_a_phone(phone_tab: Tab) -> None:
    me = user_make("fay")
    mine = bot_make(me, name="faybot-with-a-long-name", on_ladder=True)
    rival = bot_make(user_make("gus"), name="gusbot", on_ladder=True)
    challenge = challenge_create(
        user=me,
        version_id=mine.active_version_id,
        rival_version_ids=[rival.active_version_id],
        matches=2,
    )
    client = Client()
    client.force_login(me)
    host = phone_tab.base_url.split("//", 1)[1].split(":")[0]
    phone_tab.page.context.add_cookies(
        [
            {
                "name": "sessionid",
                "value": client.cookies["sessionid"].value,
                "domain": host,
                "path": "/",
            }
        ]
    )
    for name, path in (
        ("challenge", f"/challenges/{challenge.pk}/"),
        ("challenges", "/challenges/"),
        ("challenge-new", "/challenges/new/"),
        ("version", f"/bots/{mine.pk}/versions/1/"),
        ("replay-file", "/replay/"),
    ):
        phone_tab.goto(path)
        phone_tab.screenshot(f"{name}-phone")
        phone_tab.assert_fits()
    assert "fay" in phone_tab.page.content(), "logged in"
