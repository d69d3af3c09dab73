"""Playing matches: the claim, exactly-once recording, bot faults, platform retries, sweeping."""

from __future__ import annotations

from datetime import timedelta

import pytest
from celery.exceptions import Retry
from django.utils import timezone

from arena.models import Match, MatchLog, MatchSeat, Rating, RatingHistory, Replay
from arena.services import matches as match_services
from arena.services import sql
from arena.services.matches import (
    MAX_ATTEMPTS,
    MatchBusy,
    PlatformError,
    claiming,
    match_create,
    match_play,
    match_sweep_stuck,
    playing,
    recording,
)
from arena.services.ratings import match_rate
from engine import replay as replay_io
from tests.arena import bots

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(make_bot) -> Match:
    a, b = make_bot("alpha", bots.CHATTY), make_bot("beta")
    return match_create(versions=[a.active_version, b.active_version], kind="ladder")


def stale(match: Match, *, attempts: int = 1) -> None:
    """Leave ``match`` as a worker that died mid-match would: running, silent for long."""
    long_ago = timezone.now() - timedelta(hours=1)
    Match.objects.filter(pk=match.pk).update(
        status="running", attempts=attempts, claim_token="dead", heartbeat_at=long_ago
    )


def test_it_plays_and_records_a_match(match, run_on_commit):
    with run_on_commit():
        played = match_play(match_id=match.pk, worker="w1")
    assert played.status == "done"
    assert played.attempts == 1
    assert played.claimed_by == "w1"
    assert played.claim_token == ""
    assert played.games_played >= 1
    seats = list(MatchSeat.objects.filter(match=played).order_by("seat"))
    assert sorted(seat.placing for seat in seats) in ([0, 1], [0, 0])
    assert sum(seat.score for seat in seats) > 0
    assert set(played.totals) == {"game_wins", "points", "sweeps"}
    replay = replay_io.loads(bytes(Replay.objects.get(match=played).data))
    assert replay["seed"] == played.seed
    assert [seat["name"] for seat in replay["seats"]] == ["alice/alpha", "alice/beta"]
    assert [seat["version"] for seat in replay["seats"]] == [1, 1]
    assert replay["scores"] == [seat.score for seat in seats]
    assert replay["placings"] == [seat.placing for seat in seats]
    logs = {log.seat: log for log in MatchLog.objects.filter(match=played)}
    assert "hello from the chatty bot" in logs[0].output
    assert logs[1].output == ""
    step = logs[0].steps[0]
    assert "hello from the chatty bot" in step["text"] and step["game"] >= 0, "filed by step"
    played.refresh_from_db()
    assert played.rated  # rate_match ran once the record committed
    assert RatingHistory.objects.filter(match=played).count() == 2


def test_a_bots_fault_is_a_result_not_a_failure(make_bot):
    crasher, other = make_bot("crasher", bots.CRASH_IN_ACT, valid=True), make_bot("other")
    created = match_create(versions=[other.active_version, crasher.active_version], kind="ladder")
    played = match_play(match_id=created.pk, worker="w1")
    assert played.status == "done"
    assert played.reason == "fault"
    winner, loser = MatchSeat.objects.filter(match=played).order_by("seat")
    assert (winner.placing, loser.placing) == (0, 1)
    assert (loser.fault, winner.fault) == ("crash", "")
    assert loser.fault_detail == "the bot raised RuntimeError in act()"
    log = MatchLog.objects.get(match=played, seat=1)
    assert "the secret strategy blew up" in log.traceback  # the owner's eyes only
    assert "secret" not in loser.fault_detail


def test_a_three_seat_match_plays_in_the_sandbox_and_a_crasher_is_placed_last(make_bot):
    """The test game High Card (three seats): the others play on after one crashes."""
    good = [make_bot(f"hc{i}", bots.HIGHCARD, game="highcard") for i in range(2)]
    crasher = make_bot("hc-crash", bots.CRASH_IN_ACT, game="highcard")
    versions = [good[0].active_version, crasher.active_version, good[1].active_version]
    played = match_play(match_id=match_create(versions=versions, kind="ladder").pk, worker="w1")
    assert played.status == "done" and played.seat_count == 3
    seats = list(MatchSeat.objects.filter(match=played).order_by("seat"))
    assert seats[1].placing == 2 and seats[1].fault == "crash"
    assert sorted(seat.placing for seat in (seats[0], seats[2])) in ([0, 1], [0, 0])
    replay = replay_io.loads(bytes(Replay.objects.get(match=played).data))
    assert replay["games_played"] == 3, "the two others played every game"
    assert RatingHistory.objects.filter(match=played).count() == 3


