"""Schedules: staff manage recurring tournaments; beat's PeriodicTask follows."""

from __future__ import annotations

import pytest
from django_celery_beat.models import PeriodicTask

from arena.models import TournamentSchedule
from tests.arena.factories import TournamentScheduleFactory
from tests.arena.helpers import assert_error


def test_staff_create_a_schedule_with_its_periodic_task(staff_client):
    response = staff_client.post(
        "/api/schedules/",
        {"name": "Nightly", "game": "highcard", "crontab": "0  3 * * *"},
        format="json",
    )

    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["name"], body["game"], body["crontab"], body["enabled"]) == (
        "Nightly",
        "highcard",
        "0 3 * * *",
        True,
    )
    assert body["created_by"] == "olga"
    schedule = TournamentSchedule.objects.get(pk=body["id"])
    assert schedule.periodic_task.crontab.hour == "3"


def test_it_refuses_a_bad_crontab(staff_client):
    response = staff_client.post(
        "/api/schedules/",
        {"name": "Nightly", "game": "lie21", "crontab": "every night"},
        format="json",
    )

    body = assert_error(response, 400, "bad_crontab")
    assert "5 fields" in body["detail"]
    assert not TournamentSchedule.objects.exists()


@pytest.mark.parametrize(("game", "code"), [(None, "required"), ("go", "unknown_game")])
def test_a_schedule_needs_a_hosted_game(staff_client, game, code):
    body = {"name": "Nightly", "crontab": "0 3 * * *"} | ({"game": game} if game else {})

    assert_error(staff_client.post("/api/schedules/", body, format="json"), 400, code)
    assert not TournamentSchedule.objects.exists()


def test_staff_update_a_schedule(staff_client, staff):
    schedule = TournamentScheduleFactory(created_by=staff)

    response = staff_client.patch(
        f"/api/schedules/{schedule.pk}/", {"enabled": False, "crontab": "30 4 * * 1"}, format="json"
    )

    assert response.status_code == 200, response.json()
    assert (response.json()["enabled"], response.json()["crontab"]) == (False, "30 4 * * 1")
    schedule.refresh_from_db()
    assert schedule.periodic_task.enabled is False


def test_staff_delete_a_schedule_and_its_periodic_task(staff_client):
    schedule = TournamentScheduleFactory()
    staff_client.patch(f"/api/schedules/{schedule.pk}/", {"enabled": True}, format="json")

    response = staff_client.delete(f"/api/schedules/{schedule.pk}/")

    assert response.status_code == 204
    assert not TournamentSchedule.objects.exists()
    assert not PeriodicTask.objects.filter(name__contains="tournament schedule").exists()


def test_users_cannot_see_schedules(owner_client):
    TournamentScheduleFactory()

    assert_error(owner_client.get("/api/schedules/"), 403, "permission_denied")


def test_a_patch_of_a_schedule_deleted_meanwhile_is_a_404_not_a_500(db):
    """A DELETE that commits between a PATCH's read and its write (two server processes)."""
    from arena.errors import NotFound
    from arena.services.schedules import schedule_create, schedule_delete, schedule_update

    schedule = schedule_create(name="Nightly", game="lie21", crontab="0 3 * * *")
    stale = TournamentSchedule.objects.get(pk=schedule.pk)
    schedule_delete(schedule=schedule)

    with pytest.raises(NotFound):
        schedule_update(schedule=stale)
    assert not TournamentSchedule.objects.filter(pk=schedule.pk).exists()
    schedule_delete(schedule=stale)  # a second DELETE of the same row is a no-op
