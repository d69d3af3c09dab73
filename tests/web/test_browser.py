"""The pages in a real browser (Debian's Chromium through Playwright).

Each test fails on any console error or uncaught exception (the ``tab`` fixture checks at
teardown) and saves screenshots under test-artifacts/screenshots/. Without Chromium the
tests skip, or fail when CI=true (see conftest.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.models import BotVersion, Match, Tournament
from engine import replay as replay_io
from tests.arena.factories import BotVersionFactory, TournamentEntryFactory, TournamentFactory
from tests.web.conftest import Tab, log_in
from tests.web.data import (
    PASSWORD,
    SYNTAX_ERROR_BOT,
    VALID_BOT,
    bot_make,
    match_record,
    rate,
    replay_with_forfeits_and_challenges,
    user_make,
)
from tests.web.replay_model import PHASE_ORDER, Step, game_steps, visible_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Everything the viewer shows, read in one round trip per step.
READ_VIEWER = """() => {
  const cards = (id) => Array.from(document.querySelectorAll('#' + id + ' .card'))
    .map((card) => card.dataset.card);
  const data = (id) => document.getElementById(id).dataset;
  const status = data('rv-status');
  return {
    step: Number(status.step), game: status.game, hand: status.hand, phase: status.phase,
    hands: [cards('rv-hand-0'), cards('rv-hand-1')],
    liar: cards('rv-liar-cards'), judge: cards('rv-judge-cards'),
    sums: [data('rv-liar-sum').sum, data('rv-judge-sum').sum],
    deck: Number(data('rv-deck').count), trump: data('rv-trump').card,
    winner: data('rv-outcome').winner, rule: data('rv-outcome').rule,
    points: [data('rv-points-0').points, data('rv-points-1').points],
    history: Array.from(document.querySelectorAll('#rv-history li'))
      .map((li) => Array.from(li.querySelectorAll('.card')).map((card) => card.dataset.card)),
    view: data('replay-viewer').view,
  };
}"""


def _bot_file(tmp_path: Path, name: str, source: str) -> Path:
    path = tmp_path / name
    path.write_text(source)
    return path


# --- sign up, create a bot, upload, validation ----------------------------------------------


@pytest.mark.slow
def test_it_signs_up_uploads_a_bot_and_sees_it_validated(tab: Tab, tmp_path: Path) -> None:
    page = tab.page
    tab.goto("/accounts/signup/")
    tab.screenshot("signup")
    page.fill("#id_username", "carol")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector(".message.success")
    assert page.inner_text(".username") == "carol"

    tab.goto("/bots/new/")
    page.fill("#id_name", "first-bot")
    page.fill("#id_description", "Plays low, never challenges.")
    page.set_input_files("#id_file", str(_bot_file(tmp_path, "bot.py", VALID_BOT)))
    assert "bot.py" in page.inner_text("[data-chosen]")
    tab.screenshot("bot-new")
    page.click("#bot-new-form button[type=submit]")

    # The version page polls until the sandbox has judged the bot (eager Celery in tests).
    page.wait_for_selector("#version-status[data-status=valid]", timeout=90_000)
    assert "valid: bot.py imported in the sandbox" in page.inner_text("#validation-log")
    tab.screenshot("version-valid")

    page.click(".breadcrumbs a")
    page.wait_for_selector("#versions")
    assert page.inner_text("#versions tbody tr[data-version='1'] .status") == "Valid"
    assert page.inner_text("#bot-description") == "Plays low, never challenges."
    tab.screenshot("bot-owner")

    # A broken file, dropped onto the upload page: refused, explained, nothing stored.
    page.click("text=Upload a new version")
    page.wait_for_selector("#upload-form")
    transfer = page.evaluate_handle(
        """(source) => {
            const transfer = new DataTransfer();
            transfer.items.add(new File([source], 'broken.py', {type: 'text/x-python'}));
            return transfer;
        }""",
        SYNTAX_ERROR_BOT,
    )
    page.dispatch_event("[data-drop-target]", "drop", {"dataTransfer": transfer})
    assert "broken.py" in page.inner_text("[data-chosen]")
    page.click("#upload-form button[type=submit]")
    error = page.inner_text("#upload-error")
    assert "line 2" in error or "line 4" in error, error
    tab.screenshot("upload-error")
    assert BotVersion.objects.filter(bot__name="first-bot").count() == 1


def test_the_version_page_polls_until_the_workers_judge_the_version(tab: Tab) -> None:
    """Validation in a real worker takes seconds: the page shows progress, then the verdict."""
    owner = user_make("dan")
    bot = bot_make(owner, name="slowpoke")
    version = BotVersionFactory(bot=bot, status=BotVersion.Status.PENDING, activate=False)
    log_in(tab, "dan", PASSWORD)
    tab.goto(f"/bots/{bot.pk}/versions/{version.number}/")
    tab.page.wait_for_selector("#version-status[data-status=pending]")
    tab.page.wait_for_function("() => /Validating.*\\(\\d+ s\\)/.test(document.body.innerText)")
    tab.screenshot("version-pending")
    BotVersion.objects.filter(pk=version.pk).update(
        status=BotVersion.Status.INVALID,
        validation_log="invalid: crash at import: NameError",
        error_output="NameError: name 'oops' is not defined",
    )
    tab.page.wait_for_selector("#version-status[data-status=invalid]", timeout=20_000)
    assert "NameError: name 'oops'" in tab.page.inner_text("#error-output")
    assert "crash at import" in tab.page.inner_text("#validation-log")
    tab.screenshot("version-invalid")


# --- the replay viewer -----------------------------------------------------------------------


@pytest.fixture
def replay_match(db) -> tuple[Match, dict]:
    """A finished match whose first game has forfeited and challenged hands, with owners."""
    seed, _ = replay_with_forfeits_and_challenges()
    alice = user_make("alice")
    bob = user_make("bob")
    bot_a = bot_make(alice, name="alpha")
    bot_b = bot_make(bob, name="beta")
    match = match_record(
        bot_a, bot_b, seed=seed, logs=[("alpha says hi", ""), ("beta's secret plan", "")]
    )
    return match, replay_io.loads(bytes(match.replay.data))


def _open_viewer(tab: Tab, match: Match) -> None:
    tab.goto(f"/matches/{match.pk}/")
    tab.page.wait_for_selector("#replay-viewer[data-ready=true]")
    assert tab.page.get_attribute("#replay-viewer", "data-consistent") == "true"


def _check_spectator(shown: dict, expected: Step, game: dict) -> None:
    where = f"{expected.phase} of hand {expected.hand_number or '-'}"
    assert shown["phase"] == expected.phase, where
    assert shown["game"] == str(game["number"]), where
    assert shown["hand"] == expected.hand_number, where
    assert shown["hands"] == [expected.hands[0], expected.hands[1]], where
    assert shown["deck"] == expected.deck, where
    assert shown["trump"] == (game["trump_card"] if expected.deck else ""), where
    if expected.hand is None:
        return
    liar, judge = visible_table(expected, None)
    assert shown["liar"] == liar, where
    assert shown["judge"] == judge, where
    if expected.sums is not None:
        hand = expected.hand
        assert shown["sums"] == [str(hand["liar_sum"]), str(hand["judge_sum"])], where
        assert [int(s) for s in shown["sums"]] == list(expected.sums), where
        assert shown["winner"] == str(hand["winner"]), where
        assert shown["rule"] == hand["rule"], where
    else:
        assert shown["sums"] == ["", ""], where


@pytest.mark.slow
def test_it_steps_through_a_whole_game_showing_the_replays_cards_and_sums(
    tab: Tab, replay_match
) -> None:
    match, replay = replay_match
    _open_viewer(tab, match)
    tab.screenshot("match-viewer-start")
    game = replay["games"][0]
    expected_steps = game_steps(game)
    for index, expected in enumerate(expected_steps):
        shown = tab.page.evaluate(READ_VIEWER)
        assert shown["step"] == index
        _check_spectator(shown, expected, game)
        if expected.phase == "result" and expected.hand["number"] == 1:
            tab.screenshot("match-viewer-hand1-result")
        if expected.phase == "game_end":
            assert shown["points"] == [str(p) for p in game["scores"]]
            assert all("back" not in cards for cards in shown["history"])
            assert tab.page.is_visible("#rv-game-end")
            tab.screenshot("match-viewer-game-end")
        tab.page.keyboard.press("ArrowRight")
    # The step after game 1's end is game 2's deal.
    if len(replay["games"]) > 1:
        shown = tab.page.evaluate(READ_VIEWER)
        assert (shown["game"], shown["phase"]) == ("2", "deal")


def _check_player(shown: dict, expected: Step, view: int) -> None:
    where = f"seat {view}: {expected.phase} of hand {expected.hand_number or '-'}"
    other = 1 - view
    assert shown["hands"][view] == expected.hands[view], where
    assert shown["hands"][other] == ["back"] * len(expected.hands[other]), where
    if expected.phase != "game_end":
        assert shown["points"] == ["", ""], where  # game points only at game end
    if expected.hand is None:
        return
    liar, judge = visible_table(expected, view)
    assert shown["liar"] == liar, where
    assert shown["judge"] == judge, where
    hand = expected.hand
    if PHASE_ORDER[expected.phase] >= PHASE_ORDER["result"]:
        if hand["challenge"]:
            assert shown["liar"] + shown["judge"] == hand["liar_cards"] + hand["judge_cards"]
            assert shown["sums"] == [str(hand["liar_sum"]), str(hand["judge_sum"])], where
        else:
            assert shown["sums"] == ["", ""], where  # forfeited sums are never shown
            unseen = shown["judge"] if view == hand["liar"] else shown["liar"]
            assert unseen.count("back") == (3 if view == hand["liar"] else 2), where


@pytest.mark.slow
@pytest.mark.parametrize("view", [0, 1])
def test_a_players_view_hides_what_that_player_never_saw(tab: Tab, replay_match, view) -> None:
    match, replay = replay_match
    _open_viewer(tab, match)
    tab.page.keyboard.press(str(view + 1))  # 1: seat 0's view, 2: seat 1's view
    assert tab.page.get_attribute("#replay-viewer", "data-view") == str(view)
    game = replay["games"][0]
    forfeits_seen = 0
    for expected in game_steps(game):
        shown = tab.page.evaluate(READ_VIEWER)
        _check_player(shown, expected, view)
        if expected.phase == "result" and not expected.hand["challenge"]:
            forfeits_seen += 1
            if forfeits_seen == 1:
                tab.screenshot(f"match-viewer-seat{view}-forfeit")
        if expected.phase == "draw":
            # Hands played earlier in this game: the other side's forfeited cards stay backs.
            done = [h for h in game["hands"] if h["number"] <= expected.hand["number"]]
            for cards, hand in zip(shown["history"], done, strict=True):
                if not hand["challenge"]:
                    theirs = cards[3:] if view == hand["liar"] else cards[:3]
                    hidden = 3 if view == hand["liar"] else 2
                    assert theirs.count("back") == hidden, (view, hand["number"], cards)
        if expected.phase == "game_end":
            # At the end of a game every card of it is revealed to both players.
            assert all("back" not in cards for cards in shown["history"])
            assert shown["points"] == [str(p) for p in game["scores"]]
        tab.page.keyboard.press("ArrowRight")
    assert forfeits_seen > 0
    tab.page.keyboard.press("0")
    assert tab.page.get_attribute("#replay-viewer", "data-view") == "spectator"


@pytest.mark.slow
def test_the_viewer_controls_play_pause_jump_and_switch_views(tab: Tab, replay_match) -> None:
    match, replay = replay_match
    page = tab.page
    _open_viewer(tab, match)
    step = lambda: page.evaluate(READ_VIEWER)  # noqa: E731

    page.select_option("#rv-speed", "8")
    page.click("#rv-play")
    assert page.get_attribute("#rv-play", "aria-pressed") == "true"
    page.wait_for_function("() => Number(document.getElementById('rv-status').dataset.step) >= 2")
    page.keyboard.press("Space")  # focus is on the play button: the button's own click
    paused_at = step()["step"]
    assert page.get_attribute("#rv-play", "aria-pressed") == "false"
    page.wait_for_timeout(400)
    assert step()["step"] == paused_at

    page.click("#rv-view-1")  # radio: seat 1's view
    assert step()["view"] == "1"
    page.locator("body").click(position={"x": 5, "y": 5})  # focus off the controls
    page.keyboard.press("Home")
    assert step()["step"] == 0
    page.keyboard.press("End")
    assert step()["phase"] == "match_end"
    result = replay["result"]
    assert page.is_visible("#rv-match-end")
    winner = result["winner"]
    assert (match.bot_a.name if winner == 0 else match.bot_b.name) in page.inner_text(
        "#rv-match-end"
    )

    page.select_option("#rv-jump-game", "0")
    page.select_option("#rv-jump-hand", "2")  # hand 3 of game 1
    shown = step()
    assert (shown["game"], shown["hand"], shown["phase"]) == ("1", "3", "lie")
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("]")
    assert step()["hand"] == "4"
    page.keyboard.press("[")  # already at the start of hand 4: back to hand 3's start
    assert (step()["hand"], step()["phase"]) == ("3", "lie")
    page.keyboard.press("ArrowLeft")
    assert step()["hand"] == "2"
    page.keyboard.press("Space")
    assert page.get_attribute("#rv-play", "aria-pressed") == "true"
    page.keyboard.press("Space")
    assert page.get_attribute("#rv-play", "aria-pressed") == "false"
    assert "Keyboard shortcuts" in page.inner_text("#rv-shortcuts summary")

    href = page.get_attribute("#replay-download", "href")
    assert href == f"/api/matches/{match.pk}/replay/"


def test_a_bots_owner_sees_its_match_log_on_the_match_page(tab: Tab, replay_match) -> None:
    match, _ = replay_match
    log_in(tab, "alice", PASSWORD)
    _open_viewer(tab, match)
    logs = tab.page.inner_text("#match-logs")
    assert "alpha says hi" in logs
    assert "beta's secret plan" not in logs
    tab.screenshot("match-owner-log")


BOTS = Path(__file__).parent / "bots"


@pytest.mark.parametrize(
    ("bot_file", "where"),
    [("crash_in_hand_three.py", "in game 1, hand 3"), ("crash_at_import.py", "crash")],
)
def test_a_match_lost_by_a_fault_replays_up_to_the_fault(tab: Tab, bot_file, where) -> None:
    match = match_record(
        bot_make(name="steady"),
        bot_make(name="faulty"),
        seed=3,
        bots=("heuristic", BOTS / bot_file),
    )
    _open_viewer(tab, match)
    assert "faulty" in tab.page.inner_text("#match-error")
    tab.page.keyboard.press("End")
    end = tab.page.inner_text("#rv-match-end")
    assert "faulty lost by a fault (crash)" in end
    assert where in end
    for view in "120":
        tab.page.keyboard.press(view)
        tab.page.keyboard.press("Home")
        tab.page.keyboard.press("End")
    tab.screenshot(f"match-fault-{bot_file.removesuffix('.py')}")


# --- every page: no console errors, fits a phone ---------------------------------------------


@pytest.fixture
def arena_data(db) -> dict:
    """A small arena: rated bots, finished and queued matches, a running tournament."""
    alice = user_make("alice")
    bots = [bot_make(alice, name="alpha", description="Bluffs <b>a lot</b>.")]
    bots += [bot_make(name=name) for name in ("beta", "gamma")]
    matches = []
    for seed, (a, b) in enumerate([(0, 1), (1, 2), (0, 2), (2, 0)], start=11):
        match = match_record(bots[a], bots[b], seed=seed)
        rate(match, [10.0 + seed, 5.0 + seed / 2])
        matches.append(match)
    tournament = TournamentFactory(name="Spring cup", status=Tournament.Status.RUNNING)
    for bot in bots:
        TournamentEntryFactory(tournament=tournament, bot=bot, version=bot.active_version)
    for a, b, seed in ((0, 1, 31), (0, 2, 32)):
        match_record(bots[a], bots[b], seed=seed, tournament=tournament, kind=Match.Kind.TOURNAMENT)
    match_record(
        bots[1],
        bots[2],
        tournament=tournament,
        kind=Match.Kind.TOURNAMENT,
        status=Match.Status.QUEUED,
    )
    return {"bots": bots, "matches": matches, "tournament": tournament}


PAGES = {
    "home": lambda d: "/",
    "ladder": lambda d: "/ladder/lie21/",
    "bot": lambda d: f"/bots/{d['bots'][0].pk}/",
    "match": lambda d: f"/matches/{d['matches'][0].pk}/",
    "tournaments": lambda d: "/tournaments/",
    "tournament": lambda d: f"/tournaments/{d['tournament'].pk}/",
    "bots": lambda d: "/bots/",
    "matches": lambda d: "/matches/",
    "docs-bot-api": lambda d: "/docs/bot-api/",
    "login": lambda d: "/accounts/login/",
}


def test_every_page_renders_without_console_errors_on_desktop_and_phone(
    tab: Tab, phone_tab: Tab, arena_data
) -> None:
    for name, path in PAGES.items():
        for which, opened in (("desktop", tab), ("phone", phone_tab)):
            opened.goto(path(arena_data))
            opened.page.wait_for_load_state("load")
            if name == "match":
                opened.page.wait_for_selector("#replay-viewer[data-ready=true]")
            opened.screenshot(f"{name}-{which}")
            if which == "phone":
                opened.assert_fits()
    # Logged in: the owner's pages.
    log_in(tab, "alice", PASSWORD)
    for name, path in (("token", "/accounts/token/"), ("bot-upload", "/bots/{}/upload/")):
        tab.goto(path.format(arena_data["bots"][0].pk))
        tab.screenshot(name)
    tab.goto("/accounts/token/")
    tab.page.click("#token-form button[type=submit]")
    tab.page.wait_for_selector("[data-token]")
    tab.page.click("[data-token-toggle]")
    assert tab.page.get_attribute("[data-token]", "type") == "text"
    tab.screenshot("token-created")


def test_the_ladder_sorts_by_a_column_and_the_crosstable_links_to_matches(
    tab: Tab, arena_data
) -> None:
    page = tab.page
    tab.goto("/ladder/lie21/")
    assert page.get_attribute("th[aria-sort=descending] a", "data-sort") == "score"
    page.click("a[data-sort=sigma]")
    page.wait_for_url("**sort=sigma**")
    assert page.get_attribute("th[aria-sort=ascending] a", "data-sort") == "sigma"
    assert page.query_selector_all("#ladder svg.sparkline")

    tab.goto(f"/tournaments/{arena_data['tournament'].pk}/")
    assert page.get_attribute("#tournament-progress", "data-done") == "2"
    assert page.get_attribute("#tournament-progress", "data-total") == "3"
    assert page.query_selector("meta[http-equiv=refresh]")
    cells = page.query_selector_all("#crosstable td[data-result]")
    results = sorted(cell.get_attribute("data-result") for cell in cells)
    assert results.count("pending") == 2 and len(results) == 6
    page.click("#crosstable td.pending a >> nth=0")
    page.wait_for_selector("#match-status[data-status=queued]")
    assert page.query_selector("meta[http-equiv=refresh]")
    tab.screenshot("match-queued")
