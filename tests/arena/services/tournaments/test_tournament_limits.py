"""A tournament's own time limits: checked, applied to its matches, told to its bots and
recorded in its replays, never beyond what the match task's time limit covers."""

from __future__ import annotations

import gzip
import json

import pytest
from django.conf import settings

from arena.algorithms.tournament_options import (
    MAX_MOVE_TIMEOUT_S,
    MAX_TIME_BANK_S,
    MIN_MOVE_TIMEOUT_S,
)
from arena.config import MATCH_OVERHEAD_S
from arena.errors import InvalidInput
from arena.models import MatchSeat, Replay, Tournament
from arena.services.matches import match_limits, match_limits_of
from arena.services.tournaments import tournament_create, tournament_start
from tests.arena import bots
from tests.arena.helpers import assert_error, client_for

pytestmark = pytest.mark.django_db

#: Burns 0.6 s of CPU on its first move, then plays like GOOD: over the tests' arena limits
#: (0.25 s a move + a 0.25 s bank), within a tournament's 1 s a move.
BURNS_ONCE = """
import time

_first = [True]


def _burn():
    if _first:
        _first.pop()
        end = time.process_time() + 0.6
        while time.process_time() < end:
            pass
""" + bots.GOOD.replace("def act(observation):\n", "def act(observation):\n    _burn()\n")


def test_without_its_own_limits_a_tournament_plays_under_the_arenas():
    tournament = tournament_create(name="T", game="lie21", created_by=None)
    assert (tournament.move_timeout_s, tournament.time_bank_s) == (None, None)
    match = tournament.matches.model(tournament=tournament)
    assert match_limits_of(match) == match_limits()


def test_the_wall_clock_limits_follow_the_cpu_ones_under_the_arenas_match_cap(settings):
    settings.ARENA_MOVE_TIMEOUT_S, settings.ARENA_MOVE_WALL_S = 1.0, 3.0
    settings.ARENA_TIME_BANK_S, settings.ARENA_WALL_BANK_S = 10.0, 30.0
    settings.ARENA_MATCH_WALL_S = 240.0

    limits = match_limits(move_timeout_s=2.0, time_bank_s=100.0)

    assert limits.time_limits() == {
        "move_timeout_s": 2.0,
        "time_bank_s": 100.0,
        "move_wall_s": 6.0,
        "wall_bank_s": 240.0,  # 300 s by the ratio, capped at the match's wall clock
        "match_wall_s": 240.0,
    }


def test_the_largest_limits_still_end_a_match_within_its_task_time_limit():
    """The match task's soft limit comes from the seats' wall-clock bound; a tournament's
    limits never raise it (the match's wall-clock cap stays the arena's)."""
    largest = match_limits(move_timeout_s=MAX_MOVE_TIMEOUT_S, time_bank_s=MAX_TIME_BANK_S)
    assert largest.match_wall_s == settings.ARENA_MATCH_WALL_S
    assert largest.seat_wall_bound_s() == match_limits().seat_wall_bound_s()
    assert 2 * largest.seat_wall_bound_s() + MATCH_OVERHEAD_S <= (
        settings.CELERY_TASK_SOFT_TIME_LIMIT
    )


@pytest.mark.parametrize(
    ("limits", "code"),
    [
        ({"move_timeout_s": MIN_MOVE_TIMEOUT_S / 2}, "bad_move_timeout"),
        ({"move_timeout_s": MAX_MOVE_TIMEOUT_S + 0.1}, "bad_move_timeout"),
        ({"move_timeout_s": float("nan")}, "bad_move_timeout"),
        ({"move_timeout_s": True}, "bad_move_timeout"),
        ({"time_bank_s": -1.0}, "bad_time_bank"),
        ({"time_bank_s": MAX_TIME_BANK_S + 1}, "bad_time_bank"),
        ({"time_bank_s": float("inf")}, "bad_time_bank"),
    ],
)
def test_limits_out_of_bounds_are_refused_and_nothing_is_stored(limits, code):
    with pytest.raises(InvalidInput) as error:
        tournament_create(name="T", game="lie21", created_by=None, **limits)
    assert error.value.code == code
    assert not Tournament.objects.exists()


