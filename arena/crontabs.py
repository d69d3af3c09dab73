"""Crontab strings of tournament schedules: read, said in words, and their due times.

The five fields are read by celery's own crontab parser, the one celery beat fires by, so a
crontab the arena accepts is one beat runs, and the due times listed on the pages are the
ones it will fire at. Crontabs are in ``settings.TIME_ZONE``, which the arena fixes to UTC
(no summer time to skip or repeat). No Django here: the models validate with it too.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

from celery.schedules import crontab as celery_crontab
from cron_descriptor import ExpressionDescriptor, FormatException, Options

__all__ = [
    "CRON_FIELDS",
    "CrontabError",
    "crontab_describe",
    "crontab_parse",
    "due_times",
    "next_due_times",
]

#: The five fields, by the names django-celery-beat's CrontabSchedule gives them.
CRON_FIELDS = ("minute", "hour", "day_of_month", "month_of_year", "day_of_week")
#: How far ahead (days) the next due times are looked for: a crontab such as "0 0 29 2 1"
#: (29 February falling on a Monday) fires once in 28 years.
HORIZON_DAYS = 366 * 30


class CrontabError(ValueError):
    """A crontab string that is not five valid fields; ``message`` says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def crontab_parse(value: str) -> dict[str, str]:
    """The five fields of a crontab string by CrontabSchedule name; CrontabError if bad.

    >>> crontab_parse("0 3 * * *")["hour"]
    '3'
    """
    parts = (value or "").split()
    if len(parts) != len(CRON_FIELDS):
        raise CrontabError(
            f"crontab {value!r} must have 5 fields: minute hour day-of-month month day-of-week"
        )
    fields = dict(zip(CRON_FIELDS, parts, strict=True))
    try:
        celery_crontab(**fields)  # celery's own parser: ranges, steps, names
    except (ValueError, TypeError) as exc:
        raise CrontabError(f"crontab {value!r} is not valid: {exc}") from None
    return fields


def crontab_describe(value: str) -> str:
    """The crontab in words, in 24-hour time (the time zone is the server's, UTC).

    >>> crontab_describe("0 3 * * *"), crontab_describe("30 18 * * 1-5")
    ('At 03:00, every day', 'At 18:30, Monday through Friday')
    """
    fields = crontab_parse(value)
    options = Options()
    options.use_24hour_time_format = True
    try:
        words = ExpressionDescriptor(" ".join(fields.values()), options).get_description()
    except FormatException:  # celery reads it, the describer does not: say it plainly
        return f"By the crontab {' '.join(fields.values())}"
    days_open = fields["day_of_month"] == fields["day_of_week"] == fields["month_of_year"] == "*"
    if days_open and words.startswith("At "):
        words += ", every day"
    return words


def _schedule(value: str) -> celery_crontab:
    return celery_crontab(**crontab_parse(value))


def _day_matches(schedule: celery_crontab, day: datetime) -> bool:
    return (
        day.day in schedule.day_of_month
        and day.month in schedule.month_of_year
        and day.isoweekday() % 7 in schedule.day_of_week
    )


def next_due_times(value: str, *, after: datetime, count: int = 3) -> list[datetime]:
    """The next ``count`` due times strictly after ``after``, soonest first (UTC).

    >>> start = datetime(2026, 1, 1, 2, 59, tzinfo=UTC)
    >>> [t.strftime("%d %H:%M") for t in next_due_times("0 3 * * *", after=start)]
    ['01 03:00', '02 03:00', '03 03:00']
    """
    schedule = _schedule(value)
    moment = after.astimezone(UTC)
    found: list[datetime] = []
    day = moment.replace(hour=0, minute=0, second=0, microsecond=0)
    times = [(hour, minute) for hour in sorted(schedule.hour) for minute in sorted(schedule.minute)]
    for _ in range(HORIZON_DAYS):
        if _day_matches(schedule, day):
            for hour, minute in times:
                due = day.replace(hour=hour, minute=minute)
                if due > moment:
                    found.append(due)
                    if len(found) == count:
                        return found
        day += timedelta(days=1)
    return found


def due_times(value: str, *, after: datetime, until: datetime) -> Iterator[datetime]:
    """The crontab's due times in (``after``, ``until``], latest first (UTC).

    >>> start = datetime(2026, 1, 1, 2, 0, tzinfo=UTC)
    >>> [t.strftime("%H:%M") for t in due_times("*/30 * * * *", after=start,
    ...  until=start + timedelta(hours=1))]
    ['03:00', '02:30']
    """
    schedule = _schedule(value)
    top = until.astimezone(UTC)
    floor = after.astimezone(UTC)
    day = top.replace(hour=0, minute=0, second=0, microsecond=0)
    times = [
        (hour, minute)
        for hour in sorted(schedule.hour, reverse=True)
        for minute in sorted(schedule.minute, reverse=True)
    ]
    while day + timedelta(days=1) > floor:
        if _day_matches(schedule, day):
            for hour, minute in times:
                due = day.replace(hour=hour, minute=minute)
                if due <= floor:
                    return
                if due <= top:
                    yield due
        day -= timedelta(days=1)
