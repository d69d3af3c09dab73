"""Scheduled tournaments and periodic jobs, kept in django-celery-beat's tables."""

from __future__ import annotations

import json
from contextlib import contextmanager
from datetime import UTC, datetime
from unittest import mock

import pytest
from django_celery_beat.models import PeriodicTask

from arena.errors import InvalidInput
from arena.models import Tournament, TournamentSchedule
from arena.services import schedules
from arena.services.schedules import (
    PERIODIC_TASKS,
    crontab_parse,
    due_times,
    periodic_tasks_install,
    schedule_create,
    schedule_delete,
    schedule_run,
    schedule_update,
)
from tests.arena.helpers import schedule_admin_form

pytestmark = pytest.mark.django_db


@contextmanager
def patch_now(moment: datetime):
    with mock.patch("django.utils.timezone.now", return_value=moment):
        yield


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


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@pytest.fixture
def nightly(make_bot, staff) -> TournamentSchedule:
    """A schedule at 03:00, made on 2026-01-01 at noon, with two bots to play."""
    make_bot("anna"), make_bot("bert")
    schedule = schedule_create(name="Nightly", game="lie21", crontab="0 3 * * *", created_by=staff)
    TournamentSchedule.objects.filter(pk=schedule.pk).update(due_after=at("2026-01-01T12:00"))
    schedule.refresh_from_db()
    return schedule


class TestRun:
    def test_each_due_time_creates_and_starts_one_tournament(self, nightly, staff):
        tournament = schedule_run(schedule_id=nightly.pk, sent_at=at("2026-01-02T03:00:01"))
        assert tournament.status == "running"
        assert tournament.schedule == nightly
        assert tournament.created_by == staff
        assert tournament.name == "Nightly 2026-01-02 03:00"
        assert tournament.scheduled_for == at("2026-01-02T03:00")
        assert tournament.entries.count() == 2
        # A duplicate delivery of the same tick starts nothing new.
        again = schedule_run(schedule_id=nightly.pk, sent_at=at("2026-01-02T03:00:30"))
        assert again == tournament
        assert Tournament.objects.count() == 1

    def test_a_restarted_beat_firing_off_time_makes_no_duplicate(self, nightly):
        """Finding 1: after kill -9, beat fires at once at a minute the crontab never asks
        for; the due time before it already ran, so nothing is created."""
        first = schedule_run(schedule_id=nightly.pk, sent_at=at("2026-01-02T03:00"))
        assert schedule_run(schedule_id=nightly.pk, sent_at=at("2026-01-02T09:17")) is None
        assert list(Tournament.objects.all()) == [first]

    def test_late_deliveries_each_run_their_own_due_time(self, make_bot):
        """Finding 2: workers down over two due minutes; both ticks run on restart and make
        two tournaments, each for its own minute."""
        make_bot("anna"), make_bot("bert")
        schedule = schedule_create(name="Minutely", game="lie21", crontab="* * * * *")
        TournamentSchedule.objects.filter(pk=schedule.pk).update(due_after=at("2026-01-01T09:00"))
        first = schedule_run(schedule_id=schedule.pk, sent_at=at("2026-01-01T10:00:00"))
        second = schedule_run(schedule_id=schedule.pk, sent_at=at("2026-01-01T10:01:00"))
        assert first != second
        assert sorted(t.scheduled_for for t in Tournament.objects.all()) == [
            at("2026-01-01T10:00"),
            at("2026-01-01T10:01"),
        ]

    def test_a_missed_due_time_is_caught_up_once_and_older_ones_are_skipped(self, nightly):
        """Beat was down at 03:00 on the 2nd and the 3rd; started again at 09:17 on the 3rd it
        fires at once: the latest missed due time (the 3rd) runs, once; the 2nd is skipped."""
        caught_up = schedule_run(schedule_id=nightly.pk, sent_at=at("2026-01-03T09:17"))
        assert caught_up.scheduled_for == at("2026-01-03T03:00")
        assert schedule_run(schedule_id=nightly.pk, sent_at=at("2026-01-03T09:18")) is None
        assert Tournament.objects.count() == 1

    def test_a_task_sent_by_hand_runs_nothing_that_is_not_due(self, nightly):
        schedule_run(schedule_id=nightly.pk, sent_at=at("2026-01-02T03:00"))
        assert schedule_run(schedule_id=nightly.pk, sent_at=at("2026-01-02T15:42")) is None
        assert Tournament.objects.count() == 1

    def test_editing_the_crontab_only_changes_future_due_times(self, nightly):
        """Finding 3: moving 03:00 to 04:00 at noon starts nothing at noon."""
        schedule_run(schedule_id=nightly.pk, sent_at=at("2026-01-02T03:00"))
        with patch_now(at("2026-01-02T12:00")):
            schedule_update(schedule=nightly, crontab="0 4 * * *")
        nightly.refresh_from_db()
        assert nightly.due_after == at("2026-01-02T12:00")
        task = PeriodicTask.objects.get(pk=nightly.periodic_task_id)
        assert task.last_run_at == at("2026-01-02T12:00"), "beat counts from now, not 03:00"
        assert schedule_run(schedule_id=nightly.pk, sent_at=at("2026-01-02T12:00:05")) is None
        later = schedule_run(schedule_id=nightly.pk, sent_at=at("2026-01-03T04:00"))
        assert later.scheduled_for == at("2026-01-03T04:00")
        assert Tournament.objects.count() == 2

    def test_the_database_allows_one_tournament_per_due_time(self, nightly):
        from django.db import IntegrityError, transaction

        Tournament.objects.create(
            name="a", game="lie21", seed=1, schedule=nightly, scheduled_for=at("2026-01-02T03:00")
        )
        with pytest.raises(IntegrityError), transaction.atomic():
            Tournament.objects.create(
                name="b",
                game="lie21",
                seed=2,
                schedule=nightly,
                scheduled_for=at("2026-01-02T03:00"),
            )

    def test_the_task_runs_it(self, nightly, run_on_commit):
        from workers.tasks import run_scheduled_tournament

        with run_on_commit():
            run_scheduled_tournament.delay(nightly.pk, sent_at="2026-01-02T03:00:00+00:00")
        assert Tournament.objects.get().status == "finished"

    def test_a_disabled_or_deleted_schedule_does_nothing(self, nightly):
        schedule_update(schedule=nightly, enabled=False)
        assert schedule_run(schedule_id=nightly.pk, sent_at=at("2026-01-02T03:00")) is None
        assert schedule_run(schedule_id=nightly.pk + 100) is None
        assert not Tournament.objects.exists()

    def test_too_few_bots_skips_the_tick(self, make_bot):
        make_bot("alone")
        schedule = schedule_create(name="Nightly", game="lie21", crontab="0 3 * * *")
        TournamentSchedule.objects.filter(pk=schedule.pk).update(due_after=at("2026-01-01T12:00"))
        assert schedule_run(schedule_id=schedule.pk, sent_at=at("2026-01-02T03:00")) is None
        assert not Tournament.objects.exists()


