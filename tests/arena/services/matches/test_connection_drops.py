"""Dropped database connections (``pg_terminate_backend``) never throw away a played match.

A server restart, a pgbouncer or a NAT idle timeout shorter than a match closes the
worker's connections under it. The heartbeat thread reconnects at its next beat, and the
recording retries with backoff on a fresh connection while the played replay waits in
memory: the match is recorded once, rated once, and never played a second time.
"""

from __future__ import annotations

import time

import pytest
from django.db import OperationalError, connection

from arena.models import Match, MatchLog, Rating, RatingHistory, Replay
from arena.services import sql
from arena.services.matches import claiming, match_create, match_play, playing
from tests.arena import bots
from tests.arena.recorded import match_queued
from tests.workers.faults import require_postgresql, terminate_backends
from tests.workers.processes import wait_for

pytestmark = pytest.mark.slow

FAST_BEAT = {"ARENA_MATCH_HEARTBEAT_S": "0.3", "ARENA_MATCH_STALE_S": "5"}


def queued_match(a, b) -> Match:
    """A queued match, not sent to any queue (the test plays it itself)."""
    return match_queued([a.active_version, b.active_version], seed=3, kind="ladder")


def spy_on_play(monkeypatch) -> list[int]:
    """The ids of the matches ``playing.play`` is called for, in order."""
    played: list[int] = []
    real_play = playing.play

    def play(match, limits=None):
        played.append(match.pk)
        return real_play(match, limits)

    monkeypatch.setattr(playing, "play", play)
    return played


def drop_connection_at_replay_insert(monkeypatch, times: int) -> list[float]:
    """The recording's connection dies under it as it inserts the replay, ``times`` times;
    the list gets the moment of each drop."""
    drops: list[float] = []
    insert = sql.insert

    def insert_or_drop(model, rows):
        if model is Replay and len(drops) < times:
            drops.append(time.monotonic())
            with connection.cursor() as cursor:  # this very connection dies under us
                cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")
        insert(model, rows)

    monkeypatch.setattr(sql, "insert", insert_or_drop)
    return drops


def assert_recorded_and_rated_once(match: Match, bots_: tuple) -> None:
    assert match.status == "done"
    assert match.rated
    assert match.attempts == 1, f"played {match.attempts} times: {match.failure_reason}"
    assert Replay.objects.filter(match=match).count() == 1
    assert MatchLog.objects.filter(match=match).count() == 2
    assert RatingHistory.objects.filter(match=match).count() == 2
    for bot in bots_:
        assert Rating.objects.get(bot=bot, current=True).matches == 1


@pytest.mark.redis
def test_a_real_worker_survives_its_connections_dropped_mid_match(redis, start_worker, make_bot):
    require_postgresql()
    sleepy, other = make_bot("sleepy", bots.SLEEPY), make_bot("steady")
    start_worker("w1", concurrency=1, **FAST_BEAT)
    # Seed 1: one game, about 3 s with the sleepy bot.
    match = match_create(
        versions=[sleepy.active_version, other.active_version], kind="ladder", seed=1
    )

    def beating() -> Match | None:
        row = Match.objects.get(pk=match.pk)
        return row if row.status == "running" and row.heartbeat_at > row.started_at else None

    running = wait_for(beating, timeout=30, what="the match to be under way")
    # Both the heartbeat thread's and the task's own connection are dropped mid-match.
    assert terminate_backends() >= 2
    dropped_at = Match.objects.get(pk=match.pk).heartbeat_at
    # The heartbeat reconnects: it beats again while the match still plays.
    wait_for(
        lambda: Match.objects.filter(pk=match.pk, heartbeat_at__gt=dropped_at).exists(),
        timeout=5,
        what="a heartbeat after the connections were dropped",
    )
    done = wait_for(
        lambda: Match.objects.filter(pk=match.pk, status__in=("done", "failed")).first(),
        timeout=60,
        what="the match to be recorded",
    )
    done = wait_for(
        lambda: Match.objects.filter(pk=done.pk, rated=True).first() or done.status == "failed",
        timeout=30,
        what="the match to be rated",
    )
    assert done is not True, done
    assert done.claimed_by == running.claimed_by
    assert_recorded_and_rated_once(done, (sleepy, other))


