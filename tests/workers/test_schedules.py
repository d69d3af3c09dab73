"""Scheduled tournaments and periodic jobs, kept in django-celery-beat's tables."""

from __future__ import annotations

import json

import pytest
from django_celery_beat.models import PeriodicTask

from arena.models import Tournament, TournamentSchedule
from arena.services import schedules  # noqa: F401 - connects the admin-edit signals
from arena.services.errors import InvalidInput
from arena.services.schedules import (
    PERIODIC_TASKS,
    crontab_parse,
    periodic_tasks_install,
    schedule_create,
    schedule_delete,
    schedule_run,
    schedule_update,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("value", "fields"),
    [
        ("0 3 * * *", ("0", "3", "*", "*", "*")),
        ("*/15  9-17 * * mon-fri", ("*/15", "9-17", "*", "*", "mon-fri")),
        ("30 2 1,15 */2 0", ("30", "2", "1,15", "*/2", "0")),
    ],
)
def test_it_parses_five_field_crontabs(value, fields):
    parsed = crontab_parse(value)
    assert tuple(parsed.values()) == fields
    assert list(parsed) == ["minute", "hour", "day_of_month", "month_of_year", "day_of_week"]


@pytest.mark.parametrize(
    "value",
    [
        "",
        "0 3 * *",
        "0 3 * * * *",
        "61 * * * *",
        "0 24 * * *",
        "0 0 32 * *",
        "0 0 * 13 *",
        "0 0 * * 8",
        "every day",
    ],
)
def test_it_refuses_bad_crontabs(value):
    with pytest.raises(InvalidInput) as error:
        crontab_parse(value)
    assert error.value.code == "bad_crontab"


def test_create_keeps_a_periodic_task_in_step(staff):
    schedule = schedule_create(name="Nightly", game="lie21", crontab="0  3 * * *", created_by=staff)
    task = schedule.periodic_task
    assert task.task == "workers.tasks.run_scheduled_tournament"
    assert json.loads(task.args) == [schedule.pk]
    assert task.enabled
    assert (task.crontab.minute, task.crontab.hour, task.crontab.day_of_week) == ("0", "3", "*")
    assert schedule.crontab == "0 3 * * *"


def test_create_refuses_a_bad_crontab_and_stores_nothing():
    with pytest.raises(InvalidInput):
        schedule_create(name="Broken", game="lie21", crontab="99 * * * *")
    assert not TournamentSchedule.objects.exists()
    assert not PeriodicTask.objects.exists()


def test_update_moves_the_periodic_task_along():
    schedule = schedule_create(name="Nightly", game="lie21", crontab="0 3 * * *")
    schedule_update(schedule=schedule, crontab="30 4 * * sun", enabled=False, name="Weekly")
    task = PeriodicTask.objects.get(pk=schedule.periodic_task_id)
    assert (task.crontab.minute, task.crontab.hour, task.crontab.day_of_week) == (
        "30",
        "4",
        "sun",
    )
    assert not task.enabled
    assert "Weekly" in task.description
    assert PeriodicTask.objects.count() == 1


def test_update_refuses_unknown_fields_and_bad_crontabs():
    schedule = schedule_create(name="Nightly", game="lie21", crontab="0 3 * * *")
    with pytest.raises(InvalidInput):
        schedule_update(schedule=schedule, periodic_task=None)
    with pytest.raises(InvalidInput):
        schedule_update(schedule=schedule, crontab="0 3 * *")
    schedule.refresh_from_db()
    assert schedule.crontab == "0 3 * * *"


def test_an_admin_edit_is_followed_by_the_signal():
    schedule = schedule_create(name="Nightly", game="lie21", crontab="0 3 * * *")
    schedule.crontab = "15 6 * * *"  # as the admin's ModelForm does: a plain save()
    schedule.save()
    task = PeriodicTask.objects.get(pk=schedule.periodic_task_id)
    assert (task.crontab.minute, task.crontab.hour) == ("15", "6")
    created_in_admin = TournamentSchedule.objects.create(name="Admin", crontab="0 1 * * *")
    created_in_admin.refresh_from_db()
    assert created_in_admin.periodic_task.crontab.hour == "1"


