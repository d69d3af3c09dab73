"""What a tournament will play (``arena.services.tournaments.plans``) is what it plays."""

from __future__ import annotations

import pytest

from arena.services.tournaments import matches_for, tournament_create, tournament_start
from arena.services.tournaments.plans import match_pace, tournament_plan
from tests.arena.services.tournaments.results import bots, run_to_end

pytestmark = pytest.mark.django_db

CASES = [
    # (game, format, bots, table size, matches per pairing, duplicate)
    ("lie21", "round_robin", 5, None, 3, False),
    ("lie21", "swiss", 7, None, 2, False),
    ("lie21", "double_elimination", 6, None, 1, False),
    ("lie21", "double_elimination", 5, None, 2, False),
    ("lie21", "promotion", 6, None, 1, False),
    ("highcard", "round_robin", 5, 3, 1, False),
    ("highcard", "swiss", 9, 4, 1, True),
    ("highcard", "promotion", 9, 3, 2, False),
]


@pytest.mark.parametrize(("game", "format", "count", "size", "per_pairing", "duplicate"), CASES)
def test_the_plan_counts_the_matches_a_tournament_plays(
    owner, game, format, count, size, per_pairing, duplicate
):
    bots(count, game=game)
    options = {
        "format": format,
        "table_size": size,
        "matches_per_pairing": per_pairing,
        "duplicate": duplicate,
    }
    plan = tournament_plan(game=game, entrants=count, entrants_known=True, **options)
    tournament = tournament_create(name="T", game=game, created_by=owner, seed=5, **options)
    tournament_start(tournament_id=tournament.pk)
    finished = run_to_end(tournament, seed=count)
    played = finished.matches.count()
    low, high = plan.matches
    assert low <= played <= high, (plan.matches, played)
    assert (
        finished.standings["matches_planned"][0]
        <= played
        <= finished.standings["matches_planned"][1]
    )


@pytest.mark.parametrize(
    ("format", "count", "seats", "rounds", "expected"),
    [
        ("round_robin", 32, 2, None, 496),
        ("round_robin", 4, 4, None, 4),  # the one table, once in each seat rotation
        ("swiss", 64, 2, None, 7 * 32),  # ceil(log2 64) + 1 rounds of 32 pairs
        ("swiss", 9, 4, 4, 4 * 2),  # two tables of four a round, one bye
        ("swiss", 10, 4, 2, 2 * 3),  # 4 + 4 + a table of two
        ("double_elimination", 8, 2, None, 14),
        ("promotion", 16, 4, None, 4 + 2 + 1),
    ],
)
def test_matches_for_simple_fields(format, count, seats, rounds, expected):
    low, _ = matches_for(format=format, bots=count, seats=seats, min_seats=2, rounds=rounds)
    assert low == expected


def test_the_pace_is_the_median_match_time_over_the_matches_seen_at_once(owner):
    assert match_pace(game="lie21", seats=2).seconds_per_match is None
    bots(4)
    tournament = tournament_create(name="T", game="lie21", created_by=owner)
    tournament_start(tournament_id=tournament.pk)
    run_to_end(tournament)
    pace = match_pace(game="lie21", seats=2)
    assert (pace.seconds_per_match, pace.timed, pace.queued) == (1.0, 6, 0)
    assert pace.parallel >= 1
