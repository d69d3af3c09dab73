"""Organisers in a real browser: every format created through the pages and played for real,
an owner signing up and withdrawing and the sign-up tournament played to the end, schedules
made on the site, and every number on the page and in the CSVs checked against the matches
in the database.

The test settings play queued matches at once (eager tasks), in the sandbox, so "Create and
start now" plays the whole tournament, round after round, before the page loads. Each test
fails on any console error (the ``tab`` fixture); screenshots go to
test-artifacts/screenshots/.

The numbers are recomputed here from the matches' seats as stored (placings, match points,
duplicate sets), counted independently of the standings code, with the arena's one interval
method (``arena.algorithms.intervals.score_share``) and points interval
(``arena.algorithms.standings.points_interval``) for the 95% intervals.
"""

from __future__ import annotations

import csv
import io
import itertools
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import pytest
from django.template.defaultfilters import floatformat
from django.test import Client
from django.utils import timezone

from arena.algorithms import standings as table
from arena.algorithms.intervals import score_share
from arena.models import Match, MatchSeat, Tournament, TournamentSchedule, TournamentSignup
from arena.services.accounts import organiser_make
from arena.services.builtins import builtin_bots_install
from arena.services.ratings import rating_activate
from arena.services.schedules import schedule_create
from arena.services.tournaments import tournament_create, tournament_start, tournament_start_due
from engine.registry import GAMES
from tests.arena.factories import BotFactory, BotVersionFactory
from tests.arena.web.conftest import Tab, log_in
from tests.arena.web.data import PASSWORD, bot_make, organiser_urls, user_make

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FORMATS = [
    # (game, format, bots, table size or None, matches per pairing, rounds or None)
    ("lie21", "round_robin", 4, None, 3, None),
    ("lie21", "double_elimination", 5, None, 1, None),
    ("liars", "swiss", 4, "2", 1, 3),
    ("highcard", "swiss", 5, "3", 1, None),
    ("highcard", "promotion", 6, "3", 1, None),
]
#: Bots of a game that play it (no search: it takes its time): its built-in bots' files, each
#: uploaded as an owner's bot and played in the sandbox, so that results differ.
SLOW = {"search", "exact"}
DASH = "\u2013"
#: How long a request that plays a whole tournament (eagerly, in the sandbox) may take.
PLAY_TIMEOUT_MS = 240_000


def _organiser() -> None:
    organiser_make(username=user_make("oscar").username)


def _bots(game: str, count: int) -> None:
    """``count`` bots of ``game`` on its ladder, playing as its built-in bots do."""
    files = sorted(
        (name, path) for name, path in GAMES[game].builtin_bots().items() if name not in SLOW
    )
    for number, (_, path) in zip(range(count), itertools.cycle(files), strict=False):
        bot = BotFactory(name=f"{game[:4]}{number}", game=game)
        rating_activate(version=BotVersionFactory(bot=bot, source=Path(path).read_bytes()))


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


# --- what the database says --------------------------------------------------------------------


@dataclass
class Pair:
    """The row bot against the column bot over their matches, counted from the seats."""

    matches: list[int] = field(default_factory=list)
    ahead: int = 0
    level: int = 0
    behind: int = 0
    mine: int = 0
    theirs: int = 0
    units: dict[object, list[float]] = field(default_factory=dict)

    @property
    def points(self) -> float:
        return self.ahead + self.level / 2

    @property
    def played(self) -> int:
        return self.ahead + self.level + self.behind


@dataclass
class Truth:
    """What the stored matches say a tournament's page must show."""

    records: list[table.MatchRecord]
    points: dict[int, float]
    intervals: dict[int, tuple[float, float] | None]
    pairs: dict[tuple[int, int], Pair]
    two_seats: bool
    byes: dict[int, float]

    @property
    def games(self) -> bool:
        """Two seats, and the game keeps a score of its own (Lie 21's games; not Liars)."""
        return self.two_seats and any(pair.mine or pair.theirs for pair in self.pairs.values())