def test_recording_retries_when_the_connection_drops_while_it_records(
    transactional_db, make_bot, monkeypatch
):
    """In process: the backend is terminated inside the recording transaction (after its
    UPDATE, before the replay is written), twice; the third try records."""
    require_postgresql()
    monkeypatch.setattr(claiming, "record_backoff_s", lambda attempt: 0.05)
    a, b = make_bot("anna"), make_bot("bert")
    match = queued_match(a, b)
    drops = drop_connection_at_replay_insert(monkeypatch, times=2)
    played = spy_on_play(monkeypatch)
    recorded = match_play(match_id=match.pk, worker="test")
    assert len(drops) == 2
    assert played == [match.pk]  # played once; recorded on the third try
    assert recorded is not None and recorded.status == "done"
    assert_recorded_and_rated_once(Match.objects.get(pk=match.pk), (a, b))


def test_a_connection_dropped_right_after_the_claim_costs_no_attempt(
    transactional_db, make_bot, monkeypatch
):
    """Everything the match needs is read before the claim: a connection that dies just after
    it (as in a fault test's ``pg_terminate_backend``) is found at the recording, which
    reconnects; the match is played once, as its first attempt."""
    require_postgresql()
    monkeypatch.setattr(claiming, "record_backoff_s", lambda attempt: 0.05)
    a, b = make_bot("anna"), make_bot("bert")
    match = queued_match(a, b)
    real_claim = claiming.claim

    def claim_then_drop(*args, **kwargs):
        token = real_claim(*args, **kwargs)
        pid = connection.connection.info.backend_pid
        other = connection.copy()  # killed from outside: the worker learns it at its next query
        try:
            with other.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        finally:
            other.close()
        return token

    monkeypatch.setattr(claiming, "claim", claim_then_drop)
    played = spy_on_play(monkeypatch)
    recorded = match_play(match_id=match.pk, worker="test")
    assert played == [match.pk]
    assert recorded is not None and recorded.status == "done"
    assert_recorded_and_rated_once(Match.objects.get(pk=match.pk), (a, b))


def test_the_heartbeat_thread_reconnects(transactional_db, make_bot, settings):
    require_postgresql()
    settings.ARENA_MATCH_HEARTBEAT_S = 0.1
    match = queued_match(make_bot("anna"), make_bot("bert"))
    Match.objects.filter(pk=match.pk).update(status="running", claim_token="tok")
    with claiming.heartbeat(match.pk, "tok"):
        time.sleep(0.4)
        terminate_backends()  # the heartbeat thread's connection
        dropped = Match.objects.get(pk=match.pk).heartbeat_at
        wait_for(
            lambda: Match.objects.filter(pk=match.pk, heartbeat_at__gt=dropped).exists(),
            timeout=3,
            what="a beat on a new connection",
        )


def test_a_result_kept_on_disk_is_recorded_by_the_next_delivery(
    transactional_db, make_bot, monkeypatch, settings, tmp_path
):
    """The database stays away longer than the recording retries: the played result is
    kept on local disk, and the task's next delivery records it instead of playing again."""
    require_postgresql()
    settings.ARENA_RECORD_TRIES = 2
    settings.DATA_DIR = tmp_path / "data"
    monkeypatch.setattr(claiming, "record_backoff_s", lambda attempt: 0.05)
    a, b = make_bot("anna"), make_bot("bert")
    match = queued_match(a, b)
    drop_connection_at_replay_insert(monkeypatch, times=2)  # both tries of this delivery
    played = spy_on_play(monkeypatch)
    with pytest.raises(OperationalError):
        match_play(match_id=match.pk, worker="test")
    kept = settings.DATA_DIR / "unrecorded" / f"{match.pk}.json"
    assert kept.exists()
    assert Match.objects.get(pk=match.pk).status == "running"  # still our claim

    recorded = match_play(match_id=match.pk, worker="test")  # the task's retry
    assert played == [match.pk]  # not played again
    assert recorded is not None and recorded.status == "done"
    assert not kept.exists()
    assert_recorded_and_rated_once(Match.objects.get(pk=match.pk), (a, b))
