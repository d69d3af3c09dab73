"""The pages in a real browser (Debian's Chromium through Playwright).

Each test fails on any console error or uncaught exception (the ``tab`` fixture checks at
teardown) and saves screenshots under test-artifacts/screenshots/. Without Chromium the
tests skip, or fail when CI=true (see conftest.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.models import BotVersion, Match, MatchLog, Tournament
from engine import replay as replay_io
from tests.arena.factories import BotVersionFactory, TournamentEntryFactory, TournamentFactory
from tests.arena.web.conftest import Tab, log_in
from tests.arena.web.data import (
    PASSWORD,
    SYNTAX_ERROR_BOT,
    VALID_BOT,
    bot_make,
    match_record,
    rate,
    replay_with_forfeits_and_challenges,
    tournament_of_format,
    user_make,
)
from tests.arena.web.replay_model import Position, game_positions, history_row, visible_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOTS = Path(__file__).parent / "bots"

#: What the shell and the Lie 21 board show, read in one round trip per step.
READ_VIEWER = """() => {
  const cards = (id) => Array.from(document.querySelectorAll('#' + id + ' .card'))
    .map((card) => card.dataset.card);
  const data = (id) => (document.getElementById(id) || {dataset: {}}).dataset;
  const position = data('rv-position');
  const board = data('l21-board');
  return {
    index: Number(data('replay-viewer').index),
    game: position.game, step: Number(position.step),
    phase: board.phase, hand: board.hand,
    hands: [cards('l21-hand-0'), cards('l21-hand-1')],
    liar: cards('l21-liar-cards'), judge: cards('l21-judge-cards'),
    sums: [data('l21-liar-sum').sum, data('l21-judge-sum').sum],
    deck: Number(data('l21-deck').count), trump: data('l21-trump').card,
    winner: data('l21-outcome').winner, rule: data('l21-outcome').rule,
    points: [data('l21-points-0').points, data('l21-points-1').points],
    history: Array.from(document.querySelectorAll('#l21-history li'))
      .map((li) => Array.from(li.querySelectorAll('.card')).map((card) => card.dataset.card)),
    view: data('replay-viewer').view,
    renderError: data('replay-viewer').renderError,
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
    assert page.input_value("#id_game") == "", "no game is chosen for the author"
    page.fill("#id_name", "first-bot")
    page.select_option("#id_game", "lie21")
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


# --- the Lie 21 replay, in the viewer shell --------------------------------------------------


@pytest.fixture
def replay_match(db) -> tuple[Match, dict]:
    """A finished Lie 21 match whose first game has forfeited and challenged hands."""
    seed, _ = replay_with_forfeits_and_challenges()
    alice = user_make("alice")
    bob = user_make("bob")
    match = match_record(bot_make(alice, name="alpha"), bot_make(bob, name="beta"), seed=seed)
    return match, replay_io.loads(bytes(match.replay.data))


def _open_viewer(tab: Tab, match: Match, fragment: str = "") -> None:
    tab.goto(f"/matches/{match.pk}/{fragment}")
    tab.page.wait_for_selector("#replay-viewer[data-ready=true]")


def _check_spectator(shown: dict, expected: Position, game: dict) -> None:
    where = f"{expected.phase} of hand {expected.hand_number or '-'} (step {expected.move})"
    assert shown["renderError"] is None, shown["renderError"]
    assert shown["step"] == expected.move, where
    assert shown["phase"] == expected.phase, where
    assert shown["game"] == str(game["number"]), where
    assert shown["hand"] == expected.hand_number, where
    assert shown["hands"] == [expected.hands[0], expected.hands[1]], where
    assert shown["deck"] == expected.deck, where
    trump = game["record"]["trump_card"]
    assert shown["trump"] == (trump if expected.deck else ""), where
    if expected.phase == "game_end":
        assert shown["points"] == [str(p) for p in game["scores"]], where
    else:
        assert shown["points"] == [str(p) for p in expected.points], where
    if expected.hand is None:
        return
    liar, judge = visible_table(expected, None)
    assert shown["liar"] == liar, where
    assert shown["judge"] == judge, where
    hand = expected.hand
    if hand["answered"]:
        assert shown["sums"] == [str(hand["liar_sum"]), str(hand["judge_sum"])], where
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
    for index, expected in enumerate(game_positions(game)):
        shown = tab.page.evaluate(READ_VIEWER)
        assert shown["index"] == index
        _check_spectator(shown, expected, game)
        if expected.phase == "hand_end" and expected.hand["number"] == 1:
            tab.screenshot("match-viewer-hand1-result")
        if expected.phase == "game_end":
            assert all("back" not in cards for cards in shown["history"])
            assert len(shown["history"]) == 7
            assert tab.page.is_visible("#l21-game-end")
            tab.screenshot("match-viewer-game-end")
        tab.page.keyboard.press("ArrowRight")
    # The step after game 1's end is game 2's deal.
    if len(replay["games"]) > 1:
        shown = tab.page.evaluate(READ_VIEWER)
        assert (shown["game"], shown["step"], shown["phase"]) == ("2", 0, "deal")


def _check_player(shown: dict, expected: Position, view: int) -> None:
    where = f"seat {view}: {expected.phase} of hand {expected.hand_number or '-'}"
    other = 1 - view
    assert shown["view"] == str(view)
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
    if hand["answered"] and hand["challenge"]:
        assert shown["sums"] == [str(hand["liar_sum"]), str(hand["judge_sum"])], where
    elif hand["answered"]:
        assert shown["sums"] == ["", ""], where  # forfeited sums are never shown to players
        unseen = shown["judge"] if view == hand["liar"] else shown["liar"]
        hidden = 0 if expected.phase == "game_end" else 3 if view == hand["liar"] else 2
        assert unseen.count("back") == hidden, where
    over = expected.phase == "game_end"
    rows = [history_row(h, view, over=over) for h in expected.done]
    assert shown["history"] == rows, where


@pytest.mark.slow
@pytest.mark.parametrize("view", [0, 1])
def test_a_players_view_hides_what_that_player_never_saw(tab: Tab, replay_match, view) -> None:
    match, replay = replay_match
    _open_viewer(tab, match)
    tab.page.keyboard.press(str(view + 1))  # 1: seat 1 (index 0), 2: seat 2 (index 1)
    assert tab.page.get_attribute("#replay-viewer", "data-view") == str(view)
    game = replay["games"][0]
    forfeits_seen = 0
    for expected in game_positions(game):
        shown = tab.page.evaluate(READ_VIEWER)
        _check_player(shown, expected, view)
        if expected.phase == "hand_end" and not expected.hand["challenge"]:
            forfeits_seen += 1
            if forfeits_seen == 1:
                tab.screenshot(f"match-viewer-seat{view}-forfeit")
        if expected.phase == "game_end":
            # At the end of a game every card of it is revealed to both players.
            assert all("back" not in cards for cards in shown["history"])
            assert shown["points"] == [str(p) for p in game["scores"]]
        tab.page.keyboard.press("ArrowRight")
    assert forfeits_seen > 0
    tab.page.keyboard.press("0")
    assert tab.page.get_attribute("#replay-viewer", "data-view") == "spectator"


@pytest.mark.slow
def test_the_viewer_controls_play_pause_jump_link_and_switch_views(tab: Tab, replay_match) -> None:
    match, replay = replay_match
    page = tab.page
    _open_viewer(tab, match)
    step = lambda: page.evaluate(READ_VIEWER)  # noqa: E731
    views = page.eval_on_selector_all("input[name=rv-view]", "(inputs) => inputs.map(i => i.value)")
    assert views == ["spectator", "0", "1"]

    page.select_option("#rv-speed", "8")
    page.click("#rv-play")
    assert page.get_attribute("#rv-play", "aria-pressed") == "true"
    page.wait_for_function(
        "() => Number(document.querySelector('#replay-viewer').dataset.index) > 1"
    )
    page.keyboard.press("Space")  # focus is on the play button: the button's own click
    paused_at = step()["index"]
    assert page.get_attribute("#rv-play", "aria-pressed") == "false"
    page.wait_for_timeout(400)
    assert step()["index"] == paused_at

    page.click("#rv-view-1")  # radio: seat 2's view
    assert step()["view"] == "1"
    page.locator("body").click(position={"x": 5, "y": 5})  # focus off the controls
    page.keyboard.press("Home")
    assert step()["index"] == 0
    page.keyboard.press("End")
    assert page.is_visible("#rv-match-end")
    winner = replay["placings"].index(0)
    assert ("alpha", "beta")[winner] in page.inner_text("#rv-match-end")
    assert "1st" in page.inner_text("#rv-match-end")

    page.select_option("#rv-jump-game", "0")
    shown = step()
    assert (shown["game"], shown["step"], shown["phase"]) == ("1", 0, "deal")
    page.locator("body").click(position={"x": 5, "y": 5})
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    shown = step()
    assert (shown["step"], shown["hand"], shown["phase"]) == (5, "3", "lie")
    page.keyboard.press("ArrowLeft")
    assert (step()["hand"], step()["phase"]) == ("2", "hand_end")
    # The address follows the step, with the perspective: a link to this very position.
    assert page.evaluate("location.hash") == "#game=1&step=4&view=2"
    if len(replay["games"]) > 1:
        page.keyboard.press("PageDown")
        assert (step()["game"], step()["step"]) == ("2", 0)
        page.keyboard.press("PageUp")
        assert (step()["game"], step()["step"]) == ("1", 0)
    page.keyboard.press("Space")
    assert page.get_attribute("#rv-play", "aria-pressed") == "true"
    page.keyboard.press("Space")
    assert page.get_attribute("#rv-play", "aria-pressed") == "false"
    assert page.is_visible("#rv-legend")  # the keys are listed, not hidden away

    href = page.get_attribute("#replay-download", "href")
    assert href == f"/api/matches/{match.pk}/replay/"

    # Opening a link to a step shows that step, from that seat.
    page.goto("about:blank")
    _open_viewer(tab, match, "#game=1&step=9&view=1")
    shown = step()
    assert (shown["game"], shown["step"], shown["view"], shown["hand"]) == ("1", 9, "0", "5")


def test_the_owner_sees_their_bots_log_beside_its_step(tab: Tab, replay_match) -> None:
    match, _ = replay_match
    entries = [
        {"game": 1, "step": 2, "phase": "act", "text": "alpha thinks: bluff", "where": {"hand": 2}},
        {"game": 1, "step": 6, "phase": "act", "text": "alpha thinks: fold"},
    ]
    MatchLog.objects.filter(match=match, seat=0).update(steps=entries, output="alpha says hi")
    MatchLog.objects.filter(match=match, seat=1).update(
        steps=[{"game": 1, "step": 1, "phase": "act", "text": "beta's secret plan"}]
    )
    log_in(tab, "alice", PASSWORD)
    _open_viewer(tab, match)
    page = tab.page
    logs = page.inner_text("#match-logs")
    assert "alpha thinks: bluff" in logs
    assert "beta's secret plan" not in page.content()
    assert "Game 1 · step 3 · hand 2" in logs  # printed deciding step index 2: shown after it
    assert page.inner_text("#rv-log-lines") == "Nothing printed at this step."
    page.click("#rv-log-next")
    assert page.evaluate(READ_VIEWER)["step"] == 3
    assert "alpha thinks: bluff" in page.inner_text("#rv-log-lines")
    page.click("#rv-log-next")
    assert page.evaluate(READ_VIEWER)["step"] == 7
    # The log's marker is a link to its step.
    page.keyboard.press("Home")
    page.click("#match-logs a[data-jump='game=1&step=3']")
    page.wait_for_function("() => document.getElementById('rv-position').dataset.step === '3'")
    tab.screenshot("match-owner-log")


@pytest.mark.parametrize(
    ("bot_file", "where"),
    [("crash_in_hand_three.py", "in game 1"), ("crash_at_import.py", "before the first game")],
)
def test_a_match_lost_by_a_fault_replays_up_to_the_fault(tab: Tab, bot_file, where) -> None:
    match = match_record(
        bot_make(name="steady"),
        bot_make(name="faulty"),
        seed=3,
        players=("heuristic", BOTS / bot_file),
    )
    _open_viewer(tab, match)
    page = tab.page
    assert "faulty" in page.inner_text("#match-error")
    assert f"Match over {where}" in page.inner_text("#match-ended")
    page.keyboard.press("End")
    end = page.inner_text("#rv-match-end")
    assert "faulty lost by a fault (crashed)" in end
    assert where in end
    if bot_file == "crash_at_import.py":
        assert "No game was played" in page.inner_text("#rv-message")
        return
    page.keyboard.press("Home")
    page.keyboard.press("f")  # jump to the fault: game 1 as the crash left it
    shown = page.evaluate(READ_VIEWER)
    assert (shown["game"], shown["step"], shown["phase"], shown["hand"]) == ("1", 5, "fault", "3")
    for view in "120":
        page.keyboard.press(view)
        assert page.evaluate(READ_VIEWER)["renderError"] is None
    page.keyboard.press("Home")
    page.click("#match-error a.jump-link")
    page.wait_for_function("() => document.getElementById('rv-position').dataset.step === '5'")
    tab.screenshot(f"match-fault-{bot_file.removesuffix('.py')}")


def test_a_game_whose_renderer_does_not_load_gets_a_message_not_a_blank_page(
    tab: Tab, replay_match, settings
) -> None:
    match, _ = replay_match
    page = tab.page
    page.route("**/arena/games/lie21/renderer.js", lambda route: route.fulfill(status=404))
    _open_viewer(tab, match)
    message = page.inner_text("#rv-message")
    assert "cannot be drawn here" in message and "Lie 21" in message
    page.keyboard.press("ArrowRight")
    assert page.get_attribute("#rv-position", "data-step") == "1"
    page.keyboard.press("End")
    assert page.is_visible("#rv-match-end")
    # The browser reports the failed fetch itself; nothing else may fail.
    tab.errors[:] = [e for e in tab.errors if "404" not in e and "renderer.js" not in e]

    # A renderer that loads but cannot draw a position: said above the board, per step.
    page.unroute("**/arena/games/lie21/renderer.js")
    broken = "export function render(el, r, position) { if (position.move) throw new Error('no'); }"
    page.route(
        "**/arena/games/lie21/renderer.js",
        lambda route: route.fulfill(status=200, content_type="text/javascript", body=broken),
    )
    page.goto("about:blank")
    _open_viewer(tab, match)
    assert page.is_hidden("#rv-message")
    page.keyboard.press("ArrowRight")
    assert "This step could not be drawn: no" in page.inner_text("#rv-message")
    assert page.get_attribute("#replay-viewer", "data-render-error") == "no"
    page.keyboard.press("Home")
    assert page.is_hidden("#rv-message")


# --- three seats: the test game in the shell -----------------------------------------------


def test_a_three_seat_match_is_shown_by_its_own_renderer(tab: Tab) -> None:
    bots = [bot_make(name=f"hc-{n}", game="highcard") for n in range(3)]
    match = match_record(*bots, seed=4)
    replay = replay_io.loads(bytes(match.replay.data))
    page = tab.page
    _open_viewer(tab, match)
    views = page.eval_on_selector_all("input[name=rv-view]", "(inputs) => inputs.map(i => i.value)")
    assert views == ["spectator", "0", "1", "2"]
    seats = "#rv-board .highcard-seats li"
    assert page.locator(seats).count() == 3
    assert page.locator("#rv-board [data-hidden='true']").count() == 0  # the spectator
    for view in (0, 1, 2):
        page.click(f"#rv-view-{view}")
        hidden = page.eval_on_selector_all(
            seats, "(items) => items.map(li => li.querySelector('.card').dataset.hidden)"
        )
        assert hidden == ["false" if seat == view else "true" for seat in range(3)], view
    page.locator("body").click(position={"x": 5, "y": 5})
    steps = len(replay["games"][0]["steps"])
    for move in range(1, steps + 1):
        page.keyboard.press("ArrowRight")
        assert page.get_attribute("#rv-position", "data-step") == str(move)
    assert page.is_visible("#rv-board .over")  # the showdown shows every card
    assert page.locator("#rv-board [data-hidden='true']").count() == 0
    cards = replay["games"][0]["record"]["cards"]
    text = page.inner_text("#rv-board")
    assert all(str(card) in text for card in cards)
    page.keyboard.press("End")
    end = page.inner_text("#rv-match-end")
    assert all(f"hc-{n}" in end for n in range(3))
    seat_rows = page.locator("#match-seats tbody tr").count()
    assert seat_rows == 3
    tab.screenshot("match-three-seats")


# --- every page: no console errors, fits a phone ---------------------------------------------


@pytest.fixture
def arena_data(db) -> dict:
    """A small arena: rated bots of two games, finished and queued matches, a tournament."""
    alice = user_make("alice")
    bots = [bot_make(alice, name="alpha", description="Bluffs <b>a lot</b>.", on_ladder=True)]
    bots += [bot_make(name=name, on_ladder=True) for name in ("beta", "gamma")]
    matches = []
    for seed, (a, b) in enumerate([(0, 1), (1, 2), (0, 2), (2, 0)], start=11):
        match = match_record(bots[a], bots[b], seed=seed, ranked=False)
        rate(match, [10.0 + seed, 5.0 + seed / 2])
        matches.append(match)
    cards = [bot_make(name=f"card-{n}", game="highcard", on_ladder=True) for n in range(3)]
    matches.append(match_record(*cards, seed=5))
    tournament = TournamentFactory(name="Spring cup", status=Tournament.Status.RUNNING)
    for bot in bots:
        TournamentEntryFactory(tournament=tournament, bot=bot, version=bot.active_version)
    # The open match first: recording the last open one would finish the tournament.
    match_record(
        bots[1],
        bots[2],
        tournament=tournament,
        kind=Match.Kind.TOURNAMENT,
        status=Match.Status.QUEUED,
    )
    for a, b, seed in ((0, 1, 31), (0, 2, 32)):
        match_record(bots[a], bots[b], seed=seed, tournament=tournament, kind=Match.Kind.TOURNAMENT)
    return {"bots": bots, "matches": matches, "tournament": tournament}


PAGES = {
    "home": lambda d: "/",
    "games": lambda d: "/games/",
    "game": lambda d: "/games/lie21/",
    "game-highcard": lambda d: "/games/highcard/",
    "rules": lambda d: "/games/lie21/rules/",
    "bot": lambda d: f"/bots/{d['bots'][0].pk}/",
    "version": lambda d: f"/bots/{d['bots'][0].pk}/versions/1/",
    "replay-file": lambda d: "/replay/",
    "match": lambda d: f"/matches/{d['matches'][0].pk}/",
    "match-three-seats": lambda d: f"/matches/{d['matches'][-1].pk}/",
    "tournaments": lambda d: "/tournaments/",
    "tournament": lambda d: f"/tournaments/{d['tournament'].pk}/",
    "bots": lambda d: "/bots/",
    "matches": lambda d: "/matches/",
    "matches-of-a-bot": lambda d: f"/matches/?bot={d['bots'][0].pk}",
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
            if name.startswith("match-") or name == "match":
                opened.page.wait_for_selector("#replay-viewer[data-ready=true]")
            opened.screenshot(f"{name}-{which}")
            if which == "phone":
                opened.assert_fits()
    # Logged in: the owner's pages.
    log_in(tab, "alice", PASSWORD)
    for name, path in (
        ("token", "/accounts/token/"),
        ("bot-upload", "/bots/{}/upload/"),
        ("challenges", "/challenges/"),
        ("challenge-new", "/challenges/new/"),
    ):
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
    tab.goto("/games/lie21/")
    assert page.get_attribute("th[aria-sort=descending] a", "data-sort") == "rating"
    assert "whole-history fit" in page.inner_text(".estimator")
    page.click("a[data-sort=interval]")
    page.wait_for_url("**sort=interval**")
    assert page.get_attribute("th[aria-sort=ascending] a", "data-sort") == "interval"
    assert page.query_selector_all("#ladder svg.sparkline")

    tab.goto(f"/tournaments/{arena_data['tournament'].pk}/")
    assert page.get_attribute("#tournament-progress", "data-done") == "2"
    assert page.get_attribute("#tournament-progress", "data-total") == "3"
    assert page.query_selector("meta[http-equiv=refresh]")
    cells = page.query_selector_all("#crosstable td[data-result]")
    results = sorted(cell.get_attribute("data-result") for cell in cells)
    assert results.count("pending") == 2 and len(results) == 6
    # A cell links to the pair's matches in the tournament; the one still to play opens.
    page.click("#crosstable td.pending a >> nth=0")
    page.wait_for_url("**/matches/?tournament=*&bot=*&opponent=*")
    assert "against" in page.inner_text("#matches-heading")
    rows = page.query_selector_all("table.matches tbody tr[data-match]")
    assert len(rows) == 1, "the pair met once"
    page.click("table.matches tbody tr[data-match] a[href^='/matches/'] >> nth=0")
    page.wait_for_selector("#match-status[data-status=queued]")
    assert page.query_selector("meta[http-equiv=refresh]")
    tab.screenshot("match-queued")


# --- Swiss and double elimination -------------------------------------------------------------


@pytest.fixture
def no_tasks(monkeypatch) -> None:
    """Queue nothing: the rounds' results are the scripted ones, not eager real matches."""
    monkeypatch.setattr("arena.services.dispatch._send", lambda *args: None)


def test_a_swiss_page_shows_rounds_byes_and_tie_breaks(tab: Tab, phone_tab: Tab, no_tasks) -> None:
    tournament = tournament_of_format(
        "swiss", ["ann", "ben", "cy", "di", "ed"], name="Swiss open", play=2
    )
    page = tab.page
    tab.goto(f"/tournaments/{tournament.pk}/")
    assert page.get_attribute("#standings", "data-format") == "swiss"
    assert page.inner_text("#standings thead").count("Buchholz") == 1
    rounds = page.query_selector_all("#rounds .bracket-round")
    assert [r.get_attribute("data-round") for r in rounds] == ["1", "2", "3"]
    assert len(page.query_selector_all("#rounds .bye")) == 3, "one a round, round 3's too"
    assert len(page.query_selector_all("#rounds .bracket-table.open")) == 2, "round 3 is on"
    assert page.inner_text("#standings tbody tr:first-child td:nth-child(2)") == "ann"
    with page.expect_download() as download:
        page.click("#standings-csv")
    assert download.value.suggested_filename == f"tournament-{tournament.pk}-standings.csv"
    page.click("#rounds .bracket-round[data-round='1'] .matches a >> nth=0")
    page.wait_for_selector("#match-status[data-status=done]")
    tab.screenshot("swiss")
    phone_tab.goto(f"/tournaments/{tournament.pk}/")
    phone_tab.assert_fits()


def test_a_bracket_page_shows_winners_losers_and_final(tab: Tab, phone_tab: Tab, no_tasks) -> None:
    tournament = tournament_of_format(
        "double_elimination", ["ann", "ben", "cy", "di", "ed", "flo"], name="Finals"
    )
    page = tab.page
    tab.goto(f"/tournaments/{tournament.pk}/")
    brackets = page.query_selector_all("#bracket .bracket")
    assert [b.get_attribute("data-bracket") for b in brackets] == ["winners", "losers", "final"]
    final = page.inner_text("#bracket .bracket[data-bracket=final] li.winner")
    assert final.startswith("ann")
    assert page.inner_text("#standings tbody tr:first-child").count("champion") == 1
    tab.screenshot("bracket")
    phone_tab.goto(f"/tournaments/{tournament.pk}/")
    phone_tab.assert_fits()