def _truth(tournament: Tournament) -> Truth:
    matches = {
        pk: (status, key)
        for pk, status, key in tournament.matches.values_list("pk", "status", "duplicate_key")
    }
    seats: dict[int, list[table.SeatRecord]] = defaultdict(list)
    for match, bot, placing, score, fault in (
        MatchSeat.objects.filter(match__tournament=tournament)
        .order_by("match_id", "seat")
        .values_list("match_id", "bot_id", "placing", "score", "fault")
    ):
        seats[match].append(table.SeatRecord(bot, placing, score or 0, bool(fault)))
    records = [
        table.MatchRecord(pk, status, tuple(seats[pk]), key or None)
        for pk, (status, key) in sorted(matches.items())
    ]
    byes: dict[int, float] = defaultdict(float)
    for _, bot, worth in tournament.byes or []:
        byes[bot] += worth
    points: dict[int, float] = defaultdict(float, byes)
    pairs: dict[tuple[int, int], Pair] = defaultdict(Pair)
    for record in records:
        for me in record.seats:
            for other in record.seats:
                if me.bot == other.bot:
                    continue
                pair = pairs[(me.bot, other.bot)]
                pair.matches.append(record.id)
                if not record.played:
                    continue
                won = (
                    1.0 if me.placing < other.placing else 0.5 if me.placing == other.placing else 0
                )
                pair.ahead += won == 1.0
                pair.level += won == 0.5
                pair.behind += won == 0
                pair.mine += me.score
                pair.theirs += other.score
                unit = pair.units.setdefault(record.unit_key, [0.0, 0.0])
                unit[0] += won
                unit[1] += 1
        if record.played:
            placings = [seat.placing for seat in record.seats]
            for me in record.seats:
                ahead = sum(other > me.placing for other in placings)
                level = placings.count(me.placing) - 1
                points[me.bot] += ahead + level / 2
    bots = {seat.bot for record in records for seat in record.seats}
    intervals = {}
    for bot in bots:
        found = table.points_interval(bot, records, bye_points=byes.get(bot, 0.0))
        intervals[bot] = None if found is None else (round(found[0], 2), round(found[1], 2))
    two_seats = all(len(record.seats) == 2 for record in records)
    return Truth(records, dict(points), intervals, dict(pairs), two_seats, dict(byes))


def _percent(value: float) -> str:
    return f"{round(100 * value)}%"