def test_a_bad_crontab_saved_elsewhere_disables_the_task():
    schedule = schedule_create(name="Nightly", game="lie21", crontab="0 3 * * *")
    schedule.crontab = "not a crontab"
    schedule.save()
    assert not PeriodicTask.objects.get(pk=schedule.periodic_task_id).enabled


def test_delete_removes_the_periodic_task():
    schedule = schedule_create(name="Nightly", game="lie21", crontab="0 3 * * *")
    schedule_delete(schedule=schedule)
    assert not PeriodicTask.objects.exists()
    other = schedule_create(name="Other", game="lie21", crontab="0 3 * * *")
    other.delete()  # e.g. from the admin
    assert not PeriodicTask.objects.exists()


class TestRun:
    def test_each_tick_creates_and_starts_one_tournament(self, make_bot, staff):
        first, second = make_bot("anna"), make_bot("bert")
        schedule = schedule_create(
            name="Nightly", game="lie21", crontab="0 3 * * *", created_by=staff
        )
        tournament = schedule_run(schedule_id=schedule.pk)
        assert tournament.status == "running"
        assert tournament.schedule == schedule
        assert tournament.created_by == staff
        assert tournament.name.startswith("Nightly ")
        assert tournament.scheduled_for is not None
        assert {e.version_id for e in tournament.entries.all()} == {
            first.active_version_id,
            second.active_version_id,
        }
        # A duplicate delivery of the same tick starts nothing new.
        assert schedule_run(schedule_id=schedule.pk) == tournament
        assert Tournament.objects.count() == 1

    def test_the_task_runs_it(self, make_bot, run_on_commit):
        from workers.tasks import run_scheduled_tournament

        make_bot("anna"), make_bot("bert")
        schedule = schedule_create(name="Nightly", game="lie21", crontab="0 3 * * *")
        with run_on_commit():
            run_scheduled_tournament.delay(schedule.pk)
        assert Tournament.objects.get().status == "finished"

    def test_a_disabled_or_deleted_schedule_does_nothing(self, make_bot):
        make_bot("anna"), make_bot("bert")
        schedule = schedule_create(name="Off", game="lie21", crontab="0 3 * * *", enabled=False)
        assert schedule_run(schedule_id=schedule.pk) is None
        assert schedule_run(schedule_id=schedule.pk + 100) is None
        assert not Tournament.objects.exists()

    def test_too_few_bots_skips_the_tick(self, make_bot):
        make_bot("alone")
        schedule = schedule_create(name="Nightly", game="lie21", crontab="0 3 * * *")
        assert schedule_run(schedule_id=schedule.pk) is None
        assert not Tournament.objects.exists()


def test_periodic_tasks_install_is_idempotent_and_keeps_an_operators_switch():
    periodic_tasks_install()
    tasks = {task.name: task for task in PeriodicTask.objects.all()}
    assert set(tasks) == set(PERIODIC_TASKS)
    for name, (task_name, every) in PERIODIC_TASKS.items():
        assert tasks[name].task == task_name
        assert tasks[name].interval.every == every
    PeriodicTask.objects.filter(name="arena: ladder tick").update(enabled=False)
    periodic_tasks_install()
    assert PeriodicTask.objects.count() == len(PERIODIC_TASKS)
    assert not PeriodicTask.objects.get(name="arena: ladder tick").enabled


def test_beat_installs_the_periodic_tasks_when_it_starts():
    from celery.signals import beat_init

    beat_init.send(sender=None)
    assert PeriodicTask.objects.filter(name__in=list(PERIODIC_TASKS)).count() == 2
