"""The organisers' pages through Django's test client: who may use them, what each form
refuses (beside the field, nothing created), and what they create.

The fixed cast: an organiser who is not staff (oscar, in the "organisers" group), staff
(olga), an owner (alice) and a stranger (bob); anonymous visitors too.
"""

from __future__ import annotations

import csv
import io
import random
import re
from datetime import timedelta
from html import escape
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django_celery_beat.models import PeriodicTask

from arena.algorithms.tournament_options import OPTIONS
from arena.models import Match, MatchSeat, Tournament, TournamentSchedule, TournamentSignup
from arena.selectors.standings import (
    CROSSTABLE_COLUMNS,
    CROSSTABLE_HOW_TO_READ,
    CSV_COLUMNS,
    OPTION_COLUMNS,
)
from arena.services.accounts import organiser_make
from arena.services.builtins import builtin_bots_install
from arena.services.schedules import schedule_create
from arena.services.tournaments import HOW_TO_READ, tournament_create, tournament_start
from engine.registry import GAMES
from tests.arena.services.tournaments.results import bots, play_open, run_to_end
from tests.arena.web.data import organiser_urls, user_make

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[4]


def client_of(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def organiser():
    return organiser_make(username=user_make("oscar").username)


@pytest.fixture
def oscar(organiser) -> Client:
    return client_of(organiser)


def a_tournament(**options) -> Tournament:
    return tournament_create(name="Cup", game="lie21", created_by=None, **options)


def a_signup_tournament(**options) -> Tournament:
    deadline = timezone.now() + timedelta(hours=1)
    return a_tournament(entry="signup", signup_deadline=deadline, **options)


# --- who may ------------------------------------------------------------------------------------


def test_anyone_else_gets_403_on_every_organisers_page_and_nothing_changes(owner, other_user):
    tournament = a_tournament()
    schedule = schedule_create(name="Nightly", game="lie21", crontab="0 3 * * *")
    bots(2)
    for user in (owner, other_user):
        client = client_of(user)
        for method, path in organiser_urls(tournament, schedule):
            response = getattr(client, method)(path, {"name": "x", "game": "lie21"})
            assert response.status_code == 403, (user.username, method, path)
    tournament.refresh_from_db()
    assert (tournament.status, Tournament.objects.count()) == ("pending", 1)
    assert TournamentSchedule.objects.get().enabled


def test_a_visitor_who_is_not_logged_in_is_sent_to_log_in():
    response = Client().get("/tournaments/new/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_only_organisers_see_the_organisers_buttons(owner, oscar, staff):
    tournament = a_tournament()
    schedule = schedule_create(name="Nightly", game="lie21", crontab="0 3 * * *")
    pages = [
        "/tournaments/",
        f"/tournaments/{tournament.pk}/",
        f"/tournaments/schedules/{schedule.pk}/",
    ]
    buttons = ('id="new-tournament"', 'id="start-button"', 'id="edit-schedule"')
    for client in (Client(), client_of(owner)):
        html = "".join(client.get(path).content.decode() for path in pages)
        assert not any(button in html for button in buttons)
    for client in (oscar, client_of(staff)):
        html = "".join(client.get(path).content.decode() for path in pages)
        assert all(button in html for button in buttons)


# --- creating a tournament -------------------------------------------------------------------


def review(client: Client, game: str = "lie21", **fields):
    data = {"game": game, "name": "Spring cup", "format": "round_robin", "matches_per_pairing": 1}
    data.update({"rated": "on", "entry": "all", "review": "1", **fields})
    return client.post(f"/tournaments/new/?game={game}", data)


def field_error(html: str, field: str) -> str:
    found = re.search(rf'<p class="error" role="alert" id="id_{field}_error">([^<]*)</p>', html)
    return found.group(1) if found else ""


@pytest.mark.parametrize(
    ("game", "fields", "field", "message"),
    [
        ("lie21", {"name": ""}, "name", "This field is required"),
        ("lie21", {"format": "knockout"}, "format", "Select a valid choice"),
        (
            "lie21",
            {"matches_per_pairing": "0"},
            "matches_per_pairing",
            "greater than or equal to 1",
        ),
        ("lie21", {"matches_per_pairing": "21"}, "matches_per_pairing", "less than or equal to 20"),
        ("lie21", {"rounds": "3"}, "rounds", "rounds are set for Swiss tournaments only"),
        ("liars", {"format": "double_elimination", "table_size": "4"}, "table_size", "two seats"),
        ("liars", {"table_size": "7"}, "table_size", "Select a valid choice"),
        ("lie21", {"entry": "top"}, "entry_limit", "needs an entry limit"),
        ("lie21", {"entry_limit": "5"}, "entry_limit", "for top-of-the-ladder entry only"),
        ("lie21", {"entry": "signup"}, "signup_deadline", "needs a deadline"),
        (
            "lie21",
            {"entry": "signup", "signup_deadline": "2020-01-01T10:00"},
            "signup_deadline",
            "must be in the future",
        ),
        ("lie21", {"signup_deadline": "tomorrow"}, "signup_deadline", "Enter a valid date/time"),
        ("lie21", {"move_timeout_s": "0.01"}, "move_timeout_s", "greater than or equal to 0.05"),
        ("lie21", {"time_bank_s": "500"}, "time_bank_s", "less than or equal to 120"),
        ("lie21", {"seed": "-1"}, "seed", "greater than or equal to 0"),
    ],
)
def test_each_bad_field_is_refused_beside_it_and_nothing_is_created(
    oscar, game, fields, field, message
):
    for step in ({"review": "1"}, {"confirm": "1"}, {"start": "1"}):
        response = review(oscar, game, **{**fields, **step})
        assert response.status_code == 400, (field, step)
        assert message in field_error(response.content.decode(), field), (field, step)
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("step", ["review", "confirm", "start"])
def test_every_bad_field_is_shown_at_once(oscar, step):
    """Two cross-field refusals (the services' options check) and a field's own refusal
    (its shape) together: each message beside its field in one answer."""
    fields = {
        "rounds": "3",  # a round robin takes no rounds
        "entry_limit": "5",  # nor a limit, without top-of-the-ladder entry
        "move_timeout_s": "0.01",  # below the form field's own minimum
        "signup_deadline": "2020-01-01T10:00",  # a deadline without sign-up
    }
    html = review(oscar, **fields, **{"review": "", step: "1"}).content.decode()
    assert "rounds are set for Swiss tournaments only" in field_error(html, "rounds")
    assert "for top-of-the-ladder entry only" in field_error(html, "entry_limit")
    assert "greater than or equal to 0.05" in field_error(html, "move_timeout_s")
    assert "a deadline is for sign-up entry only" in field_error(html, "signup_deadline")
    assert not Tournament.objects.exists()


def test_an_option_that_reads_a_refused_one_is_not_judged_against_it(oscar):
    """A bad format: rounds are not refused "for Swiss only" against a format nobody chose."""
    html = review(oscar, format="knockout", rounds="3").content.decode()
    assert "Select a valid choice" in field_error(html, "format")
    assert field_error(html, "rounds") == ""


def test_every_bad_schedule_field_is_shown_at_once(oscar):
    fields = {"crontab": "61 3 * * *", "rounds": "2", "entry": "top", "review": "1"}
    html = schedule_form(oscar, **fields).content.decode()
    assert "is not valid" in field_error(html, "crontab")
    assert "rounds are set for Swiss tournaments only" in field_error(html, "rounds")
    assert "needs an entry limit" in field_error(html, "entry_limit")
    assert not TournamentSchedule.objects.exists()


def test_a_swiss_whose_bots_all_fit_one_table_is_warned_about_in_the_form_and_plan(oscar):
    """Four Liars bots at tables of four: every round would seat the same four."""
    bots(4, game="liars")
    fields = {"format": "swiss", "table_size": "4", "rounds": "3"}
    html = review(oscar, "liars", **fields).content.decode()
    warning = (
        "All 4 bots sit at one table of 4 every round, so the 3 rounds of this Swiss are the "
        "same table played 3 times. Choose tables of fewer than 4 seats for rounds that differ."
    )
    assert re.search(rf'id="one-table-warning">{re.escape(warning)}<', html), "beside the field"
    assert re.search(rf'id="plan-one-table">{re.escape(warning)}<', html), "in the plan"
    assert 'id="confirm-start"' in html, "a warning, not a refusal"
    for size in ("2", "3"):  # rounds that differ: no warning
        html = review(oscar, "liars", **{**fields, "table_size": size}).content.decode()
        assert 'id="plan-one-table"' not in html
        assert re.search(r'id="one-table-warning" hidden></p>', html)
    # Two bots of a two-seat game: the one pair, every round (no table size to choose).
    bots(2)
    html = review(oscar, format="swiss").content.decode()
    assert re.search(r'id="plan-one-table">The 2 bots meet at the one table there is', html)
    assert 'id="one-table-warning">The 2 bots' in html, "beside the rounds"


def test_the_review_says_what_it_will_play_before_anything_is_created(oscar):
    bots(5)
    response = review(oscar, matches_per_pairing="3")
    html = response.content.decode()
    assert response.status_code == 200
    assert not Tournament.objects.exists()
    assert re.search(r'id="plan-entrants">5 bots now<', html)
    assert re.search(r'id="plan-matches"[^>]*>30<', html)
    assert re.search(r'id="plan-pairings">· 10 pairings, 3 matches each<', html)
    assert "not known yet" in html  # no Lie 21 match has been timed
    assert 'id="confirm-create"' in html and 'id="confirm-start"' in html
    assert "One match is best of seven games" in html


def test_the_time_estimate_reads_the_workers_recent_pace(oscar, owner):
    bots(4)
    done = a_tournament()
    tournament_start(tournament_id=done.pk)
    run_to_end(done)  # six matches of a second each
    html = review(oscar).content.decode()
    assert "1.0 s a match" in html and "last 6 at 2 seats" in html


def test_an_organiser_creates_and_starts_a_swiss_of_a_larger_table(oscar, organiser):
    bots(6, game="liars")
    fields = {"format": "swiss", "table_size": "3", "rounds": "2", "matches_per_pairing": "2"}
    response = review(oscar, "liars", **fields, review="", start="1")
    tournament = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{tournament.pk}/"
    assert (tournament.game, tournament.format, tournament.table_size) == ("liars", "swiss", 3)
    assert (tournament.rounds, tournament.matches_per_pairing) == (2, 2)
    assert (tournament.status, tournament.created_by) == ("running", organiser)
    assert tournament.matches.count() == 2 * 2  # two tables of three, two matches each
    assert {m.seat_count for m in tournament.matches.all()} == {3}
    page = oscar.get(response["Location"]).content.decode()
    assert "is created and started" in page


def test_created_without_starting_it_waits_for_the_start_button(oscar):
    bots(3)
    response = review(oscar, review="", confirm="1")
    tournament = Tournament.objects.get()
    assert tournament.status == "pending" and tournament.seed is not None
    oscar.post(f"/tournaments/{tournament.pk}/start/")
    tournament.refresh_from_db()
    assert tournament.status == "running" and tournament.entries.count() == 3
    assert response.status_code == 302


def test_start_and_cancel_refusals_are_messages_not_errors(oscar):
    tournament = a_tournament()  # no bots: too few to start
    page = oscar.post(f"/tournaments/{tournament.pk}/start/", follow=True).content.decode()
    assert "Not started: a tournament needs at least 2 bots" in page
    oscar.post(f"/tournaments/{tournament.pk}/cancel/")
    tournament.refresh_from_db()
    assert tournament.status == "cancelled"
    again = oscar.post(f"/tournaments/{tournament.pk}/cancel/", follow=True).content.decode()
    assert "Not cancelled" in again


# --- sign-up ---------------------------------------------------------------------------------


def test_an_owner_signs_up_one_of_their_bots_and_withdraws_it(owner):
    mine = bots(2, owner=owner)
    tournament = a_signup_tournament()
    alice = client_of(owner)
    page = alice.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'id="signup-form"' in page and f'<option value="{mine[0].pk}">' in page
    alice.post(f"/tournaments/{tournament.pk}/signup/", {"bot": mine[0].pk})
    assert list(TournamentSignup.objects.values_list("bot_id", flat=True)) == [mine[0].pk]
    page = alice.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f'<option value="{mine[0].pk}">' not in page, "signed up: no longer offered"
    assert f'class="link-button withdraw" data-bot="{mine[0].pk}"' in page
    alice.post(f"/tournaments/{tournament.pk}/withdraw/", {"bot": mine[0].pk})
    assert not TournamentSignup.objects.exists()


@pytest.mark.slow
def test_nobody_signs_up_a_strangers_or_a_built_in_bot_but_organisers_the_built_ins(
    owner, other_user, oscar
):
    theirs = bots(1, owner=other_user)[0]
    builtin = next(bot for bot in builtin_bots_install() if bot.game == "lie21")
    tournament = a_signup_tournament()
    alice = client_of(owner)
    for bot in (theirs, builtin):
        page = alice.post(
            f"/tournaments/{tournament.pk}/signup/", {"bot": bot.pk}, follow=True
        ).content.decode()
        assert "Not signed up" in page
    assert not TournamentSignup.objects.exists()
    assert (
        f'<option value="{builtin.pk}">'
        in oscar.get(f"/tournaments/{tournament.pk}/").content.decode()
    )
    oscar.post(f"/tournaments/{tournament.pk}/signup/", {"bot": builtin.pk})
    assert list(TournamentSignup.objects.values_list("bot_id", flat=True)) == [builtin.pk]
    page = oscar.post(
        f"/tournaments/{tournament.pk}/signup/", {"bot": theirs.pk}, follow=True
    ).content.decode()
    assert "Not signed up" in page, "an organiser enters built-in bots only, not owners' bots"


def test_past_the_deadline_the_page_says_it_is_starting_and_refreshes_quickly(owner):
    tournament = a_signup_tournament()
    Tournament.objects.filter(pk=tournament.pk).update(
        signup_deadline=timezone.now() - timedelta(seconds=2)
    )
    page = client_of(owner).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "the tournament is starting" in page
    assert '<meta http-equiv="refresh" content="3">' in page
    assert 'id="signup-form"' not in page


# --- the standings, the CSV and a pair's matches -------------------------------------------


def test_the_page_the_csv_and_the_api_give_the_same_numbers(db):
    bots(4)
    tournament = a_tournament(matches_per_pairing=3, seed=3)
    tournament_start(tournament_id=tournament.pk)
    run_to_end(tournament, seed=3)
    api = Client().get(f"/api/tournaments/{tournament.pk}/standings/").json()
    rows = list(
        csv.DictReader(
            io.StringIO(
                Client().get(f"/tournaments/{tournament.pk}/standings.csv").content.decode()
            )
        )
    )
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    for row, line in zip(api["rows"], rows, strict=True):
        assert float(line["points"]) == row["points"]
        assert [float(line["points_low"]), float(line["points_high"])] == row["points_interval"]
        ahead = row["superiority_over_next"]
        assert (line["ahead_of_next"] or None) == (None if ahead is None else str(ahead))
        low, high = row["points_interval"]
        assert f'data-low="{low}" data-high="{high}"' in page
    assert api["matches_total"] == 18 and api["matches_done"] == 18


def _csv(path: str) -> list[dict[str, str]]:
    response = Client().get(path)
    assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.DictReader(io.StringIO(response.content.decode())))


@pytest.mark.parametrize(
    ("game", "count", "options"),
    [
        ("lie21", 4, {"matches_per_pairing": 3, "seed": 3}),
        ("highcard", 4, {"format": "swiss", "table_size": 3, "rounds": 3, "seed": 4}),
    ],
)
def test_the_csvs_carry_what_the_page_shows_with_the_options_and_notes(db, game, count, options):
    bots(count, game=game)
    tournament = (
        a_tournament(**options)
        if game == "lie21"
        else tournament_create(name="Cup", game=game, created_by=None, **options)
    )
    tournament_start(tournament_id=tournament.pk)
    tournament = run_to_end(tournament, seed=options["seed"])
    api = Client().get(f"/api/tournaments/{tournament.pk}/standings/").json()
    standings = _csv(f"/tournaments/{tournament.pk}/standings.csv")
    # The tournament's options, the same on every row.
    for line in standings:
        assert line["tournament_id"] == str(tournament.pk) and line["game"] == game
        assert line["format"] == tournament.format
        assert line["table_size"] == str(tournament.table_size)
        assert line["matches_per_pairing"] == str(tournament.matches_per_pairing)
        assert line["rounds"] == (str(tournament.rounds) if tournament.rounds else "")
        assert (line["duplicate"], line["rated"], line["entry"]) == ("false", "true", "all")
    # The crosstable: a row per ordered pair that met, each the API's cell.
    cross = _csv(f"/tournaments/{tournament.pk}/crosstable.csv")
    cells = api["crosstable"]["cells"]
    assert {f"{line['bot_id']}-{line['opponent_id']}" for line in cross} == set(cells)
    for line in cross:
        cell = cells[f"{line['bot_id']}-{line['opponent_id']}"]
        played = cell["ahead"] + cell["level"] + cell["behind"]
        assert [int(line[k]) for k in ("ahead", "level", "behind", "played")] == [
            cell["ahead"],
            cell["level"],
            cell["behind"],
            played,
        ]
        assert float(line["points"]) == cell["score"] and float(line["share"]) == cell["share"]
        assert [float(line["share_low"]), float(line["share_high"])] == cell["interval"]
        assert [int(m) for m in line["match_ids"].split()] == cell["matches"]
        if "match_points" in cell:
            mine, theirs = cell["match_points"]
            assert (line["match_points"], line["opponent_match_points"]) == (
                str(mine),
                str(theirs),
            )
        else:
            assert line["match_points"] == line["opponent_match_points"] == ""
    ranks = {line["bot_id"]: int(line["rank"]) for line in standings}
    in_order = [ranks[line["bot_id"]] for line in cross]
    assert in_order == sorted(in_order), "rows in rank order"
    # The API's files are the page's.
    for name in ("standings.csv", "crosstable.csv", "notes.txt"):
        page = Client().get(f"/tournaments/{tournament.pk}/{name}").content
        assert Client().get(f"/api/tournaments/{tournament.pk}/{name}").content == page, name
    notes = Client().get(f"/tournaments/{tournament.pk}/notes.txt")
    assert notes["Content-Type"] == "text/plain; charset=utf-8"
    text = notes.content.decode()
    assert HOW_TO_READ in text and CROSSTABLE_HOW_TO_READ in text
    assert all(f"  {column}: " in text for column in (*CSV_COLUMNS, *CROSSTABLE_COLUMNS))
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    for link in ("standings.csv", "crosstable.csv", "notes.txt"):
        assert f'href="/tournaments/{tournament.pk}/{link}"' in page


def test_the_csv_columns_and_the_options_agree_with_the_docs():
    """docs/api.md lists every column of both CSVs; the options columns are ``OPTIONS``."""
    assert list(OPTION_COLUMNS)[2:] == list(OPTIONS)
    docs = (REPO / "docs" / "api.md").read_text()
    for column in (*CSV_COLUMNS, *CROSSTABLE_COLUMNS):
        assert f"`{column}`" in docs, column


def _results_section(html: str) -> str:
    return html[html.index('<section aria-labelledby="standings-heading">') :].split("</main>")[0]


def test_a_finished_tournaments_results_are_drawn_once_and_a_running_ones_each_time(db):
    """Finished results never change: drawn once and kept, the stored standings not even
    read again. A running tournament's are drawn for every request, so a match that ends
    shows at once."""
    bots(4)
    tournament = a_tournament(matches_per_pairing=2, seed=9)
    tournament_start(tournament_id=tournament.pk)
    page = f"/tournaments/{tournament.pk}/"
    play_open(tournament, random.Random(1))
    Match.objects.filter(pk=tournament.matches.order_by("-id")[0].pk).update(status="queued")
    running = Client().get(page).content.decode()
    assert 'data-done="11" data-total="12"' in running
    Match.objects.filter(tournament=tournament, status="queued").update(status="done")
    MatchSeat.objects.filter(match__tournament=tournament, placing__isnull=True).update(placing=0)
    assert 'data-done="12" data-total="12"' in Client().get(page).content.decode()

    finished = run_to_end(Tournament.objects.get(pk=tournament.pk))
    first = _results_section(Client().get(page).content.decode())
    with CaptureQueriesContext(connection) as queries:
        again = _results_section(Client().get(page).content.decode())
    assert again == first and 'id="crosstable"' in first
    assert not any('"standings"' in query["sql"] for query in queries), "kept, not re-read"
    # A recount (another standings version) or a new finish draws them again.
    Tournament.objects.filter(pk=finished.pk).update(finished_at=timezone.now())
    with CaptureQueriesContext(connection) as queries:
        Client().get(page)
    assert any('"standings"' in query["sql"] for query in queries)


def test_a_cell_links_to_the_pairs_matches_in_the_tournament(db):
    first, second, _third = bots(3)
    tournament = a_tournament(matches_per_pairing=2)
    tournament_start(tournament_id=tournament.pk)
    run_to_end(tournament)
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    link = f"/matches/?tournament={tournament.pk}&amp;bot={first.pk}&amp;opponent={second.pk}"
    assert link in page
    listed = Client().get(link.replace("&amp;", "&")).content.decode()
    pair = set(
        tournament.matches.filter(seats__bot=first)
        .filter(seats__bot=second)
        .values_list("pk", flat=True)
    )
    assert len(pair) == 2
    assert {int(pk) for pk in re.findall(r'data-match="(\d+)"', listed)} == pair
    assert f'against <a href="/bots/{second.pk}/">' in listed


# --- schedules ---------------------------------------------------------------------------------


def schedule_form(client: Client, path: str = "/tournaments/schedules/new/", **fields):
    data = {"game": "lie21", "name": "Nightly", "crontab": "0 3 * * *", "enabled": "on"}
    data.update({"format": "round_robin", "matches_per_pairing": 1, "rated": "on", "entry": "all"})
    data.update(fields)
    return client.post(path, data)


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"crontab": "every night"}, "crontab", "must have 5 fields"),
        ({"crontab": "61 3 * * *"}, "crontab", "is not valid"),
        ({"name": ""}, "name", "This field is required"),
        ({"entry": "signup"}, "entry", "Select a valid choice"),
        ({"entry": "top"}, "entry_limit", "needs an entry limit"),
        ({"game": "liars", "table_size": "7"}, "table_size", "Select a valid choice"),
        (
            {"game": "liars", "format": "double_elimination", "table_size": "3"},
            "table_size",
            "played at two seats",
        ),
        ({"rounds": "2"}, "rounds", "rounds are set for Swiss tournaments only"),
    ],
)
def test_each_bad_schedule_field_is_refused_beside_it_and_nothing_is_stored(
    oscar, fields, field, message
):
    for step in ({"review": "1"}, {"confirm": "1"}):
        game = fields.get("game", "lie21")
        response = schedule_form(
            oscar, f"/tournaments/schedules/new/?game={game}", **fields, **step
        )
        assert response.status_code == 400
        assert message in field_error(response.content.decode(), field), (field, step)
    assert not TournamentSchedule.objects.exists()
    assert not PeriodicTask.objects.filter(name__startswith="arena: tournament schedule").exists()