def test_a_second_claim_of_a_running_match_does_nothing(match):
    assert claiming.claim(match.pk, "w1") is not None
    with pytest.raises(MatchBusy) as busy:
        match_play(match_id=match.pk, worker="w2")
    assert 0 < busy.value.retry_in_s <= match_services.stale_after_s() + 1
    match.refresh_from_db()
    assert (match.status, match.attempts, match.claimed_by) == ("running", 1, "w1")
    assert not Replay.objects.exists()


def test_a_recorded_match_is_never_played_or_recorded_again(match):
    first = match_play(match_id=match.pk, worker="w1")
    assert match_play(match_id=match.pk, worker="w2") is None
    match.refresh_from_db()
    assert match.attempts == 1
    assert match.finished_at == first.finished_at
    assert Replay.objects.count() == 1
    assert MatchLog.objects.count() == 2


def test_a_redelivered_task_replays_a_match_whose_worker_died(match):
    stale(match)
    played = match_play(match_id=match.pk, worker="w2")
    assert played.status == "done"
    assert played.attempts == 2
    assert played.claimed_by == "w2"
    assert Replay.objects.count() == 1


def test_a_superseded_attempt_cannot_record(match):
    """The first attempt was only slow, not dead: its late result is thrown away."""
    slow_token = claiming.claim(match.pk, "slow")
    result, outputs = playing.play(Match.objects.get(pk=match.pk))
    Match.objects.filter(pk=match.pk).update(heartbeat_at=timezone.now() - timedelta(hours=1))
    assert match_play(match_id=match.pk, worker="fast").status == "done"
    played = recording.played_result(result, outputs)
    late = recording.record(Match.objects.get(pk=match.pk), slow_token, played)
    assert late is None
    match.refresh_from_db()
    assert (match.attempts, match.claimed_by) == (2, "fast")
    assert Replay.objects.count() == 1
    assert MatchLog.objects.count() == 2


def test_a_dead_last_attempt_marks_the_match_failed(match):
    stale(match, attempts=MAX_ATTEMPTS)
    failed = match_play(match_id=match.pk, worker="w2")
    assert failed.status == "failed"
    assert failed.failure_reason == "the worker playing it was lost 3 times"


def test_platform_errors_are_retried_then_the_match_fails(match, monkeypatch):
    def broken(match, limits=None):
        raise PlatformError("storage on fire")

    monkeypatch.setattr(playing, "play", broken)
    for attempt in (1, 2):
        with pytest.raises(PlatformError):
            match_play(match_id=match.pk, worker="w1")
        match.refresh_from_db()
        assert (match.status, match.attempts) == ("queued", attempt)
        assert match.failure_reason == f"attempt {attempt}: storage on fire"
    failed = match_play(match_id=match.pk, worker="w1")
    assert failed.status == "failed"
    assert failed.attempts == 3
    assert failed.failure_reason == "failed 3 times; last: storage on fire"
    assert not failed.rated
    assert not Replay.objects.exists()


def test_the_task_retries_platform_errors_with_backoff_then_gives_up(match, monkeypatch):
    from workers.tasks import play_match

    calls = []

    def broken(match, limits=None):
        calls.append(match.attempts)
        raise RuntimeError("the disk vanished")

    monkeypatch.setattr(playing, "play", broken)
    retries = []
    for _ in range(MAX_ATTEMPTS):
        try:  # eager mode hands each retry back to the caller instead of sleeping
            play_match.delay(match.pk)
        except Retry as retry:
            retries.append(retry)
    match.refresh_from_db()
    assert calls == [1, 2, 3]
    assert len(retries) == 2
    assert all(isinstance(retry.exc, PlatformError) for retry in retries)
    assert match.status == "failed"
    assert "RuntimeError: the disk vanished" in match.failure_reason


