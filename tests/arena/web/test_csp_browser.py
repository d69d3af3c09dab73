"""The pages work under the Content-Security-Policy, in a real browser: the replay viewer, the
replay page, the admin and Swagger UI, with not one violation reported.

Chromium reports each refused script, style, font, worker or fetch both as a console error
(which the ``tab`` fixture fails on) and as a ``securitypolicyviolation`` event, recorded
here from before any of the page's own code runs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.cli import main as engine_main
from tests.arena.factories import BotFactory
from tests.arena.web.conftest import Tab
from tests.arena.web.data import PASSWORD, bot_make, match_record, user_make

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  window.__cspViolations.push(
    event.violatedDirective + ' refused ' + (event.blockedURI || 'inline') +
    ' at ' + event.sourceFile + ':' + event.lineNumber);
});
"""


@pytest.fixture
def csp_tab(tab: Tab) -> Tab:
    tab.page.context.add_init_script(RECORD_VIOLATIONS)
    return tab


def assert_no_violations(tab: Tab) -> None:
    policy_seen = tab.page.evaluate("() => window.__cspViolations")
    assert policy_seen == [], policy_seen
    assert not [e for e in tab.errors if "Content Security Policy" in e], tab.errors


def test_the_replay_viewer_plays_a_match_under_the_policy(csp_tab: Tab) -> None:
    match = match_record(
        bot_make(user_make("alice"), name="alpha"), bot_make(user_make("bob"), name="beta")
    )
    response = csp_tab.goto(f"/matches/{match.pk}/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    csp_tab.page.wait_for_selector("#replay-viewer[data-ready=true]")
    for _ in range(5):
        csp_tab.page.keyboard.press("ArrowRight")
    assert csp_tab.page.get_attribute("#replay-viewer", "data-render-error") is None
    assert csp_tab.page.locator("#rv-board *").count() > 10, "the renderer drew the table"
    csp_tab.screenshot("csp-match-viewer")
    assert_no_violations(csp_tab)


def test_the_replay_page_opens_a_local_file_under_the_policy(csp_tab: Tab, tmp_path: Path) -> None:
    folder = tmp_path / "replays"
    argv = ["play", "random", "random", "--in-process", "--quiet", "--seed", "3"]
    assert engine_main([*argv, "--replay-dir", str(folder), "--json"]) == 0
    csp_tab.goto("/replay/")
    csp_tab.page.set_input_files("#replay-file", str(next(folder.glob("*.json.gz"))))
    csp_tab.page.wait_for_selector("#replay-viewer[data-ready=true]")
    csp_tab.page.keyboard.press("ArrowRight")
    assert csp_tab.page.locator("#rv-board *").count() > 10
    csp_tab.screenshot("csp-replay-page")
    assert_no_violations(csp_tab)


def test_the_admin_works_under_the_policy(csp_tab: Tab) -> None:
    staff = user_make("staffer")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    BotFactory.create_batch(3)
    page = csp_tab.page
    # The admin used to be exempt from the policy: every page of it now carries one.
    response = csp_tab.goto("/admin/login/?next=/admin/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.fill("#id_username", "staffer")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_selector("#site-name")
    response = csp_tab.goto("/admin/arena/bot/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    # actions.js: "select all" ticks every row and counts them: the admin's scripts ran.
    page.click("#action-toggle")
    page.wait_for_function("() => document.querySelector('.action-counter').textContent")
    assert "3 of 3 selected" in page.inner_text(".action-counter")
    page.click("#result_list tbody tr a")
    page.wait_for_selector("#bot_form")
    csp_tab.screenshot("csp-admin-change-form")
    assert_no_violations(csp_tab)


def test_swagger_ui_renders_and_tries_an_operation_under_the_policy(csp_tab: Tab) -> None:
    page = csp_tab.page
    response = csp_tab.goto("/api/docs/")
    assert "'nonce-" in response.headers["content-security-policy"]
    page.wait_for_selector(".swagger-ui .opblock", timeout=30_000)
    operation = page.locator(".opblock-summary-path", has_text="/api/games/").first
    operation.click()
    page.click(".opblock.is-open .try-out__btn")
    page.click(".opblock.is-open .execute")
    page.wait_for_selector(".opblock.is-open .live-responses-table .response-col_status")
    assert "200" in page.inner_text(".opblock.is-open .live-responses-table")
    csp_tab.screenshot("csp-swagger-ui")
    assert_no_violations(csp_tab)
