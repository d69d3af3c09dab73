"""The playground in a real browser: write a bot on the site, run it, watch it, upload it.

The issue's loop, as an author does it: open the playground on the starter bot, edit it into
a bot that crashes on its third move, run it and read the traceback at that step of the
replay; fix it, run five matches and read their results; upload it as a new version and see
it validated. Tasks run eagerly (tests/settings.py): every match is played for real in the
sandbox during the request that asked for it.
"""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone
from django.utils.formats import date_format

from arena.models import Bot, BotVersion, PlaygroundDraft, PlaygroundMatch, PlaygroundRun
from arena.web.display import WHEN_FORMAT
from tests.arena.factories import BotFactory, BotVersionFactory
from tests.arena.web.conftest import Tab, log_in
from tests.arena.web.data import PASSWORD, bot_make, user_make

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Typed after the starter's last line: its act() wrapped so that the third move crashes.
CRASH_ON_THIRD_MOVE = (
    "\n\nstarter_act = act\nMOVES = 0\n\n\ndef act(observation):\n    global MOVES\n"
    "    MOVES += 1\n    print(f'move {MOVES}')\n    if MOVES == 3:\n"
    "        raise RuntimeError('my third move')\n    return starter_act(observation)\n"
)
IN_FRAME_LOG = "() => document.getElementById('rv-log-lines').innerText"


def _source(tab: Tab) -> str:
    return tab.page.evaluate("() => window.arenaPlayground.editor.getSource()")


def _run(tab: Tab, matches: int) -> None:
    """Press Run and wait until the new run is over (or refused: then say why)."""
    page = tab.page
    before = PlaygroundRun.objects.order_by("-id").values_list("id", flat=True).first() or 0
    page.fill("#run-matches", str(matches))
    page.click("#run-button")
    page.wait_for_function(
        "() => !document.getElementById('check-error').hidden || "
        "Number(document.querySelector('#run-status[data-status=done]')?.dataset.run) > "
        f"{before}",
        timeout=60_000,
    )
    assert page.is_hidden("#check-error"), page.inner_text("#check-error")


def _viewer(tab: Tab):
    """The inline viewer's frame, once its replay is drawn."""
    tab.page.wait_for_selector("#run-viewer[data-loaded]")
    frame = tab.page.frame_locator("#run-viewer")
    frame.locator("#replay-viewer[data-ready=true]").wait_for()
    return tab.page.frame(url=lambda url: "embed=1" in url)


def test_an_author_writes_runs_fixes_and_uploads_a_bot_in_the_playground(tab: Tab) -> None:
    user_make("paula")
    page = tab.page
    log_in(tab, "paula", PASSWORD)
    tab.goto("/games/lie21/")
    page.click("#playground-link")
    page.wait_for_selector("#playground[data-ready=true]")
    assert "def act(observation):" in _source(tab)  # the starter
    assert "Lie 21" in page.inner_text("#rules-lie21")  # the rules beside it
    tab.screenshot("playground-starter")

    # Edit the starter into a bot that crashes on its third move, as typed in the editor.
    page.click(".cm-content")
    page.keyboard.press("Control+End")
    page.keyboard.insert_text(CRASH_ON_THIRD_MOVE)
    assert _source(tab).endswith("return starter_act(observation)\n")
    _run(tab, 1)
    row = page.locator("#run-matches-table tbody tr")
    assert row.count() == 1 and row.first.get_attribute("data-result") == "loss"
    assert "crash" in row.first.inner_text()
    frame = _viewer(tab)
    # The viewer opened at the draft's fault: the traceback is the log at that step.
    assert "stopped by a fault" in frame.inner_text("#rv-position")
    assert "RuntimeError: my third move" in frame.evaluate(IN_FRAME_LOG)
    assert "your draft crashed" in frame.inner_text("#match-error").lower()
    tab.screenshot("playground-crash")
    # Its prints are filed by step too: the first move's print is at an earlier step.
    assert "move 1" in frame.inner_text("#match-logs")

    # Fix it: delete the crash's two lines (Alt+L selects a line); the draft saves itself.
    page.click(".cm-content")
    page.keyboard.press("Control+End")
    for _ in range(3):
        page.keyboard.press("ArrowUp")  # onto "if MOVES == 3:"
    for _ in range(2):
        page.keyboard.press("Alt+l")
        page.keyboard.press("Delete")
    fixed = "    print(f'move {MOVES}')\n    return starter_act(observation)\n"
    assert _source(tab).endswith(fixed), _source(tab)[-300:]
    page.wait_for_selector("#draft-status[data-state=saved]")
    draft = PlaygroundDraft.objects.get(owner__username="paula")
    assert draft.source == _source(tab)
    # The time it was saved, as every page writes a moment (the ``when`` filter).
    saved = date_format(timezone.localtime(draft.updated), WHEN_FORMAT)
    assert page.inner_text("#draft-status") == f"Draft saved at {saved}."
    _run(tab, 5)
    rows = page.locator("#run-matches-table tbody tr")
    assert rows.count() == 5
    assert all(rows.nth(i).get_attribute("data-status") == "done" for i in range(5))
    assert "of 5 played" in page.inner_text("#run-summary")
    assert "lost by your draft's fault" not in page.inner_text("#run-summary")
    run = PlaygroundRun.objects.latest("created")
    assert run.matches.filter(status="done", fault="").count() == 5
    _viewer(tab)
    tab.screenshot("playground-five-matches")

    # Upload it as a new version: the normal upload, then its page with the verdict.
    page.select_option("#upload-bot", "new")
    page.fill("#upload-name", "typed-in-the-browser")
    page.click("#upload-button")
    page.wait_for_url("**/bots/*/versions/1/")
    bot = Bot.objects.get(name="typed-in-the-browser")
    version = BotVersion.objects.get(bot=bot)
    assert version.status == "valid" and bot.active_version_id == version.pk
    assert version.file.read().decode() == run.source
    assert "valid" in page.inner_text("main").lower()
    tab.screenshot("playground-uploaded")


