"""A worker killed with SIGKILL in the middle of a match: the match is played again by
another worker, recorded once, and rated once.

The message comes back from Redis after the broker's visibility timeout (set short here);
the new worker's claim sees the row ``running`` with a stale heartbeat (the dead attempt
stopped beating) and takes it over with a new claim token.
"""

from __future__ import annotations

import time

import pytest
from django.utils import timezone

from arena.models import Match, MatchLog, Rating, RatingHistory, Replay
from arena.services.matches import match_create
from tests.arena import bots
from tests.workers.processes import wait_for

pytestmark = [pytest.mark.redis, pytest.mark.slow]

# Short enough to keep the test quick; the production defaults are 900 s, 10 s and 60 s.
FAST_RECOVERY = {
    "ARENA_BROKER_VISIBILITY_TIMEOUT_S": "3",
    "ARENA_MATCH_HEARTBEAT_S": "0.5",
    "ARENA_MATCH_STALE_S": "3",
}


def test_a_match_whose_worker_was_killed_is_played_again_and_counted_once(
    redis, start_worker, make_bot
):
    sleepy, other = make_bot("sleepy", bots.SLEEPY), make_bot("steady")
    first = start_worker("doomed", concurrency=1, **FAST_RECOVERY)
    # Seed 1: one game, about 3 s with the sleepy bot; it is killed about 0.5 s in.
    match = match_create(
        versions=[sleepy.active_version, other.active_version], kind="ladder", seed=1
    )  # queued on commit: transactional_db commits at once

    def beating() -> Match | None:
        row = Match.objects.get(pk=match.pk)
        return row if row.status == "running" and row.heartbeat_at > row.started_at else None

    running = wait_for(beating, timeout=30, what="the match to be under way")
    assert running.claimed_by.startswith("doomed@")
    first.kill()  # mid-match: the sleepy bot needs several seconds for a match

    running.refresh_from_db()
    assert running.status == "running"  # nobody recorded anything
    assert not Replay.objects.exists()

    # Redis hands an unacknowledged message out again once it is older than the visibility
    # timeout; a starting worker looks for such messages straight away.
    age = (timezone.now() - running.started_at).total_seconds()
    time.sleep(max(0.0, float(FAST_RECOVERY["ARENA_BROKER_VISIBILITY_TIMEOUT_S"]) + 0.5 - age))
    start_worker("rescuer", concurrency=1, **FAST_RECOVERY)
    done = wait_for(
        lambda: Match.objects.filter(pk=match.pk, status="done", rated=True).first(),
        timeout=60,
        what="the match to be played again and rated",
    )
    assert done.attempts == 2
    assert done.claimed_by.startswith("rescuer@")
    assert Replay.objects.filter(match=done).count() == 1
    assert MatchLog.objects.filter(match=done).count() == 2
    assert RatingHistory.objects.filter(match=done).count() == 2
    for bot in (sleepy, other):
        rating = Rating.objects.get(bot=bot, current=True)
        assert rating.matches == 1
        assert rating.wins + rating.draws + rating.losses == 1
