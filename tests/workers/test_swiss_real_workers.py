"""A Swiss tournament round by round on a real Celery worker (Redis broker, no eager mode).

The second round exists only once the worker has recorded the first round's last match
and queued ``finish_tournament``, which pairs it: this is the path eager tests cannot show
(two matches finishing together on two worker processes, each asking for the next round).
Needs Redis (REDIS_URL or ARENA_TEST_REDIS_URL, flushed): skipped without it locally.
"""

from __future__ import annotations

from collections import Counter

import pytest

from arena.models import Match, RatingHistory, Replay, Tournament
from arena.services.tournaments import tournament_create, tournament_start
from tests.arena import bots
from tests.workers.processes import wait_for

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(300)]


def test_a_swiss_of_five_bots_plays_two_rounds_on_a_real_worker(
    redis, start_worker, make_bot, owner
):
    field = [make_bot(f"good-{n}") for n in range(3)]
    field += [make_bot(f"random-{n}", bots.RANDOM) for n in range(2)]
    start_worker("swiss", concurrency=2)
    tournament = tournament_create(
        name="Swiss on workers", game="lie21", created_by=owner, seed=21, format="swiss", rounds=2
    )

    tournament_start(tournament_id=tournament.pk)
    tournament = wait_for(
        lambda: Tournament.objects.filter(pk=tournament.pk, status="finished").first(),
        timeout=240,
        what="the Swiss tournament to finish",
    )

    matches = list(tournament.matches.order_by("round_number", "table_number"))
    # Every round created once: five bots make two tables and a bye per round.
    assert Counter(match.round_number for match in matches) == {1: 2, 2: 2}
    assert len({(m.round_number, m.table_number, m.leg) for m in matches}) == len(matches)
    byes = sorted(tournament.byes)  # [round, bot, points it is worth]
    assert [bye[0] for bye in byes] == [1, 2]
    assert byes[0][1] != byes[1][1], "no bot gets a second bye while others have none"
    # Every match played (by the worker process, not eagerly here), recorded and rated once.
    assert {match.status for match in matches} == {"done"}
    assert all(match.claimed_by.startswith("swiss@") for match in matches)
    assert {match.attempts for match in matches} == {1}
    assert all(match.rated for match in matches)
    assert Replay.objects.filter(match__in=matches).count() == len(matches)
    rated = Counter(RatingHistory.objects.filter(match__in=matches).values_list("match_id"))
    assert set(rated.values()) == {2}, "one rating update per seat and match"
    assert not Match.objects.filter(status__in=["queued", "running", "failed"]).exists()
    # No rematch in round 2.
    tables = [frozenset(m.seats.values_list("bot_id", flat=True)) for m in matches]
    assert len(set(tables)) == len(tables)

    rows = tournament.standings["rows"]
    assert sorted(row["bot"]["id"] for row in rows) == sorted(bot.pk for bot in field)
    points = {row["bot"]["id"]: row["points"] for row in rows}
    buchholz = dict.fromkeys(points, 0.0)
    for table in tables:
        for bot in table:
            buchholz[bot] += sum(points[other] for other in table if other != bot)
    assert {row["bot"]["id"]: row["buchholz"] for row in rows} == buchholz
    order = [(-row["points"], -row["buchholz"]) for row in rows]
    assert order == sorted(order), "ranked by points, then Buchholz"