def test_a_refused_draft_shows_why_with_its_line_and_nothing_runs(tab: Tab) -> None:
    user_make("quentin")
    page = tab.page
    log_in(tab, "quentin", PASSWORD)
    tab.goto("/games/lie21/play/")
    page.wait_for_selector("#playground[data-ready=true]")
    page.click(".cm-content")
    page.keyboard.press("Control+Home")
    page.keyboard.insert_text("import pandas\n")
    page.click("#run-button")
    page.wait_for_selector("#check-error:not([hidden])")
    text = page.inner_text("#check-error")
    assert "line 1: import pandas" in text and "standard library" in text
    assert page.locator(".cm-lintRange-error").count() == 1  # the line is marked
    tab.screenshot("playground-refused")
    # The browser logs the refusal's 400 as a failed load: expected here, and only here.
    tab.errors[:] = [error for error in tab.errors if "status of 400" not in error]
    assert not PlaygroundRun.objects.exists() and not PlaygroundMatch.objects.exists()


def test_a_game_of_more_seats_chooses_a_player_count_and_seats_a_ladder_bot(tab: Tab) -> None:
    me = user_make("rosa")
    rival = bot_make(user_make("sven"), name="svenbot", game="liars", on_ladder=True)
    bot_make(me, name="rosabot", game="liars", on_ladder=True)
    page = tab.page
    log_in(tab, "rosa", PASSWORD)
    tab.goto("/games/liars/play/")
    page.wait_for_selector("#playground[data-ready=true]")
    page.select_option("#run-players", "3")
    assert page.locator("#run-seats select").count() == 2
    labels = page.locator("#run-opponent-1 optgroup").evaluate_all("(gs) => gs.map((g) => g.label)")
    assert labels == ["Built-in bots", "Your versions", "On the ladder"]
    page.select_option("#run-opponent-1", f"bot:{rival.pk}")
    _run(tab, 1)
    run = PlaygroundRun.objects.get()
    assert [o["ref"] for o in run.opponents] == ["random", f"bot:{rival.pk}"]
    assert "svenbot" in page.inner_text("#run-matches-table")
    _viewer(tab)
    tab.screenshot("playground-liars")
    tab.assert_fits()


def test_the_playground_fits_a_phone(phone_tab: Tab) -> None:
    user_make("tara")
    page = phone_tab.page
    log_in(phone_tab, "tara", PASSWORD)
    phone_tab.goto("/games/lie21/play/")
    page.wait_for_selector("#playground[data-ready=true]")
    phone_tab.assert_fits()
    _run(phone_tab, 2)
    _viewer(phone_tab)
    phone_tab.screenshot("playground-phone")
    phone_tab.assert_fits()