def test_an_organiser_schedules_reviews_in_words_and_saves(oscar):
    preview = schedule_form(oscar, crontab="30 18 * * 5", review="1").content.decode()
    assert "At 18:30, only on Friday" in preview
    assert len(re.findall(r"<li><time datetime=", preview.split('id="preview-runs"', 1)[1])) >= 3
    assert not TournamentSchedule.objects.exists()
    response = schedule_form(oscar, crontab="30 18 * * 5", confirm="1")
    schedule = TournamentSchedule.objects.get()
    assert response["Location"] == f"/tournaments/schedules/{schedule.pk}/"
    assert schedule.periodic_task.crontab.day_of_week == "5"
    page = oscar.get(response["Location"]).content.decode()
    assert "At 18:30, only on Friday, in UTC" in page
    assert page.count("UTC</time>") >= 3, "the next three due times, in the server's zone"


def test_editing_a_crontab_starts_no_extra_run_and_pause_resume_delete_work(oscar):
    schedule = schedule_create(name="Nightly", game="lie21", crontab="0 3 * * *")
    path = f"/tournaments/schedules/{schedule.pk}/edit/"
    edit = oscar.get(path).content.decode()
    assert 'value="0 3 * * *"' in edit
    schedule_form(oscar, path, crontab="0 4 * * *", confirm="1")
    schedule.refresh_from_db()
    assert schedule.crontab == "0 4 * * *"
    assert schedule.due_after > timezone.now() - timedelta(minutes=1), "only later due times"
    assert not Tournament.objects.exists()
    oscar.post(f"/tournaments/schedules/{schedule.pk}/pause/")
    schedule.refresh_from_db()
    assert not schedule.enabled and not schedule.periodic_task.enabled
    assert (
        "none while paused" in oscar.get(f"/tournaments/schedules/{schedule.pk}/").content.decode()
    )
    oscar.post(f"/tournaments/schedules/{schedule.pk}/resume/")
    schedule.refresh_from_db()
    assert schedule.enabled and schedule.periodic_task.enabled
    task = schedule.periodic_task_id
    confirm = oscar.get(f"/tournaments/schedules/{schedule.pk}/delete/").content.decode()
    assert "Its 0 past tournaments stay" in confirm
    oscar.post(f"/tournaments/schedules/{schedule.pk}/delete/")
    assert (
        not TournamentSchedule.objects.exists()
        and not PeriodicTask.objects.filter(pk=task).exists()
    )


