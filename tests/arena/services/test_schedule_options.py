"""A schedule carries its tournaments' format and options, checked as a tournament's are."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django_celery_beat.models import PeriodicTask

from arena.errors import InvalidInput
from arena.models import Tournament, TournamentSchedule
from arena.services.schedules import schedule_create, schedule_run, schedule_update
from arena.services.tournaments import tournament_create
from tests.arena.helpers import assert_error, client_for, schedule_admin_form

pytestmark = pytest.mark.django_db

SWISS = {
    "format": "swiss",
    "rounds": 3,
    "matches_per_pairing": 2,
    "duplicate": True,
    "rated": False,
    "entry": "top",
    "entry_limit": 3,
}

#: Options a tournament refuses, with the code it refuses them with.
BAD_OPTIONS = [
    ({"format": "knockout"}, "bad_format"),
    ({"game": "highcard", "format": "double_elimination", "table_size": 3}, "bad_table_size"),
    ({"rounds": 3}, "bad_rounds"),  # rounds are for Swiss only
    ({"format": "swiss", "rounds": 0}, "bad_rounds"),
    ({"matches_per_pairing": 21}, "bad_matches_per_pairing"),
    ({"entry": "top"}, "bad_entry_limit"),
    ({"entry_limit": 5}, "bad_entry_limit"),
]


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def test_each_tick_creates_its_tournament_with_the_schedules_options(make_bot, staff):
    for name in ("anna", "bert", "cleo", "dora"):
        make_bot(name)
    schedule = schedule_create(
        name="Nightly Swiss", game="lie21", crontab="0 3 * * *", created_by=staff, **SWISS
    )
    TournamentSchedule.objects.filter(pk=schedule.pk).update(due_after=at("2026-01-01T12:00"))

    tournament = schedule_run(schedule_id=schedule.pk, sent_at=at("2026-01-02T03:00"))

    assert tournament.status == "running"
    assert {name: getattr(tournament, name) for name in SWISS} == SWISS
    assert tournament.entries.count() == 3, "the top 3 of the ladder, not all four"


def test_a_schedule_without_options_makes_a_rated_round_robin_of_every_bot():
    schedule = schedule_create(name="Nightly", game="lie21", crontab="0 3 * * *")
    assert schedule.options() == {
        "game": "lie21",
        "format": "round_robin",
        "table_size": None,
        "rounds": None,
        "matches_per_pairing": 1,
        "duplicate": False,
        "rated": True,
        "entry": "all",
        "entry_limit": None,
        "move_timeout_s": None,
        "time_bank_s": None,
    }


@pytest.mark.parametrize(("options", "code"), BAD_OPTIONS)
def test_it_refuses_what_a_tournament_refuses_and_stores_nothing(options, code):
    options = {"game": "lie21"} | options
    with pytest.raises(InvalidInput) as as_tournament:
        tournament_create(name="T", created_by=None, **options)
    with pytest.raises(InvalidInput) as as_schedule:
        schedule_create(name="Nightly", crontab="0 3 * * *", **options)

    assert as_schedule.value.code == as_tournament.value.code == code
    assert as_schedule.value.message == as_tournament.value.message
    assert not TournamentSchedule.objects.exists()
    assert not PeriodicTask.objects.exists()


def test_sign_up_entry_is_refused_for_a_schedule():
    with pytest.raises(InvalidInput) as error:
        schedule_create(name="Nightly", game="lie21", crontab="0 3 * * *", entry="signup")
    assert error.value.code == "bad_entry"
    assert "due time" in error.value.message
    assert not TournamentSchedule.objects.exists()


def test_update_checks_the_options_together_and_keeps_the_old_ones_when_refused():
    schedule = schedule_create(
        name="Nightly", game="lie21", crontab="0 3 * * *", format="swiss", rounds=4
    )

    with pytest.raises(InvalidInput) as error:
        schedule_update(schedule=schedule, format="round_robin")  # rounds=4 stays set

    assert error.value.code == "bad_rounds"
    schedule.refresh_from_db()
    assert (schedule.format, schedule.rounds) == ("swiss", 4)
    schedule_update(schedule=schedule, format="round_robin", rounds=None, matches_per_pairing=3)
    schedule.refresh_from_db()
    assert (schedule.format, schedule.rounds, schedule.matches_per_pairing) == (
        "round_robin",
        None,
        3,
    )


def test_a_game_change_is_checked_against_the_table_size():
    schedule = schedule_create(
        name="Finals", game="liars", crontab="0 3 * * *", format="swiss", table_size=4
    )
    with pytest.raises(InvalidInput) as error:
        schedule_update(schedule=schedule, game="lie21")
    assert error.value.code == "bad_table_size"
    schedule.refresh_from_db()
    assert schedule.game == "liars"


def test_options_that_went_bad_since_saving_skip_the_tick_with_a_log_line(make_bot, caplog):
    make_bot("anna"), make_bot("bert")
    schedule = schedule_create(name="Nightly", game="lie21", crontab="0 3 * * *")
    # As if written around the checks (a raw update, or a game whose rules changed).
    TournamentSchedule.objects.filter(pk=schedule.pk).update(
        due_after=at("2026-01-01T12:00"), rounds=3
    )

    assert schedule_run(schedule_id=schedule.pk, sent_at=at("2026-01-02T03:00")) is None

    assert not Tournament.objects.exists()
    assert "outcome=refused" in caplog.text and "rounds" in caplog.text


# --- the API ----------------------------------------------------------------------------


@pytest.fixture
def staff_client(staff):
    return client_for(staff)


def test_staff_create_a_schedule_with_options_through_the_api(staff_client):
    body = {"name": "Nightly", "game": "lie21", "crontab": "0 3 * * *"} | SWISS

    response = staff_client.post("/api/schedules/", body, format="json")

    assert response.status_code == 201, response.json()
    assert {name: response.json()[name] for name in SWISS} == SWISS
    schedule = TournamentSchedule.objects.get(pk=response.json()["id"])
    assert {name: getattr(schedule, name) for name in SWISS} == SWISS
    listed = staff_client.get("/api/schedules/").json()["results"][0]
    assert listed["format"] == "swiss" and listed["entry_limit"] == 3


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"game": "highcard", "format": "double_elimination", "table_size": 3}, "bad_table_size"),
        ({"rounds": 3}, "bad_rounds"),
        ({"entry": "signup"}, "bad_entry"),
        ({"entry": "top"}, "bad_entry_limit"),
    ],
)
def test_the_api_refuses_bad_options_and_stores_nothing(staff_client, options, code):
    body = {"name": "Nightly", "game": "lie21", "crontab": "0 3 * * *"} | options

    assert_error(staff_client.post("/api/schedules/", body, format="json"), 400, code)
    assert not TournamentSchedule.objects.exists()
    assert not PeriodicTask.objects.exists()


def test_staff_change_a_schedules_options_through_the_api(staff_client):
    schedule = schedule_create(name="Nightly", game="lie21", crontab="0 3 * * *")
    url = f"/api/schedules/{schedule.pk}/"

    refused = staff_client.patch(url, {"rounds": 5}, format="json")
    assert_error(refused, 400, "bad_rounds")
    response = staff_client.patch(url, {"format": "swiss", "rounds": 5}, format="json")

    assert response.status_code == 200, response.json()
    assert (response.json()["format"], response.json()["rounds"]) == ("swiss", 5)
    assert response.json()["crontab"] == "0 3 * * *", "a partial update keeps the rest"
    assert response.json()["rated"] is True


# --- the admin and the page -------------------------------------------------------------


@pytest.fixture
def admin_client(client, django_user_model):
    admin = django_user_model.objects.create_superuser("root", "r@example.com", "pw-12345678")
    client.force_login(admin)
    return client


def test_the_admin_refuses_options_a_tournament_refuses(admin_client):
    schedule = schedule_create(name="Nightly", game="lie21", crontab="0 3 * * *")
    url = f"/admin/arena/tournamentschedule/{schedule.pk}/change/"

    response = admin_client.post(
        url, schedule_admin_form(game="highcard", format="double_elimination", table_size=3)
    )

    assert response.status_code == 200, "the form comes back with its error"
    assert "double elimination is played at two seats" in response.content.decode()
    schedule.refresh_from_db()
    assert (schedule.game, schedule.format) == ("lie21", "round_robin")


def test_the_admin_saves_valid_options(admin_client):
    schedule = schedule_create(name="Nightly", game="lie21", crontab="0 3 * * *")
    url = f"/admin/arena/tournamentschedule/{schedule.pk}/change/"

    response = admin_client.post(
        url, schedule_admin_form(format="swiss", rounds="4", entry="top", entry_limit="8")
    )

    assert response.status_code == 302
    schedule.refresh_from_db()
    assert (schedule.format, schedule.rounds, schedule.entry, schedule.entry_limit) == (
        "swiss",
        4,
        "top",
        8,
    )


def test_the_tournaments_page_shows_each_schedules_options(client):
    schedule_create(name="Nightly", game="lie21", crontab="0 3 * * *", **SWISS)
    schedule_create(name="Plain", game="lie21", crontab="0 4 * * *")

    page = client.get("/tournaments/").content.decode()

    assert (
        "Swiss, 3 rounds, 2 matches per pairing, duplicate deals, unrated, top 3 of the ladder"
        in page
    )
    assert '<span class="schedule-options">Round robin</span>' in page