def test_the_bounds_themselves_are_accepted():
    tournament = tournament_create(
        name="T",
        game="lie21",
        created_by=None,
        move_timeout_s=MIN_MOVE_TIMEOUT_S,
        time_bank_s=0,
    )
    assert (tournament.move_timeout_s, tournament.time_bank_s) == (MIN_MOVE_TIMEOUT_S, 0)


def _played(owner, make_bot, run_on_commit, **limits) -> tuple[MatchSeat, dict]:
    burner = make_bot("burner", BURNS_ONCE)
    make_bot("steady")
    tournament = tournament_create(name="T", game="lie21", created_by=owner, seed=1, **limits)
    with run_on_commit():
        tournament_start(tournament_id=tournament.pk)
    match = tournament.matches.get()
    assert match.status == "done"
    replay = json.loads(gzip.decompress(Replay.objects.get(match=match).data))
    return match.seats.get(bot=burner), replay


def test_a_tournaments_limits_are_applied_to_its_matches_and_recorded(
    owner, make_bot, run_on_commit, fast_limits
):
    seat, replay = _played(owner, make_bot, run_on_commit, move_timeout_s=1.0, time_bank_s=1.0)

    assert seat.fault == "", seat.fault_detail
    assert replay["limits"] == match_limits(move_timeout_s=1.0, time_bank_s=1.0).time_limits()
    assert replay["limits"]["move_timeout_s"] == 1.0


def test_the_same_bot_times_out_under_the_arenas_limits(
    owner, make_bot, run_on_commit, fast_limits
):
    """The control: what the tournament's own limits changed."""
    seat, replay = _played(owner, make_bot, run_on_commit)

    assert seat.fault == "timeout"
    assert replay["limits"] == match_limits().time_limits()


# --- the API ----------------------------------------------------------------------------


def test_staff_create_a_tournament_with_its_own_limits(staff):
    response = client_for(staff).post(
        "/api/tournaments/",
        {"name": "Blitz", "game": "lie21", "move_timeout_s": 0.2, "time_bank_s": 2},
        format="json",
    )

    assert response.status_code == 201, response.json()
    assert (response.json()["move_timeout_s"], response.json()["time_bank_s"]) == (0.2, 2.0)
    tournament = Tournament.objects.get(pk=response.json()["id"])
    assert (tournament.move_timeout_s, tournament.time_bank_s) == (0.2, 2.0)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"move_timeout_s": 60}, "bad_move_timeout"),
        ({"time_bank_s": -1}, "bad_time_bank"),
        ({"move_timeout_s": "1"}, None),  # a string is not a number
    ],
)
def test_the_api_refuses_bad_limits(staff, body, code):
    response = client_for(staff).post(
        "/api/tournaments/", {"name": "Blitz", "game": "lie21"} | body, format="json"
    )
    assert_error(response, 400, code)
    assert not Tournament.objects.exists()


def test_a_schedule_passes_its_limits_on(staff):
    response = client_for(staff).post(
        "/api/schedules/",
        {"name": "Nightly blitz", "game": "lie21", "crontab": "0 3 * * *", "move_timeout_s": 0.5},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert (response.json()["move_timeout_s"], response.json()["time_bank_s"]) == (0.5, None)
    refused = client_for(staff).post(
        "/api/schedules/",
        {"name": "Too slow", "game": "lie21", "crontab": "0 3 * * *", "time_bank_s": 1000},
        format="json",
    )
    assert_error(refused, 400, "bad_time_bank")


def test_the_tournament_page_shows_its_own_limits(client):
    own = tournament_create(name="Blitz", game="lie21", created_by=None, move_timeout_s=0.25)
    plain = tournament_create(name="Plain", game="lie21", created_by=None)

    page = client.get(f"/tournaments/{own.pk}/").content.decode()

    assert "0.25 s of CPU a move, the arena's CPU bank" in page
    assert 'id="time-limits"' not in client.get(f"/tournaments/{plain.pk}/").content.decode()