def _check_against_the_matches(tab: Tab, tournament: Tournament) -> Truth:
    """Every standings row (points, both ends of its interval) and every crosstable cell
    (W/D/L, points, match points, share, both ends of its interval, its link) on the page,
    and every line of both CSVs, against the matches in the database."""
    truth = _truth(tournament)
    rows = tab.page.locator("#standings tbody tr[data-bot]")
    shown: dict[int, float] = {}
    for index in range(rows.count()):
        row = rows.nth(index)
        bot = int(row.get_attribute("data-bot"))
        shown[bot] = float(row.locator("td.num strong").inner_text())
        cell = row.locator("td.points-interval")
        expected = truth.intervals.get(bot)
        if expected is None:
            assert cell.inner_text() == "\u2014"
            continue
        low, high = float(cell.get_attribute("data-low")), float(cell.get_attribute("data-high"))
        assert (low, high) == expected, (bot, low, high, expected)
        assert low <= shown[bot] <= high
        assert cell.inner_text() == f"{floatformat(low, 1)}{DASH}{floatformat(high, 1)}"
    assert set(shown) == set(tournament.entries.values_list("bot_id", flat=True)), "every entrant"
    assert shown == {bot: truth.points.get(bot, 0.0) for bot in shown}
    # "Ahead of next": the likelihood of superiority over the row below, from these matches.
    ahead = table.superiority(
        list(shown), truth.records, seed=tournament.seed, bye_points=truth.byes
    )
    cells = rows.locator("td.superiority")
    for index, expected in enumerate([*ahead, None]):
        value = cells.nth(index).get_attribute("data-value")
        assert (float(value) if value else None) == expected, (index, value, expected)
        text = cells.nth(index).inner_text()
        assert text == ("\u2014" if expected is None else f"{100 * expected:.0f}%")

    # The standings CSV: the same points and intervals.
    body = Client().get(f"/tournaments/{tournament.pk}/standings.csv").content.decode()
    lines = list(csv.DictReader(io.StringIO(body)))
    assert [int(line["bot_id"]) for line in lines] == list(shown)
    for line in lines:
        bot = int(line["bot_id"])
        assert float(line["points"]) == shown[bot]
        interval = truth.intervals.get(bot)
        if interval is None:
            assert line["points_low"] == line["points_high"] == ""
        else:
            assert (float(line["points_low"]), float(line["points_high"])) == interval
        assert line["matches_per_pairing"] == str(tournament.matches_per_pairing)
        assert line["format"] == tournament.format

    # Every crosstable cell.
    cells = tab.page.locator("#crosstable td[data-opponent]")
    met = {pair for pair, found in truth.pairs.items() if found.matches}
    seen = set()
    for index in range(cells.count()):
        cell = cells.nth(index)
        row_bot = int(cell.locator("xpath=..").get_attribute("data-row-bot"))
        col_bot = int(cell.get_attribute("data-opponent"))
        pair = truth.pairs[(row_bot, col_bot)]
        seen.add((row_bot, col_bot))
        assert int(cell.get_attribute("data-matches")) == len(pair.matches)
        link = cell.locator("a")
        assert link.get_attribute("href") == (
            f"/matches/?tournament={tournament.pk}&bot={row_bot}&opponent={col_bot}"
        )
        if not pair.played:
            continue
        numbers = [int(cell.get_attribute(f"data-{k}")) for k in ("ahead", "level", "behind")]
        assert numbers == [pair.ahead, pair.level, pair.behind], (row_bot, col_bot)
        assert float(cell.get_attribute("data-points")) == pair.points
        share = score_share((total / count, count) for total, count in pair.units.values())
        low, high = round(share.low, 4), round(share.high, 4)
        assert float(cell.get_attribute("data-low")) == low, (row_bot, col_bot)
        assert float(cell.get_attribute("data-high")) == high, (row_bot, col_bot)
        label = (
            f"{pair.ahead}{DASH}{pair.level}{DASH}{pair.behind}"
            if pair.level
            else f"{pair.ahead}{DASH}{pair.behind}"
        )
        assert cell.locator(".cell-main").inner_text() == label
        assert cell.locator(".cell-share").inner_text() == (
            f"{_percent(pair.points / pair.played)} ({_percent(low)}{DASH}{_percent(high)})"
        )
        if truth.games:
            assert cell.get_attribute("data-games") == f"{pair.mine}-{pair.theirs}"
            games = cell.locator(".cell-games").inner_text()
            assert games == f"{pair.mine}{DASH}{pair.theirs} match pts"
        else:  # more seats, or a game without a score of its own (Liars): none shown
            assert cell.locator(".cell-games").count() == 0
        title = link.get_attribute("title")
        noun = "match" if pair.played == 1 else "matches"
        assert f": {pair.played} {noun} played" in title and "95% interval" in title
    assert seen == met, "a cell for every pair that met, and no other"

    # The crosstable CSV: the same cells.
    body = Client().get(f"/tournaments/{tournament.pk}/crosstable.csv").content.decode()
    lines = list(csv.DictReader(io.StringIO(body)))
    assert {(int(line["bot_id"]), int(line["opponent_id"])) for line in lines} == met
    for line in lines:
        pair = truth.pairs[(int(line["bot_id"]), int(line["opponent_id"]))]
        assert [int(line[k]) for k in ("ahead", "level", "behind", "played", "matches")] == [
            pair.ahead,
            pair.level,
            pair.behind,
            pair.played,
            len(pair.matches),
        ]
        assert float(line["points"]) == pair.points
        share = score_share((total / count, count) for total, count in pair.units.values())
        assert (float(line["share_low"]), float(line["share_high"])) == (
            round(share.low, 4),
            round(share.high, 4),
        )
        if truth.two_seats:
            assert (int(line["match_points"]), int(line["opponent_match_points"])) == (
                pair.mine,
                pair.theirs,
            )
        assert [int(m) for m in line["match_ids"].split()] == pair.matches
    return truth


