"""Organisers in a real browser: every format created through the pages and played for real,
an owner signing up and withdrawing, and the numbers on the page checked against the matches.

The test settings play queued matches at once (eager tasks), in the sandbox, so "Create and
start now" plays the whole tournament, round after round, before the page loads. Each test
fails on any console error (the ``tab`` fixture); screenshots go to
test-artifacts/screenshots/.
"""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from arena.models import Match, MatchSeat, Tournament, TournamentSignup
from arena.services.accounts import organiser_make
from tests.web.conftest import Tab, log_in
from tests.web.data import PASSWORD, bot_make, user_make

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FORMATS = [
    # (game, format, bots, table size or None, matches per pairing)
    ("lie21", "round_robin", 4, None, 2),
    ("lie21", "double_elimination", 5, None, 1),
    ("highcard", "swiss", 5, "3", 1),
    ("highcard", "promotion", 6, "3", 1),
]


def _organiser() -> None:
    organiser_make(username=user_make("oscar").username)


def _create(tab: Tab, game: str, format: str, size: str | None, per_pairing: int) -> None:
    tab.goto("/tournaments/")
    tab.page.click("#new-tournament")
    tab.page.click(f"#tournament-games a[data-game={game}]")
    tab.page.wait_for_selector(f"#tournament-form[data-game={game}]")
    tab.page.fill("#id_name", f"{format} of {game}")
    tab.page.select_option("#id_format", format)
    if size is not None:
        tab.page.select_option("#id_table_size", size)
    tab.page.fill("#id_matches_per_pairing", str(per_pairing))
    assert tab.page.is_visible("#id_rounds") == (format == "swiss"), "rounds: Swiss only"
    tab.page.click("#review")
    tab.page.wait_for_selector("#plan")


@pytest.mark.parametrize(("game", "format", "count", "size", "per_pairing"), FORMATS)
def test_an_organiser_creates_each_format_on_the_site_and_it_plays(
    tab: Tab, game, format, count, size, per_pairing
):
    _organiser()
    for number in range(count):
        bot_make(name=f"{game[:4]}{number}", game=game, on_ladder=True)
    log_in(tab, "oscar", PASSWORD)
    _create(tab, game, format, size, per_pairing)
    planned = tab.page.inner_text("#plan-matches")
    tab.screenshot(f"organiser-review-{format}")
    tab.page.click("#confirm-start")
    tab.page.wait_for_selector("#standings")
    tournament = Tournament.objects.get()
    assert tournament.status == "finished", "every round played (eager tasks)"
    assert tab.page.inner_text("#tournament-status") == "Finished"
    played = Match.objects.filter(tournament=tournament, status="done").count()
    assert str(played) in planned or "to" in planned, (planned, played)
    # The progress bar is full at the end.
    assert tab.page.get_attribute("#tournament-progress", "value") == tab.page.get_attribute(
        "#tournament-progress", "max"
    )
    _check_against_the_matches(tab, tournament)
    tab.screenshot(f"organiser-finished-{format}")
    tab.assert_fits()


def _check_against_the_matches(tab: Tab, tournament: Tournament) -> None:
    """Each bot's points on the page and in the CSV are its placings' points; each crosstable
    cell counts every match the pair shared."""
    seats = list(
        MatchSeat.objects.filter(match__tournament=tournament, match__status="done").values_list(
            "match_id", "bot_id", "placing"
        )
    )
    by_match: dict[int, list[tuple[int, int]]] = {}
    for match, bot, placing in seats:
        by_match.setdefault(match, []).append((bot, placing))
    points: dict[int, float] = {}
    for table in by_match.values():
        for bot, placing in table:
            ahead = sum(other > placing for _, other in table)
            level = sum(other == placing for _, other in table) - 1
            points[bot] = points.get(bot, 0) + ahead + level / 2
    byes = {bot: worth for _, bot, worth in tournament.byes}
    rows = tab.page.locator("#standings tbody tr[data-bot]")
    shown = {}
    for index in range(rows.count()):
        row = rows.nth(index)
        bot = int(row.get_attribute("data-bot"))
        shown[bot] = float(row.locator("td.num strong").inner_text())
        low = row.locator("td.points-interval").get_attribute("data-low")
        if points.get(bot):
            assert float(low) <= shown[bot]
    assert shown == {bot: points.get(bot, 0) + byes.get(bot, 0) for bot in shown}
    body = Client().get(f"/tournaments/{tournament.pk}/standings.csv").content.decode()
    csv_points = {int(r["bot_id"]): float(r["points"]) for r in csv.DictReader(io.StringIO(body))}
    assert csv_points == shown
    cells = tab.page.locator("#crosstable td[data-opponent]")
    for index in range(min(cells.count(), 12)):
        cell = cells.nth(index)
        row_bot = int(cell.locator("xpath=..").get_attribute("data-row-bot"))
        col_bot = int(cell.get_attribute("data-opponent"))
        shared = [m for m, table in by_match.items() if {row_bot, col_bot} <= {b for b, _ in table}]
        title = cell.locator("a").get_attribute("title")
        assert f": {len(shared)} match" in title, title
        assert "95% interval" in title


def test_an_owner_signs_up_and_withdraws_on_the_page(tab: Tab) -> None:
    _organiser()
    owner = user_make("alma")
    first = bot_make(owner, name="almabot", on_ladder=True)
    second = bot_make(owner, name="almabot2", on_ladder=True)
    log_in(tab, "oscar", PASSWORD)
    tab.goto("/tournaments/new/?game=lie21")
    tab.page.fill("#id_name", "Open cup")
    tab.page.select_option("#id_entry", "signup")
    assert tab.page.is_visible("#id_signup_deadline")
    deadline = timezone.now() + timedelta(hours=2)
    tab.page.fill("#id_signup_deadline", deadline.strftime("%Y-%m-%dT%H:%M"))
    tab.page.click("#review")
    tab.page.wait_for_selector("#plan")
    assert "who signs up" in tab.page.inner_text("#plan-entrants")
    assert tab.page.locator("#confirm-start").count() == 0, "a sign-up tournament starts itself"
    tab.page.click("#confirm-create")
    tab.page.wait_for_selector("#signups")
    tournament = Tournament.objects.get()
    tab.page.click("form.inline button[type=submit]:has-text('Log out')")
    log_in(tab, "alma", PASSWORD)
    tab.goto(f"/tournaments/{tournament.pk}/")
    tab.page.select_option("#signup-bot", str(first.pk))
    tab.page.click("#signup-button")
    tab.page.wait_for_selector(f"#signup-list li[data-bot='{first.pk}']")
    tab.page.select_option("#signup-bot", str(second.pk))
    tab.page.click("#signup-button")
    tab.page.wait_for_selector(f"#signup-list li[data-bot='{second.pk}']")
    tab.screenshot("signup-two-bots")
    tab.page.click(f"button.withdraw[data-bot='{first.pk}']")
    tab.page.wait_for_selector(f"#signup-list li[data-bot='{first.pk}']", state="detached")
    assert list(TournamentSignup.objects.values_list("bot_id", flat=True)) == [second.pk]
    assert "Withdrawn." in tab.page.inner_text(".messages")
    tab.assert_fits()


def test_someone_who_does_not_organise_sees_no_button_and_gets_403(tab: Tab) -> None:
    user_make("nora")
    log_in(tab, "nora", PASSWORD)
    tab.goto("/tournaments/")
    assert tab.page.locator("#new-tournament, #new-schedule").count() == 0
    response = tab.page.goto(tab.base_url + "/tournaments/new/")
    assert response.status == 403
    tab.errors.clear()  # the browser logs the 403 it was shown
