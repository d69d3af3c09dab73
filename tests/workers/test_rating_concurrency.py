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

from arena.models import Match, Rating, RatingHistory
from arena.services.ratings import match_rate, rating_apply

THREADS = 8
MATCHES = 60


@pytest.fixture
def finished_matches(transactional_db, make_bot) -> list[Match]:
    bots = [make_bot(f"bot{i}") for i in range(6)]
    rng = random.Random(2024)
    created = []
    for _ in range(MATCHES):
        a, b = rng.sample(bots, 2)
        created.append(
            Match.objects.create(
                version_a=a.active_version,
                version_b=b.active_version,
                bot_a=a,
                bot_b=b,
                seed=rng.randrange(1 << 40),
                status="done",
                outcome=rng.choice(["a", "b", "draw"]),
                reason="match_points",
            )
        )
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


def test_concurrent_ratings_equal_rating_one_by_one_in_recorded_order(finished_matches):
    ids = [match.pk for match in finished_matches]
    doubled = ids + random.Random(7).sample(ids, 15)  # some redelivered rate_match tasks
    random.Random(1).shuffle(doubled)
    assert rate_concurrently(doubled) == []

    assert Match.objects.filter(rated=True).count() == MATCHES
    history = list(RatingHistory.objects.order_by("id"))
    assert len(history) == 2 * MATCHES

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
        new_a, new_b = rating_apply(current[match.bot_a_id], current[match.bot_b_id], match.outcome)
        current[match.bot_a_id], current[match.bot_b_id] = new_a, new_b
        expected_history[(match_id, match.bot_a_id)] = new_a
        expected_history[(match_id, match.bot_b_id)] = new_b
        counts[match.bot_a_id] += 1
        counts[match.bot_b_id] += 1

    for row in history:
        assert (row.mu, row.sigma) == pytest.approx(expected_history[(row.match_id, row.bot_id)])
    for rating in Rating.objects.all():
        assert (rating.mu, rating.sigma) == pytest.approx(current[rating.bot_id])
        assert rating.matches == counts[rating.bot_id]
        assert rating.wins + rating.draws + rating.losses == rating.matches
