"""The fault test: a 210-match tournament on PostgreSQL + Redis while the platform fails.

Twenty-one copies of the built-in random bot play a round robin (210 matches) on real
workers with a private redis-server as broker. Meanwhile the test drops every worker
connection to the database (``pg_terminate_backend``) twice, SIGKILLs a whole worker (and
starts another), and pauses Redis (``CLIENT PAUSE``). It must end with every match
recorded once (none lost, none failed), each rated once, and every rating equal to a
sequential replay of the recorded results in the order they were rated.

As in production, the sweeper runs (here every few seconds, from the test process).
"""

from __future__ import annotations

import math
import time
from collections import defaultdict

import pytest

from arena.algorithms.live_ratings import rate_table
from arena.models import Match, MatchLog, Rating, RatingHistory, Replay, Tournament
from arena.services.matches import match_sweep_stuck
from arena.services.tournaments import tournament_create, tournament_start
from tests.arena import bots
from tests.workers.faults import require_postgresql, terminate_backends
from tests.workers.processes import use_broker

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.faults, pytest.mark.timeout(900)]

BOTS = 21  # 21 * 20 / 2 = 210 matches
FAST_RECOVERY = {
    "ARENA_BROKER_VISIBILITY_TIMEOUT_S": "5",
    "ARENA_MATCH_HEARTBEAT_S": "0.5",
    "ARENA_MATCH_STALE_S": "4",
}


def replayed_ratings() -> dict[int, tuple[float, float]]:
    """Every version's (mu, sigma) from the recorded results, applied one by one in the order
    the matches were rated (their RatingHistory ids)."""
    order = RatingHistory.objects.order_by("id").values_list("match_id", flat=True)
    seen: list[int] = []
    for match_id in order:
        if match_id not in seen:
            seen.append(match_id)
    matches = Match.objects.in_bulk(seen)
    ratings: dict[int, tuple[float, float]] = defaultdict(lambda: (25.0, 25.0 / 3))
    for match_id in seen:
        match = matches[match_id]
        seats = list(match.seats.order_by("seat"))
        new = rate_table(
            match.game, [ratings[s.version_id] for s in seats], [s.placing for s in seats]
        )
        for seat, rating in zip(seats, new, strict=True):
            ratings[seat.version_id] = rating
    return dict(ratings)


def test_a_tournament_survives_dropped_connections_a_killed_worker_and_a_paused_redis(
    transactional_db, make_bot, start_worker, private_redis, settings, owner
):
    require_postgresql()
    settings.ARENA_SWEEP_QUEUED_AFTER_S = 20
    started = time.monotonic()
    for number in range(BOTS):
        make_bot(f"random{number:02d}", bots.RANDOM)
    env = {**FAST_RECOVERY, "REDIS_URL": private_redis.url}
    with use_broker(private_redis.url, {"visibility_timeout": 5}):
        workers = [
            start_worker("w1", concurrency=2, **env),
            start_worker("w2", concurrency=2, **env),
        ]
        tournament = tournament_create(name="Faults", game="lie21", created_by=owner, seed=13)
        tournament = tournament_start(tournament_id=tournament.pk)  # 210 play_match messages
        total = tournament.matches.count()
        assert total == BOTS * (BOTS - 1) // 2

        faults = [
            (0.15, "drop connections", lambda: terminate_backends()),
            (0.30, "kill worker w1", lambda: workers[0].kill()),
            (0.35, "start worker w3", lambda: workers.append(start_worker("w3", **env))),
            (0.50, "pause redis 2 s", lambda: private_redis.pause(2000)),
            (0.70, "drop connections", lambda: terminate_backends()),
        ]
        injected: list[str] = []
        sweeps: dict[str, int] = defaultdict(int)
        last_sweep = time.monotonic()
        deadline = time.monotonic() + 600
        while True:
            done = tournament.matches.filter(status__in=("done", "failed")).count()
            while faults and done >= faults[0][0] * total:
                _, name, inject = faults.pop(0)
                result = inject()
                injected.append(f"{name} at {done}/{total}" + (f" ({result})" if result else ""))
            tournament.refresh_from_db()
            if tournament.status == Tournament.Status.FINISHED:
                break
            if time.monotonic() - last_sweep > 5:
                for key, count in match_sweep_stuck().items():
                    sweeps[key] += count
                last_sweep = time.monotonic()
            assert time.monotonic() < deadline, (
                f"{done}/{total} matches over after 600 s; faults: {injected}; "
                f"logs:\n" + "\n".join(w.log()[-3000:] for w in workers)
            )
            time.sleep(0.5)
    elapsed = time.monotonic() - started
    print(
        f"\nfault tournament: {total} matches in {elapsed:.1f} s; {injected}; sweeps {dict(sweeps)}"
    )
    assert not faults, f"faults not injected: {faults}"

    matches = list(tournament.matches.all())
    assert {m.status for m in matches} == {"done"}, [
        m.failure_reason for m in matches if m.status != "done"
    ]
    assert all(m.rated for m in matches)
    ids = [m.pk for m in matches]
    assert Replay.objects.filter(match_id__in=ids).count() == total
    assert MatchLog.objects.filter(match_id__in=ids).count() == 2 * total
    assert RatingHistory.objects.filter(match_id__in=ids).count() == 2 * total
    # Only the killed worker's matches were played again (at most one per pool process).
    replays = sum(m.attempts - 1 for m in matches)
    assert replays <= 2, [(m.pk, m.attempts, m.failure_reason) for m in matches if m.attempts > 1]

    expected = replayed_ratings()
    for rating in Rating.objects.filter(bot__name__startswith="random"):
        assert rating.matches == BOTS - 1
        mu, sigma = expected[rating.version_id]
        assert math.isclose(rating.mu, mu, abs_tol=1e-9), (rating.version_id, rating.mu, mu)
        assert math.isclose(rating.sigma, sigma, abs_tol=1e-9)