# --- every format, created on the site and played ----------------------------------------------


@pytest.mark.parametrize(("game", "format", "count", "size", "per_pairing", "rounds"), FORMATS)
def test_an_organiser_creates_each_format_on_the_site_and_it_plays(
    tab: Tab, game, format, count, size, per_pairing, rounds
):
    _organiser()
    _bots(game, count)
    log_in(tab, "oscar", PASSWORD)
    _create(tab, game, format, size, per_pairing)
    if rounds is not None:
        tab.page.fill("#id_rounds", str(rounds))
    if format == "swiss" and game == "liars":
        # Tables of four would seat the four bots together every round: the form says so
        # as soon as it is chosen, and no more once the tables are smaller again.
        tab.page.select_option("#id_table_size", "4")
        tab.page.wait_for_selector("#one-table-warning", state="visible")
        assert "All 4 bots would sit at one table of 4" in tab.page.inner_text("#one-table-warning")
        tab.screenshot("organiser-form-one-table-warning")
        tab.page.select_option("#id_table_size", size)
        tab.page.wait_for_selector("#one-table-warning", state="hidden")
    tab.screenshot(f"organiser-form-{format}-{game}")
    tab.page.click("#review")
    tab.page.wait_for_selector("#plan")
    plan = tab.page.locator("#plan-matches")
    low, high = int(plan.get_attribute("data-low")), int(plan.get_attribute("data-high"))
    planned = plan.inner_text()
    assert tab.page.locator("#plan-one-table").count() == 0
    tab.screenshot(f"organiser-plan-{format}-{game}")
    # Every match is played in the sandbox during this request: give it time.
    tab.page.click("#confirm-start", timeout=PLAY_TIMEOUT_MS)
    tab.page.wait_for_selector("#standings")
    tournament = Tournament.objects.get()
    assert tournament.status == "finished", "every round played (eager tasks)"
    assert tab.page.inner_text("#tournament-status") == "Finished"
    assert (tournament.matches_per_pairing, str(tournament.table_size)) == (
        per_pairing,
        size or "2",
    )
    played = Match.objects.filter(tournament=tournament, status="done").count()
    assert played == tournament.matches.count(), "none failed"
    if format == "double_elimination":
        # 2N-2 pairings, or 2N-1 when the grand final was played again (the bracket reset).
        finals = sum(
            t["bracket"] == "final" for r in tournament.standings["rounds"] for t in r["tables"]
        )
        assert (low, high) == ((2 * count - 2) * per_pairing, (2 * count - 1) * per_pairing)
        assert played == (high if finals == 2 else low), (played, low, high, finals)
        assert planned == f"{low}, or {high} if the grand final is played again"
        assert tab.page.locator("#bracket .bye").count() >= 1, "five bots: byes drawn"
    else:
        assert played == low == high, (planned, played)
        assert planned == str(low)
    # The progress bar is full at the end.
    assert tab.page.get_attribute("#tournament-progress", "value") == tab.page.get_attribute(
        "#tournament-progress", "max"
    )
    assert tab.page.get_attribute("#tournament-progress", "max") == str(played)
    truth = _check_against_the_matches(tab, tournament)
    if format == "swiss":
        # Rounds that differ: no two rounds seat the same tables.
        rounds_seen = [
            frozenset(frozenset(t["bots"]) for t in r["tables"])
            for r in tournament.standings["rounds"]
        ]
        assert len(set(rounds_seen)) == len(rounds_seen), rounds_seen
        assert len(truth.records) == played
    tab.screenshot(f"organiser-finished-{format}-{game}")
    tab.assert_fits()


# --- sign-up -----------------------------------------------------------------------------------