def test_beat_tells_the_schedule_task_when_it_sent_it(monkeypatch):
    """workers.beat.ArenaScheduler adds ``sent_at`` to the schedule task's kwargs only."""
    from workers.beat import ArenaScheduler

    sent = []

    class Entry:
        def __init__(self, task):
            self.task, self.kwargs, self.args, self.options, self.name = task, {}, [], {}, task

    scheduler = ArenaScheduler.__new__(ArenaScheduler)
    monkeypatch.setattr(
        "django_celery_beat.schedulers.DatabaseScheduler.apply_async",
        lambda self, entry, producer=None, advance=True, **kw: sent.append(entry),
    )
    scheduler.apply_async(Entry(schedules.SCHEDULE_TASK), advance=False)
    scheduler.apply_async(Entry("workers.tasks.ladder_tick"), advance=False)
    assert "sent_at" in sent[0].kwargs and datetime.fromisoformat(sent[0].kwargs["sent_at"])
    assert sent[1].kwargs == {}


def test_due_times_follow_the_crontab():
    times = list(
        due_times("0 3 * * mon", after=at("2026-01-01T00:00"), until=at("2026-01-20T00:00"))
    )
    assert times == [at("2026-01-19T03:00"), at("2026-01-12T03:00"), at("2026-01-05T03:00")]


def test_the_admin_refuses_an_invalid_crontab(client, django_user_model):
    """Finding 4: the admin saved '61 * * * *' with no error and the task went silently off."""
    admin = django_user_model.objects.create_superuser("root", "r@example.com", "pw-12345678")
    client.force_login(admin)
    schedule = schedule_create(name="Nightly", game="lie21", crontab="0 3 * * *")
    url = f"/admin/arena/tournamentschedule/{schedule.pk}/change/"
    form = schedule_admin_form(crontab="61 * * * *")
    response = client.post(url, form)
    assert response.status_code == 200, "the form comes back with its error"
    assert "61" in response.content.decode() and "not valid" in response.content.decode()
    schedule.refresh_from_db()
    assert schedule.crontab == "0 3 * * *"
    assert PeriodicTask.objects.get(pk=schedule.periodic_task_id).enabled


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
    assert PeriodicTask.objects.filter(name__in=list(PERIODIC_TASKS)).count() == len(PERIODIC_TASKS)


def test_a_paused_schedule_stays_on_the_tournaments_page_marked_paused(client):
    """Finding 5: paused schedules vanished from the site."""
    running = schedule_create(name="Nightly", game="lie21", crontab="0 3 * * *")
    paused = schedule_create(name="Weekly", game="lie21", crontab="0 4 * * sun")
    schedule_update(schedule=paused, enabled=False)
    page = client.get("/tournaments/").content.decode()
    assert running.name in page and paused.name in page
    assert page.count('class="badge">paused<') == 1
    home = client.get("/").content.decode()
    assert "Nightly" in home and "Weekly" not in home, "the home page lists what runs next"