def test_an_unavailable_sandbox_is_a_platform_error(match, monkeypatch):
    monkeypatch.setenv("ARENA_SANDBOX_BWRAP", "/nonexistent/bwrap")
    with pytest.raises(PlatformError, match="sandbox unavailable"):
        match_play(match_id=match.pk, worker="w1")
    match.refresh_from_db()
    assert (match.status, match.attempts) == ("queued", 1)


def test_a_changed_file_in_storage_is_a_platform_error(match):
    version = match.seats.get(seat=0).version
    with version.file.open("wb") as handle:
        handle.write(b"def act(o):\n    return {}\n")
    with pytest.raises(PlatformError, match="does not match its sha256"):
        match_play(match_id=match.pk, worker="w1")


def test_a_worker_reads_a_version_from_storage_once_and_runs_the_bytes_it_checked(match):
    from arena.services.matches import playing

    version = match.seats.get(seat=0).version
    checked = playing.version_bytes(version)
    with version.file.open("wb") as handle:  # changed in storage after the first read
        handle.write(b"def act(o):\n    return {}\n")
    assert playing.version_bytes(version) == checked  # no second read: the checked bytes
    playing.version_cache_clear()
    with pytest.raises(PlatformError, match="does not match its sha256"):
        playing.version_bytes(version)  # read again, checked again


def test_the_version_cache_keeps_the_most_recently_used_within_its_bytes(match, monkeypatch):
    from arena.services.matches import playing

    first, second = (seat.version for seat in match.seats.order_by("seat"))
    sizes = len(playing.version_bytes(first)) + len(playing.version_bytes(second))
    monkeypatch.setattr(playing, "VERSION_CACHE_BYTES", sizes - 1)  # room for one of them
    playing.version_cache_clear()
    playing.version_bytes(first)
    playing.version_bytes(second)  # pushes the first out
    assert list(playing._version_cache) == [(second.pk, second.sha256)]


def test_match_create_refuses_a_bot_against_itself(make_bot):
    from arena.errors import InvalidInput

    bot = make_bot("solo")
    with pytest.raises(InvalidInput):
        match_create(versions=[bot.active_version, bot.active_version], kind="ladder")


@pytest.mark.parametrize("count", [1, 5])
def test_match_create_refuses_a_table_the_game_cannot_seat(make_bot, count):
    from arena.errors import InvalidInput

    versions = [make_bot(f"hc{i}", game="highcard").active_version for i in range(count)]
    with pytest.raises(InvalidInput, match="played by 2-4 bots"):
        match_create(versions=versions, kind="ladder")


def test_match_create_refuses_bots_of_another_game(make_bot):
    from arena.errors import InvalidInput

    versions = [make_bot("l").active_version, make_bot("h", game="highcard").active_version]
    with pytest.raises(InvalidInput, match="same game"):
        match_create(versions=versions, kind="ladder")


