"""Many matches rated at once lose no update: the result equals rating them one by one.

Threads (each with its own database connection) call ``match_rate`` on matches that share
bots, all released together by a barrier, some matches twice (a redelivered task). The
final ratings must equal applying the same results sequentially in the order they were
applied (RatingHistory id order), and each history row must equal that replay's value at
its step. Meaningful on PostgreSQL (row locks); on SQLite writes are serialised anyway.
"""

from __future__ import annotations

import random
import threading
from collections import defaultdict

import pytest
from django.db import connections

from arena.algorithms.live_ratings import rate_table
from arena.models import Match, MatchSeat, Rating, RatingHistory
from arena.services.ratings import match_rate
from tests.arena.recorded import match_queued

THREADS = 8
MATCHES = 60


@pytest.fixture
def finished_matches(transactional_db, make_bot) -> list[Match]:
    """Two-seat Lie 21 matches and three-seat High Card (test game) tables, sharing bots."""
    pools = {
        "lie21": [make_bot(f"bot{i}") for i in range(6)],
        "highcard": [make_bot(f"hc{i}", game="highcard") for i in range(5)],
    }
    rng = random.Random(2024)
    created = []
    for number in range(MATCHES):
        game = "lie21" if number % 3 else "highcard"
        seats = 2 if game == "lie21" else 3
        bots = rng.sample(pools[game], seats)
        placings = [rng.randrange(seats) for _ in range(seats)]
        match = match_queued(
            [bot.active_version for bot in bots], seed=rng.randrange(1 << 40), status="done"
        )
        for seat, placing in enumerate(placings):
            MatchSeat.objects.filter(match=match, seat=seat).update(placing=placing)
        created.append(match)
    return created


def rate_concurrently(match_ids: list[int]) -> list[BaseException]:
    barrier = threading.Barrier(THREADS)
    errors: list[BaseException] = []
    chunks = [match_ids[i::THREADS] for i in range(THREADS)]

    def work(chunk: list[int]) -> None:
        try:
            barrier.wait()
            for match_id in chunk:
                match_rate(match_id=match_id)
        except BaseException as exc:  # reported by the test, not lost in the thread
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=work, args=(chunk,)) for chunk in chunks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return errors


@pytest.mark.slow
def test_concurrent_ratings_equal_rating_one_by_one_in_recorded_order(finished_matches):
    ids = [match.pk for match in finished_matches]
    doubled = ids + random.Random(7).sample(ids, 15)  # some redelivered rate_match tasks
    random.Random(1).shuffle(doubled)
    assert rate_concurrently(doubled) == []

    assert Match.objects.filter(rated=True).count() == MATCHES
    history = list(RatingHistory.objects.order_by("id"))
    assert len(history) == sum(match.seat_count for match in finished_matches)

    # Replay: apply each match's result in the order its history rows were written.
    order: list[int] = []
    for row in history:
        if row.match_id not in order:
            order.append(row.match_id)
    by_id = {match.pk: match for match in finished_matches}
    current: dict[int, tuple[float, float]] = defaultdict(lambda: (25.0, 25.0 / 3))
    expected_history = {}
    counts: dict[int, int] = defaultdict(int)
    for match_id in order:
        match = by_id[match_id]
        seats = list(match.seats.order_by("seat"))
        new = rate_table(
            match.game, [current[s.version_id] for s in seats], [s.placing for s in seats]
        )
        for seat, rating in zip(seats, new, strict=True):
            current[seat.version_id] = rating
            expected_history[(match_id, seat.version_id)] = rating
            counts[seat.version_id] += 1

    for row in history:
        key = (row.match_id, row.version_id)
        assert (row.mu, row.sigma) == pytest.approx(expected_history[key])
    for rating in Rating.objects.all():
        assert (rating.mu, rating.sigma) == pytest.approx(current[rating.version_id])
        assert rating.matches == counts[rating.version_id]
        assert rating.wins + rating.draws + rating.losses == rating.matches