def test_the_opponent_search_seats_a_ladder_bot_beyond_the_first_two_hundred(tab: Tab) -> None:
    """Issue 33: the page listed the first 200 ladder bots by name and offered no search."""
    owner = user_make("crowd")
    for n in range(230):
        BotVersionFactory(bot=BotFactory(owner=owner, name=f"ladder-{n:03d}", game="lie21"))
    target = Bot.objects.get(name="ladder-215")
    user_make("ursula")
    page = tab.page
    log_in(tab, "ursula", PASSWORD)
    tab.goto("/games/lie21/play/")
    page.wait_for_selector("#playground[data-ready=true]")
    listed = page.locator("#run-opponent-0 option").evaluate_all("(os) => os.map((o) => o.value)")
    assert f"bot:{target.pk}" not in listed, "beyond the first 200: only the search finds it"
    page.fill("#opponent-search", "ladder-21")
    page.wait_for_selector(f"#opponent-results li[data-ref='bot:{target.pk}']")
    assert page.locator("#opponent-results li").count() == 10
    assert "10 bots match" in page.inner_text("#opponent-search-status")
    page.click(f"#opponent-results li[data-ref='bot:{target.pk}'] button")
    assert page.input_value("#run-opponent-0") == f"bot:{target.pk}"
    tab.screenshot("playground-opponent-search")
    _run(tab, 1)
    run = PlaygroundRun.objects.get()
    assert [o["ref"] for o in run.opponents] == [f"bot:{target.pk}"]
    assert "crowd/ladder-215 v1" in page.inner_text("#run-matches-table")
    # Paging: the whole ladder is reachable, 20 at a time.
    page.fill("#opponent-search", "ladder")
    page.wait_for_function("() => document.querySelectorAll('#opponent-results li').length === 20")
    page.click("#opponent-more")
    page.wait_for_function("() => document.querySelectorAll('#opponent-results li').length === 40")


def test_ctrl_enter_runs_from_the_editor_but_not_from_the_upload_form(tab: Tab) -> None:
    """Issue 33: Ctrl+Enter ran the draft from anywhere, the upload's name field included."""
    user_make("victor")
    page = tab.page
    log_in(tab, "victor", PASSWORD)
    tab.goto("/games/lie21/play/")
    page.wait_for_selector("#playground[data-ready=true]")
    page.select_option("#upload-bot", "new")
    page.fill("#upload-name", "not-yet")
    page.focus("#upload-name")
    page.keyboard.press("Control+Enter")
    page.wait_for_timeout(1500)
    assert not PlaygroundRun.objects.exists() and page.is_hidden("#run-results")
    page.click(".cm-content")
    page.keyboard.press("Control+Enter")
    page.wait_for_selector("#run-status[data-status=done]", timeout=60_000)
    assert PlaygroundRun.objects.count() == 1


def test_a_match_waiting_for_a_worker_says_so_while_another_plays(tab: Tab) -> None:
    """Issue 33: a run with a match playing said nothing of the others waiting > 1 min."""
    user_make("wanda")
    page = tab.page
    log_in(tab, "wanda", PASSWORD)
    tab.goto("/games/lie21/play/")
    page.wait_for_selector("#playground[data-ready=true]")
    with mock.patch("arena.services.playground.runs.enqueue"):  # no worker takes them
        page.fill("#run-matches", "3")
        page.click("#run-button")
        page.wait_for_selector("#run-status[data-status=queued]")
    run = PlaygroundRun.objects.get()
    PlaygroundRun.objects.filter(pk=run.pk).update(created=timezone.now() - timedelta(seconds=75))
    PlaygroundMatch.objects.filter(run=run, number=1).update(
        status=PlaygroundMatch.Status.RUNNING, started_at=timezone.now()
    )
    page.wait_for_selector("#run-status[data-waiting=true][data-status=running]")
    assert "Matches 2, 3 have waited 1 min" in page.inner_text("#run-status-text")
    waiting = page.locator("#run-matches-table [data-waiting=true]")
    assert waiting.count() == 2
    assert "waiting 1 min" in waiting.first.inner_text()
    tab.screenshot("playground-waiting")