class TestSweeper:
    def test_it_requeues_a_match_left_running_by_a_dead_worker(self, match, run_on_commit):
        stale(match)
        with run_on_commit() as sent:
            counts = match_sweep_stuck()
        assert counts["reclaimed"] == 1
        assert sent[0].args[:2] == ("play_match", (match.pk,))  # run eagerly here
        match.refresh_from_db()
        assert (match.status, match.attempts) == ("done", 2)

    def test_it_leaves_a_match_with_a_fresh_heartbeat_alone(self, match):
        claiming.claim(match.pk, "alive")
        assert match_sweep_stuck()["reclaimed"] == 0
        match.refresh_from_db()
        assert match.status == "running"

    def test_it_fails_a_match_whose_last_attempt_died(self, match):
        stale(match, attempts=MAX_ATTEMPTS)
        assert match_sweep_stuck()["failed"] == 1
        match.refresh_from_db()
        assert match.status == "failed"

    def test_it_resends_a_long_queued_match_once_per_grace_period(self, match, settings):
        settings.ARENA_SWEEP_QUEUED_AFTER_S = 600
        Match.objects.filter(pk=match.pk).update(created=timezone.now() - timedelta(hours=1))
        assert match_sweep_stuck()["requeued"] == 1
        assert match_sweep_stuck()["requeued"] == 0  # touched: not again for 10 minutes

    def test_it_does_not_resend_a_fresh_queued_match(self, match):
        assert match_sweep_stuck()["requeued"] == 0

    def test_it_rates_a_match_whose_rating_failed_and_whose_retry_was_lost(
        self, match, run_on_commit, monkeypatch
    ):
        def lock_timeout(**kwargs):
            raise RuntimeError("lock timeout")

        monkeypatch.setattr(recording, "match_rate_locked", lock_timeout)
        # Recorded without its rating; the rate_match message is never sent (no commit hook).
        played = match_play(match_id=match.pk, worker="w1")
        assert played.status == "done"
        assert not Match.objects.get(pk=played.pk).rated
        monkeypatch.undo()
        assert match_sweep_stuck()["unrated"] == 0  # recorded just now: give it a minute
        Match.objects.filter(pk=played.pk).update(finished_at=timezone.now() - timedelta(minutes=5))
        with run_on_commit():
            assert match_sweep_stuck()["unrated"] == 1
        assert Match.objects.get(pk=played.pk).rated
        assert RatingHistory.objects.filter(match=played).count() == 2

    def test_a_rating_that_fails_half_way_writes_no_rating_on_the_seats(
        self, match, run_on_commit, monkeypatch
    ):
        """The rating sets each seat's before/after values, then its history write fails: the
        result commits with the placings, and neither those values nor the ratings change
        until the match is rated again."""

        insert = sql.insert

        def broken(model, rows):
            if model is RatingHistory:
                raise RuntimeError("history table locked")
            insert(model, rows)

        before = {r.version_id: (r.mu, r.matches) for r in Rating.objects.all()}
        monkeypatch.setattr(sql, "insert", broken)
        played = match_play(match_id=match.pk, worker="w1")
        monkeypatch.undo()
        assert all(seat.mu_before is None for seat in played.seats.all())  # as returned
        seats = list(MatchSeat.objects.filter(match=played).order_by("seat"))
        assert sorted(seat.placing for seat in seats) == [0, 1]
        assert all(seat.mu_before is None and seat.mu_after is None for seat in seats)
        assert {r.version_id: (r.mu, r.matches) for r in Rating.objects.all()} == before
        assert not Match.objects.get(pk=played.pk).rated
        with run_on_commit():
            match_rate(match_id=played.pk)
        seats = list(MatchSeat.objects.filter(match=played).order_by("seat"))
        assert all(seat.mu_before is not None and seat.mu_after is not None for seat in seats)
        assert RatingHistory.objects.filter(match=played).count() == 2


def test_it_removes_match_directories_left_by_a_killed_worker(tmp_path, monkeypatch):
    import os
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    old = tmp_path / "arena-match-7-abc"
    (old / "seat0").mkdir(parents=True)
    (old / "seat0" / "bot.py").write_text("def act(o): pass\n")
    os.utime(old, (0, 0))
    fresh = tmp_path / "arena-match-8-def"
    fresh.mkdir()
    other = tmp_path / "someone-else"
    other.mkdir()
    os.utime(other, (0, 0))
    assert match_services.match_workdirs_sweep(older_than_s=3600) == 1
    assert not old.exists()
    assert fresh.exists()
    assert other.exists()


def test_bots_get_seeds_keyed_with_the_server_secret(match, run_on_commit, settings):
    from engine import derive_seed

    with run_on_commit():
        played = match_play(match_id=match.pk, worker="w1")
    replay = replay_io.loads(bytes(Replay.objects.get(match=played).data))
    seeds = [seat["bot_seed"] for seat in replay["seats"]]
    assert seeds == match_services.bot_seeds(played.seed)
    guessable = [derive_seed(played.seed, "bot", seat) for seat in (0, 1)]
    assert seeds != guessable
    settings.ARENA_SEED_KEY = "another server"
    assert match_services.bot_seeds(played.seed) != seeds
