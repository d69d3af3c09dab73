"""The plain-SQL statements every match runs (``arena.services.sql``) write and read exactly
what the ORM would: read back through the ORM, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from arena.models import Match, MatchLog, MatchSeat, Replay
from arena.services import sql
from arena.services.matches import match_create, match_limits, match_limits_of, playing
from arena.services.tournaments import tournament_create
from tests.arena import bots

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(make_bot) -> Match:
    a, b = make_bot("alpha", bots.CHATTY), make_bot("beta")
    return match_create(versions=[a.active_version, b.active_version], kind="ladder")


def test_a_loaded_match_reads_its_seats_without_a_query(match, django_assert_num_queries):
    with django_assert_num_queries(2):
        loaded, limits = playing.match_load(match.pk)
    with django_assert_num_queries(0):
        seats = list(loaded.seats.all())
        names = [str(seat.version.bot) for seat in seats]
        infos = [playing.seat_info(seat.version) for seat in seats]
        files = [(seat.version.sha256, seat.version.kind, seat.version.file.name) for seat in seats]
    orm = list(MatchSeat.objects.filter(match=match).select_related("version__bot__owner"))
    assert [seat.pk for seat in seats] == [seat.pk for seat in orm]
    assert names == [str(seat.version.bot) for seat in orm] == ["alice/alpha", "alice/beta"]
    assert infos == [playing.seat_info(seat.version) for seat in orm]
    assert files == [(s.version.sha256, s.version.kind, s.version.file.name) for s in orm]
    assert limits == match_limits() == match_limits_of(match)
    assert (loaded.seed, loaded.options, loaded.status, loaded.attempts) == (
        match.seed,
        match.options,
        "queued",
        0,
    )


def test_a_tournament_match_is_loaded_with_its_tournaments_limits(make_bot):
    tournament = tournament_create(
        name="T", game="lie21", created_by=None, move_timeout_s=1.5, time_bank_s=20.0
    )
    a, b = make_bot("alpha"), make_bot("beta")
    match = match_create(
        versions=[a.active_version, b.active_version], kind="tournament", tournament=tournament
    )
    _, limits = playing.match_load(match.pk)
    assert limits == match_limits(move_timeout_s=1.5, time_bank_s=20.0) == match_limits_of(match)


def test_a_missing_match_loads_as_none():
    assert playing.match_load(10**9) is None


def test_update_writes_dates_json_and_flags_as_the_orm_reads_them(match):
    finished = timezone.now().replace(microsecond=123456)
    totals = {"points": [61, 59], "note": "é ✓"}
    changed = sql.update(
        Match,
        {"finished_at": finished, "totals": totals, "rated": True, "duration_s": 0.25},
        '"id" = %s AND "status" = %s',
        [match.pk, "queued"],
    )
    assert changed == 1
    row = Match.objects.get(pk=match.pk)
    assert (row.finished_at, row.totals, row.rated, row.duration_s) == (
        finished,
        totals,
        True,
        0.25,
    )
    # A datetime compared in a WHERE clause: prepared like the stored one.
    later = sql.prep(Match, "finished_at", finished + dt.timedelta(seconds=1))
    assert sql.exists(
        f'SELECT 1 FROM {sql.table(Match)} WHERE "id" = %s AND "finished_at" < %s',
        [match.pk, later],
    )
    assert sql.update(Match, {"rated": False}, '"id" = %s AND "status" = %s', [match.pk, "x"]) == 0


def test_insert_writes_bytes_and_json_rows(match):
    data = bytes(range(256)) * 4
    sql.insert(Replay, [{"match_id": match.pk, "data": data, "size": len(data), "format": 2}])
    steps = [{"game": 1, "step": 0, "phase": "act", "text": "hi\n", "where": {"hand": 1}}]
    seats = list(MatchSeat.objects.filter(match=match).order_by("seat"))
    sql.insert(
        MatchLog,
        [
            {
                "match_id": match.pk,
                "seat": seat.seat,
                "bot_id": seat.bot_id,
                "output": f"out {seat.seat}",
                "traceback": "",
                "steps": steps if seat.seat == 0 else [],
            }
            for seat in seats
        ],
    )
    assert bytes(Replay.objects.get(match=match).data) == data
    logs = {log.seat: log for log in MatchLog.objects.filter(match=match)}
    assert (logs[0].steps, logs[0].output, logs[1].steps) == (steps, "out 0", [])


def test_update_rows_writes_each_rows_own_values(match):
    seats = list(MatchSeat.objects.filter(match=match).order_by("seat"))
    for number, seat in enumerate(seats):
        seat.placing, seat.score, seat.mu_after = number, 4 - number, 25.5 + number
    sql.update_rows(seats, ["placing", "score", "mu_after"])
    stored = MatchSeat.objects.filter(match=match).order_by("seat")
    assert [(s.placing, s.score, s.mu_after) for s in stored] == [(0, 4, 25.5), (1, 3, 26.5)]
    sql.update_rows([], ["placing"])  # nothing to write: no statement