def test_an_owner_signs_up_and_withdraws_and_it_plays_at_the_deadline(tab: Tab) -> None:
    _organiser()
    builtin_bots_install()
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
    tab.page.fill("#id_matches_per_pairing", "2")
    tab.page.click("#review")
    tab.page.wait_for_selector("#plan")
    assert "who signs up" in tab.page.inner_text("#plan-entrants")
    assert tab.page.locator("#confirm-start").count() == 0, "a sign-up tournament starts itself"
    tab.page.click("#confirm-create")
    tab.page.wait_for_selector("#signups")
    tournament = Tournament.objects.get()
    # The organiser signs a built-in bot up.
    builtin = tab.page.locator("#signup-bot option", has_text="(built-in)").first
    builtin_id = int(builtin.get_attribute("value"))
    tab.page.select_option("#signup-bot", str(builtin_id))
    tab.page.click("#signup-button")
    tab.page.wait_for_selector(f"#signup-list li[data-bot='{builtin_id}']")
    tab.page.click("form.inline button[type=submit]:has-text('Log out')")

    log_in(tab, "alma", PASSWORD)
    tab.goto(f"/tournaments/{tournament.pk}/")
    assert "Open to bot owners until" in tab.page.inner_text("#signup-state")
    tab.page.select_option("#signup-bot", str(first.pk))
    tab.page.click("#signup-button")
    tab.page.wait_for_selector(f"#signup-list li[data-bot='{first.pk}']")
    tab.page.select_option("#signup-bot", str(second.pk))
    tab.page.click("#signup-button")
    tab.page.wait_for_selector(f"#signup-list li[data-bot='{second.pk}']")
    assert tab.page.locator(f"button.withdraw[data-bot='{builtin_id}']").count() == 0
    tab.screenshot("signup-two-bots")
    tab.page.click(f"button.withdraw[data-bot='{first.pk}']")
    tab.page.wait_for_selector(f"#signup-list li[data-bot='{first.pk}']", state="detached")
    assert set(TournamentSignup.objects.values_list("bot_id", flat=True)) == {
        second.pk,
        builtin_id,
    }
    assert "Withdrawn." in tab.page.inner_text(".messages")
    tab.assert_fits()

    # The deadline passes: the page says it is starting, and the control queue's sweep
    # (every few seconds) starts it; the matches play (eagerly, here).
    Tournament.objects.filter(pk=tournament.pk).update(
        signup_deadline=timezone.now() - timedelta(seconds=1)
    )
    tab.goto(f"/tournaments/{tournament.pk}/")
    assert "the tournament is starting" in tab.page.inner_text("#signup-state")
    assert tab.page.locator("#signup-form").count() == 0, "sign-up is closed"
    tab.screenshot("signup-deadline-starting")
    assert tournament_start_due() == {"started": 1, "cancelled": 0}
    tab.goto(f"/tournaments/{tournament.pk}/")
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert tab.page.inner_text("#tournament-status") == "Finished"
    assert set(tournament.entries.values_list("bot_id", flat=True)) == {second.pk, builtin_id}
    assert tournament.matches.filter(status="done").count() == 2  # one pairing, twice
    _check_against_the_matches(tab, tournament)
    tab.screenshot("signup-finished")
    tab.assert_fits()


# --- schedules ---------------------------------------------------------------------------------


