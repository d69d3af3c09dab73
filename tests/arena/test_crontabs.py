"""Crontabs read, said in words, and their due times (``arena.crontabs``), pure."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from celery.schedules import crontab as celery_crontab
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.crontabs import (
    CrontabError,
    crontab_describe,
    crontab_parse,
    due_times,
    next_due_times,
)


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@pytest.mark.parametrize(
    ("crontab", "words"),
    [
        ("0 3 * * *", "At 03:00, every day"),
        ("30 18 * * 1-5", "At 18:30, Monday through Friday"),
        ("*/30 * * * *", "Every 30 minutes"),
        ("0 */6 * * *", "Every 6 hours"),
        ("15 2 1 * *", "At 02:15, on day 1 of the month"),
    ],
)
def test_a_crontab_is_said_in_words_in_24_hour_time(crontab, words):
    assert crontab_describe(crontab) == words


@pytest.mark.parametrize("bad", ["", "0 3 * *", "61 * * * *", "0 25 * * *", "a b c d e"])
def test_a_bad_crontab_is_refused_with_a_reason(bad):
    with pytest.raises(CrontabError) as refused:
        crontab_parse(bad)
    assert bad in refused.value.message or "5 fields" in refused.value.message


@pytest.mark.parametrize(
    ("crontab", "after", "expected"),
    [
        (
            "0 3 * * *",
            "2026-01-01T02:59",
            ["2026-01-01T03:00", "2026-01-02T03:00", "2026-01-03T03:00"],
        ),
        (
            "0 3 * * *",
            "2026-01-01T03:00",
            ["2026-01-02T03:00", "2026-01-03T03:00", "2026-01-04T03:00"],
        ),
        (
            "0 18 * * 5",
            "2026-01-01T00:00",
            ["2026-01-02T18:00", "2026-01-09T18:00", "2026-01-16T18:00"],
        ),
        (
            "0 0 29 2 *",
            "2026-01-01T00:00",
            ["2028-02-29T00:00", "2032-02-29T00:00", "2036-02-29T00:00"],
        ),
        (
            "*/20 * * * *",
            "2026-01-01T23:50",
            ["2026-01-02T00:00", "2026-01-02T00:20", "2026-01-02T00:40"],
        ),
    ],
)
def test_the_next_three_due_times(crontab, after, expected):
    assert next_due_times(crontab, after=at(after)) == [at(t) for t in expected]


def _celery_matcher(crontab: str):
    schedule = celery_crontab(**crontab_parse(crontab))
    return lambda moment: (
        moment.minute in schedule.minute
        and moment.hour in schedule.hour
        and moment.day in schedule.day_of_month
        and moment.month in schedule.month_of_year
        and moment.isoweekday() % 7 in schedule.day_of_week
    )


CRONTABS = st.sampled_from(
    ["0 3 * * *", "*/15 * * * *", "5 4 * * sun", "0 9-17 * * 1-5", "30 0 1,15 * *", "0 12 * 6 *"]
)


@settings(max_examples=40, deadline=None)
@given(crontab=CRONTABS, minutes=st.integers(0, 60 * 24 * 400))
def test_next_due_times_are_the_first_moments_celery_fires_at(crontab, minutes):
    fires = _celery_matcher(crontab)
    start = at("2026-01-01T00:00") + timedelta(minutes=minutes)
    found = next_due_times(crontab, after=start, count=2)
    assert found == sorted(found) and all(t > start for t in found)
    assert all(fires(t) for t in found)
    # Nothing celery would fire at comes before the first (checked over up to two days).
    moment = start.replace(second=0, microsecond=0) + timedelta(minutes=1)
    while moment < min(found[0], start + timedelta(days=2)):
        assert not fires(moment)
        moment += timedelta(minutes=1)


@settings(max_examples=30, deadline=None)
@given(crontab=CRONTABS, minutes=st.integers(0, 60 * 24 * 60), span=st.integers(1, 60 * 24 * 3))
def test_due_times_going_back_are_the_forward_ones_reversed(crontab, minutes, span):
    after = at("2026-01-01T00:00") + timedelta(minutes=minutes)
    until = after + timedelta(minutes=span)
    back = list(due_times(crontab, after=after, until=until))
    forward = [t for t in next_due_times(crontab, after=after, count=len(back) + 1) if t <= until]
    assert back == forward[::-1]