def test_a_schedules_page_lists_its_past_runs_with_their_winners(db):
    bots(3)
    schedule = schedule_create(name="Nightly", game="lie21", crontab="0 3 * * *")
    run = tournament_create(name="Nightly run", game="lie21", created_by=None, schedule=schedule)
    tournament_start(tournament_id=run.pk)
    run = run_to_end(run)
    page = Client().get(f"/tournaments/schedules/{schedule.pk}/").content.decode()
    winner = run.standings["rows"][0]["bot"]
    assert f'data-tournament="{run.pk}"' in page and f">{winner['name']}</a>" in page


# --- the admin ---------------------------------------------------------------------------------


def test_the_admin_adds_a_tournament_with_no_seed_from_a_choice_of_games(staff):
    admin = client_of(staff)
    staff.is_superuser = True
    staff.save()
    form = admin.get("/admin/arena/tournament/add/").content.decode()
    assert '<select name="game"' in form and '<option value="liars">Liars</option>' in form
    response = admin.post(
        "/admin/arena/tournament/add/",
        {
            "name": "Admin cup",
            "game": "liars",
            "format": "swiss",
            "table_size": "4",
            "matches_per_pairing": "1",
            "rated": "on",
            "entry": "all",
            "seed": "",
            "byes": "[]",
            "entries-TOTAL_FORMS": "0",
            "entries-INITIAL_FORMS": "0",
            "signups-TOTAL_FORMS": "0",
            "signups-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament = Tournament.objects.get()
    assert tournament.seed is not None and tournament.table_size == 4
    listing = admin.get("/admin/arena/").content.decode()
    assert "Tournament entries" in listing and "Tournament entrys" not in listing


def test_the_admin_adds_a_schedule_from_a_choice_of_games_and_keeps_beat_in_step(staff):
    staff.is_superuser = True
    staff.save()
    admin = client_of(staff)
    form = admin.get("/admin/arena/tournamentschedule/add/").content.decode()
    assert '<select name="game"' in form
    response = admin.post(
        "/admin/arena/tournamentschedule/add/",
        {
            "name": "Admin nightly",
            "game": "tieng_len",
            "crontab": "15 1 * * *",
            "enabled": "on",
            "format": "round_robin",
            "table_size": "4",
            "matches_per_pairing": "1",
            "rated": "on",
            "entry": "all",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    schedule = TournamentSchedule.objects.get()
    assert (schedule.game, schedule.table_size) == ("tieng_len", 4)
    assert schedule.periodic_task.crontab.minute == "15"


# --- what a match is ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", list(GAMES))
def test_each_games_page_says_what_one_match_of_it_is(db, game):
    """Lie 21: best of seven games, 90+ counts two, 120 sweeps; each game its own sentence."""
    summary = GAMES[game].match_summary
    assert summary.strip()
    html = Client().get(f"/games/{game}/").content.decode()
    assert f'<p id="match-summary">{escape(summary)}</p>' in html


def test_lie_21s_match_summary_says_best_of_seven_and_how_a_game_counts():
    summary = GAMES["lie21"].match_summary
    assert "best of seven games" in summary
    assert "90" in summary and "two" in summary and "120" in summary