def test_an_organiser_schedules_a_tournament_and_sees_its_runs(tab: Tab) -> None:
    _organiser()
    for number in range(3):
        bot_make(name=f"lie{number}", on_ladder=True)
    log_in(tab, "oscar", PASSWORD)
    tab.goto("/tournaments/")
    tab.page.click("#new-schedule")
    tab.page.wait_for_selector("#schedule-form[data-game]")
    tab.page.fill("#id_name", "Friday night")
    tab.page.fill("#id_crontab", "0 18 * * 5")
    tab.page.select_option("#id_format", "swiss")
    tab.page.fill("#id_rounds", "3")
    tab.page.click("#review")
    tab.page.wait_for_selector("#plan")
    assert "Friday" in tab.page.inner_text("#crontab-words")
    assert tab.page.locator("#preview-runs li").count() == 3
    assert "UTC" in tab.page.inner_text("#preview-runs")
    assert tab.page.inner_text("#plan-matches") == "3"  # three rounds of one pair, one bye
    tab.screenshot("schedule-review")
    tab.page.click("#confirm-save")
    tab.page.wait_for_selector("#schedule-facts")
    schedule = TournamentSchedule.objects.get()
    assert (schedule.crontab, schedule.format, schedule.rounds) == ("0 18 * * 5", "swiss", 3)
    # A run it made earlier, played to the end (as beat would have made it).
    options = schedule.options()
    run = tournament_create(name="Friday night 1", created_by=None, schedule=schedule, **options)
    Tournament.objects.filter(pk=run.pk).update(scheduled_for=timezone.now() - timedelta(days=7))
    tournament_start(tournament_id=run.pk)  # played at once (eager tasks)
    run = Tournament.objects.get(pk=run.pk)
    assert run.status == "finished"
    tab.goto(f"/tournaments/schedules/{schedule.pk}/")
    assert tab.page.locator(f"#schedule-runs tr[data-tournament='{run.pk}']").count() == 1
    winner = run.standings["rows"][0]["bot"]["name"]
    assert winner in tab.page.inner_text("#schedule-runs")
    assert tab.page.locator("#next-runs li").count() == 3
    tab.screenshot("schedule-page")
    tab.page.click("#pause-schedule")
    tab.page.wait_for_selector("#resume-schedule")
    assert tab.page.inner_text("#schedule-state") == "paused"
    assert tab.page.inner_text("#next-runs") == "none while paused"
    schedule_create(name="Nightly", game="liars", crontab="0 3 * * *", format="promotion")
    tab.goto("/tournaments/schedules/")
    assert tab.page.locator("#schedules tr.paused").count() == 1
    tab.screenshot("schedules-list")
    tab.assert_fits()


# --- who may -----------------------------------------------------------------------------------

#: Sends a form POST from the page, with its CSRF token: a 403 is then the page's own refusal,
#: never a missing token.
POST_FROM_PAGE = """async (path) => {
  const token = document.querySelector("input[name=csrfmiddlewaretoken]").value;
  const body = new URLSearchParams({csrfmiddlewaretoken: token, name: "x", game: "lie21"});
  const response = await fetch(path, {method: "POST", body, credentials: "same-origin"});
  return [response.status, await response.text()];
}"""


def test_someone_who_does_not_organise_sees_no_button_and_gets_403_everywhere(tab: Tab) -> None:
    user_make("nora")
    bot_make(name="lie0", on_ladder=True)
    bot_make(name="lie1", on_ladder=True)
    tournament = tournament_create(name="Cup", game="lie21", created_by=None)
    schedule = schedule_create(name="Nightly", game="lie21", crontab="0 3 * * *")
    log_in(tab, "nora", PASSWORD)
    tab.goto("/tournaments/")
    assert tab.page.locator("#new-tournament, #new-schedule").count() == 0
    tab.goto(f"/tournaments/{tournament.pk}/")
    assert tab.page.locator("#organiser-actions, #start-button, #cancel-button").count() == 0
    tab.goto(f"/tournaments/schedules/{schedule.pk}/")
    assert tab.page.locator("#organiser-actions, #edit-schedule").count() == 0
    for method, path in organiser_urls(tournament, schedule):
        if method == "get":
            response = tab.page.goto(tab.base_url + path)
            status, text = response.status, tab.page.inner_text("main")
        else:
            tab.goto("/tournaments/")
            status, text = tab.page.evaluate(POST_FROM_PAGE, path)
        assert status == 403, (method, path, status)
        assert "Only organisers may do this." in text, (method, path)
    # The browser logs each 403 it was shown; nothing else.
    assert all("403" in error for error in tab.errors), tab.errors
    tab.errors.clear()
    tournament.refresh_from_db()
    schedule.refresh_from_db()
    assert (tournament.status, Tournament.objects.count()) == ("pending", 1)
    assert (schedule.enabled, TournamentSchedule.objects.count()) == (True, 1)
