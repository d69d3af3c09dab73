"""Creating matches and playing them exactly once, however often their task is delivered.

A ``play_match`` task may arrive twice (a redelivered message, the sweeper, a retry) or die
half-way (a killed worker). Playing is therefore a claim, a game and a guarded record:

1. **Claim** with one conditional ``UPDATE``: ``queued`` (or ``running`` with a stale
   heartbeat, i.e. left by a dead attempt) becomes ``running`` with ``attempts + 1`` and a
   fresh ``claim_token``. Only the caller whose update changed exactly one row plays.
2. **Play** in the sandbox while a heartbeat thread refreshes ``heartbeat_at``, so a living
   attempt is never taken over, and a dead one is after ``ARENA_MATCH_STALE_S``.
3. **Record** in one transaction that starts with ``UPDATE ... WHERE claim_token = mine AND
   status = running``: the result, the replay and the bots' logs are written only if that
   update changed one row. A superseded attempt (its token replaced by a later claim) finds
   nothing to update and throws its result away, so a match is never recorded twice.

A dropped database connection (a server restart, a pgbouncer or NAT idle timeout shorter
than a match) never throws a played match away: the heartbeat thread reconnects at its
next beat, and the recording is retried on a fresh connection with backoff
(:data:`RECORD_TRIES_DEFAULT` tries, about four minutes in all) while the result waits in
memory and the heartbeat keeps the claim alive; past that, the result is kept on local
disk for the task's next delivery (``arena.services.unrecorded``). The match is not played
again because recording failed.

A bot's fault is a result (the engine turns it into a lost match). Anything else that stops
a match is the platform's fault: the claim is released and :class:`PlatformError` asks the
task to retry with backoff; the third failed attempt marks the match ``failed``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import logging
import os
import secrets
import shutil
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import InterfaceError, OperationalError, connections, transaction
from django.db.models import F, Q
from django.utils import timezone

import engine
from arena.config import env_float
from arena.models import BotVersion, Match, MatchLog, Replay
from arena.services.dispatch import enqueue
from arena.services.errors import InvalidInput
from arena.services.ratings import match_rate_locked
from arena.services.unrecorded import unrecorded_forget, unrecorded_keep, unrecorded_take
from engine import replay as replay_io

if TYPE_CHECKING:
    from sandbox import Limits, SandboxConfig

__all__ = [
    "MAX_ATTEMPTS",
    "MatchBusy",
    "PlatformError",
    "match_create",
    "match_engine_kwargs",
    "match_limits",
    "match_play",
    "match_sweep_stuck",
    "match_workdirs_sweep",
    "sandbox_config",
    "version_bytes",
    "version_materialize",
]

log = logging.getLogger(__name__)

#: A match whose third attempt fails for a platform reason is marked failed.
MAX_ATTEMPTS = 3
#: Bot files of a match in play (or a version in validation) are copied under a temporary
#: directory named like this.
WORKDIR_PREFIX = "arena-match-"
WORKDIR_PREFIXES = (WORKDIR_PREFIX, "arena-version-")
#: Matches not yet finished: what a tournament waits for and the ladder counts.
OPEN_STATUSES = (Match.Status.QUEUED, Match.Status.RUNNING)
#: A connection that went away: worth a fresh connection and another try.
CONNECTION_LOST = (OperationalError, InterfaceError)
#: Tries to record a played match before giving up (``ARENA_RECORD_TRIES``); with
#: :func:`record_backoff_s` between them, 14 tries span about 4 minutes (241.5 s).
RECORD_TRIES_DEFAULT = 14


class PlatformError(Exception):
    """The platform (sandbox, storage, database) failed: retry later, blame no bot."""


class MatchBusy(Exception):
    """Another attempt holds the match and looks alive; ask again in ``retry_in_s``."""

    def __init__(self, match_id: int, retry_in_s: float) -> None:
        super().__init__(f"match {match_id} is being played by another attempt")
        self.retry_in_s = retry_in_s


def _seconds(name: str, default: float) -> float:
    """A duration from settings, else from the environment (workers read it from either)."""
    value = getattr(settings, name, None)
    return float(value) if value is not None else env_float(name, default)


def heartbeat_interval_s() -> float:
    return _seconds("ARENA_MATCH_HEARTBEAT_S", 10.0)


def stale_after_s() -> float:
    """How long a running attempt may stay silent before it is presumed dead."""
    return _seconds("ARENA_MATCH_STALE_S", 60.0)


def record_tries() -> int:
    return max(1, int(_seconds("ARENA_RECORD_TRIES", RECORD_TRIES_DEFAULT)))


def record_backoff_s(attempt: int) -> float:
    """Wait before recording try ``attempt + 1``: 0.5 s, 1 s, 2 s ... capped at 30 s."""
    return min(30.0, 0.5 * 2 ** (attempt - 1))


def _drop_broken_connection() -> None:
    """Close this thread's default connection after an error, so the next query reconnects.

    Django reconnects by itself only around requests and tasks (``close_old_connections``);
    a connection the server terminated in the middle of one stays broken until closed.
    """
    conn = connections["default"]
    if conn.in_atomic_block:
        return  # the caller's transaction (a test, a shell): not ours to close
    try:
        conn.close()
    except Exception:  # closing a dead socket may itself complain; it is closed either way
        log.debug("closing a broken connection failed", exc_info=True)


def match_limits() -> Limits:
    """The sandbox limits of a match: ``ARENA_MOVE_TIMEOUT_S``, ``ARENA_TIME_BANK_S`` (CPU),
    ``ARENA_MOVE_WALL_S``, ``ARENA_WALL_BANK_S``, ``ARENA_MATCH_WALL_S`` (wall clock)."""
    from sandbox import Limits

    return Limits(
        move_timeout_s=settings.ARENA_MOVE_TIMEOUT_S,
        time_bank_s=settings.ARENA_TIME_BANK_S,
        move_wall_s=settings.ARENA_MOVE_WALL_S,
        wall_bank_s=settings.ARENA_WALL_BANK_S,
        match_wall_s=settings.ARENA_MATCH_WALL_S,
    )


def bot_seeds(match_seed: int) -> list[int]:
    """The seeds the two bots of a match are given, keyed with the server's secret.

    A seed derived from the match seed alone could be searched back to the match seed (and
    every deck of the match) by a bot when the match seed is small or known, as tournament
    seeds are. Keyed with ``ARENA_SEED_KEY`` it tells the bot nothing; the replay records
    them once the match is over.
    """
    key = settings.ARENA_SEED_KEY.encode()
    seeds = []
    for seat in (0, 1):
        digest = hmac.new(key, f"{match_seed}:bot:{seat}".encode(), "sha256").digest()
        seeds.append(int.from_bytes(digest[:8], "big") % (1 << 53))
    return seeds


def match_engine_kwargs(seed: int) -> dict[str, Any]:
    """What ``engine.play_match`` is given besides the game and the players.

    The same for every match a bot plays (ladder, tournament or validation), so what
    ``on_match_start`` receives (options, limits, a keyed seed) never tells a bot which
    kind of match it is in. Default match options: no kind of match changes the rules.
    """
    limits = match_limits()
    return {
        "seed": seed,
        "bot_seeds": bot_seeds(seed),
        "limits": limits.time_limits(),
    }


def new_seed() -> int:
    """A fresh match seed, exact as a JSON number (53 bits, like engine.derive_seed)."""
    return secrets.randbits(53)


# --- creating -----------------------------------------------------------------------------


def match_create(
    *,
    version_a: BotVersion,
    version_b: BotVersion,
    kind: str,
    tournament: Any = None,
    seed: int | None = None,
) -> Match:
    """Create a queued match between two valid versions and queue it once committed."""
    if version_a.bot_id == version_b.bot_id:
        raise InvalidInput("a bot cannot play against itself", code="same_bot")
    game = version_a.bot.game
    if version_b.bot.game != game:
        raise InvalidInput("both bots must play the same game", code="game_mismatch")
    if not version_a.status == version_b.status == BotVersion.Status.VALID:
        raise InvalidInput("both versions must be valid to play", code="version_not_valid")
    if kind not in Match.Kind.values:
        raise InvalidInput(f"unknown match kind {kind!r}", code="bad_kind")
    match = Match.objects.create(
        game=game,
        kind=kind,
        tournament=tournament,
        version_a=version_a,
        version_b=version_b,
        bot_a_id=version_a.bot_id,
        bot_b_id=version_b.bot_id,
        seed=new_seed() if seed is None else seed,
    )
    enqueue("play_match", match.pk)
    return match


# --- claiming -----------------------------------------------------------------------------


def _claim(
    match_id: int, worker: str, *, attempts: int | None = None, token: str | None = None
) -> str | None:
    """Take the match for one attempt; the claim token, or None if someone else holds it.

    With ``attempts`` (as the caller read the row) the claim also requires the row to be
    unchanged since that read, so the caller's copy is exact once the claim succeeds.
    """
    now = timezone.now()
    stale = now - timedelta(seconds=stale_after_s())
    dead_attempt = Q(status=Match.Status.RUNNING) & (
        Q(heartbeat_at__lt=stale) | Q(heartbeat_at__isnull=True)
    )
    token = token or uuid.uuid4().hex
    rows = Match.objects.filter(
        Q(status=Match.Status.QUEUED) | dead_attempt, pk=match_id, attempts__lt=MAX_ATTEMPTS
    )
    if attempts is not None:
        rows = rows.filter(attempts=attempts)
    changed = rows.update(
        status=Match.Status.RUNNING,
        attempts=F("attempts") + 1,
        claim_token=token,
        claimed_by=worker[:64],
        started_at=now,
        heartbeat_at=now,
    )
    return token if changed == 1 else None


def _claim_retrying(match_id: int, worker: str, *, attempts: int) -> str | None:
    """:func:`_claim`, again on a fresh connection if the connection was lost.

    A claim whose commit reached the server but whose answer was lost is ours all the same:
    the row then holds our token, and the match is played by this attempt (not claimed a
    second time after the heartbeat went stale, which would count a play for nothing).
    """
    token = uuid.uuid4().hex
    tries = 0

    def claim() -> str | None:
        nonlocal tries
        tries += 1
        if tries > 1 and Match.objects.filter(pk=match_id, claim_token=token).exists():
            return token  # an earlier try did claim it
        return _claim(match_id, worker, attempts=attempts, token=token)

    return _retrying(claim, match_id, what="claim")


def _not_claimed(match_id: int) -> Match | None:
    """Why the claim failed: finished (None), busy (MatchBusy), or dead too often (failed)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != Match.Status.RUNNING:
        return None  # done, failed, or deleted: a redelivered task has nothing to do
    age = (timezone.now() - match.heartbeat_at).total_seconds() if match.heartbeat_at else 1e9
    if age < stale_after_s():
        raise MatchBusy(match_id, retry_in_s=stale_after_s() - age + 1)
    # The last allowed attempt died with its worker: give up on the match.
    return _fail(match, match.claim_token, f"the worker playing it was lost {match.attempts} times")


def _beat_once(match_id: int, token: str) -> None:
    """One heartbeat; on a lost connection, reconnect and try once more at once."""
    for attempt in (1, 2):
        try:
            Match.objects.filter(
                pk=match_id, claim_token=token, status=Match.Status.RUNNING
            ).update(heartbeat_at=timezone.now())
            return
        except CONNECTION_LOST as exc:
            _drop_broken_connection()  # the next query opens a fresh connection
            if attempt == 2:
                raise
            log.warning("match=%s heartbeat reconnecting after: %s", match_id, exc)


@contextmanager
def _heartbeat(match_id: int, token: str) -> Iterator[None]:
    """Refresh ``heartbeat_at`` from a thread while the match plays and is recorded.

    The thread has its own connection; when the server drops it, the beat reconnects (a
    missed beat is survivable: the claim goes stale only after ``ARENA_MATCH_STALE_S``).
    """
    stop = threading.Event()
    interval = heartbeat_interval_s()

    def beat() -> None:
        try:
            while not stop.wait(interval):
                try:
                    _beat_once(match_id, token)
                except Exception:  # a missed beat is survivable; the next one may work
                    log.warning("match=%s heartbeat failed", match_id, exc_info=True)
        finally:
            connections.close_all()  # this thread's own connections

    thread = threading.Thread(target=beat, name=f"heartbeat-{match_id}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=interval + 5)


# --- playing ------------------------------------------------------------------------------


def sandbox_config() -> SandboxConfig:
    """This host's sandbox settings, checked: a host that cannot sandbox is a platform error
    (the task is retried, maybe on another worker), never the bot's fault."""
    from sandbox import SandboxConfig, SandboxError, check_available

    try:
        config = SandboxConfig.from_env()
        if "ARENA_SANDBOX_SPIN_US" not in os.environ:
            # A worker runs a match per core: a host spinning for replies would take CPU
            # from the bots of the other matches.
            config = dataclasses.replace(config, spin_us=0)
        check_available(config)
    except SandboxError as exc:
        raise PlatformError(f"sandbox unavailable: {exc}") from None
    return config


def version_bytes(version: BotVersion) -> bytes:
    """The stored file of a version, checked against its sha256.

    A file that changed in storage is a platform problem, not something to run.
    """
    try:
        with version.file.open("rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise PlatformError(f"cannot read the file of version {version.pk}: {exc}") from None
    if hashlib.sha256(data).hexdigest() != version.sha256:
        raise PlatformError(f"the stored file of version {version.pk} does not match its sha256")
    return data


def version_materialize(version: BotVersion, directory: Path) -> Path:
    """Write a stored version's files into ``directory``; returns the directory."""
    data = version_bytes(version)
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    if version.kind == BotVersion.Kind.PY:
        # Checked at upload and validation; the checksum says it is the same file.
        (directory / "bot.py").write_bytes(data)
        return directory
    try:
        # The same unpacking the upload check ran, so an accepted zip always unpacks.
        engine.unpack_bot(version.filename or "bot.zip", data, directory)
    except engine.BotFileError as exc:
        raise PlatformError(f"version {version.pk} cannot be unpacked: {exc}") from None
    return directory


def _play(match: Match) -> tuple[engine.MatchResult, list[str]]:
    """Play the match in the sandbox; the result and each seat's captured output."""
    from sandbox import SandboxedPlayer

    limits = match_limits()
    config = sandbox_config()
    versions = (match.version_a, match.version_b)
    with tempfile.TemporaryDirectory(prefix=f"{WORKDIR_PREFIX}{match.pk}-") as tmp:
        players = [
            SandboxedPlayer(
                str(version.bot),
                version_materialize(version, Path(tmp) / f"seat{seat}"),
                limits=limits,
                config=config,
            )
            for seat, version in enumerate(versions)
        ]
        try:
            result = engine.play_match(match.game, players, **match_engine_kwargs(match.seed))
            outputs = [player.output() for player in players]
        finally:
            for player in players:
                player.close()  # play_match closes them too; close() is idempotent
    return result, outputs


def match_play(*, match_id: int, worker: str) -> Match | None:
    """Claim, play and record one match; None when there was nothing to do.

    Raises :class:`MatchBusy` when a living attempt holds the match (ask again later) and
    :class:`PlatformError` when this attempt failed for a platform reason and the match went
    back to the queue (retry with backoff). A match that exhausted its attempts is returned
    with status ``failed``.
    """
    # Read first, claim second: the read needs no lock, so the claim's write is short.
    match = (
        Match.objects.select_related("version_a__bot__owner", "version_b__bot__owner")
        .filter(pk=match_id)
        .first()
    )
    if match is None:
        return None
    kept = unrecorded_take(match_id)
    if kept is not None:  # played here before, but the database was away too long
        recorded = _record_kept(match, *kept)
        if recorded is not None:
            return recorded
        match.refresh_from_db()
    token = _claim_retrying(match_id, worker, attempts=match.attempts)
    if token is None:
        return _not_claimed(match_id)
    # What the claim wrote, mirrored on our copy (the claim required it to be unchanged).
    match.status, match.claim_token, match.claimed_by = Match.Status.RUNNING, token, worker[:64]
    match.attempts += 1
    match.started_at = timezone.now()
    # The heartbeat runs until the result is recorded: a recording that waits for the
    # database to come back keeps its claim, so nobody plays the match again meanwhile.
    with _heartbeat(match_id, token):
        try:
            result, outputs = _play(match)
        except Exception as exc:  # whatever it was, it was not a bot's fault
            reason = str(exc) if isinstance(exc, PlatformError) else f"{type(exc).__name__}: {exc}"
            if not isinstance(exc, PlatformError):
                log.exception(
                    "match=%s attempt=%s failed on the platform", match_id, match.attempts
                )
            return _retrying(lambda: _attempt_failed(match, token, reason[:1000]), match_id)
        return _record_or_keep(match, token, _played(result, outputs))


def _record_or_keep(match: Match, token: str, played: dict[str, Any]) -> Match | None:
    """Record with retries; if the database stays away, keep the result on local disk."""
    try:
        return _record_retrying(match, token, played)
    except CONNECTION_LOST:
        path = unrecorded_keep(match.pk, token, played)
        log.error("match=%s not recorded (database away); result kept in %s", match.pk, path)
        raise


def _record_kept(match: Match, token: str, played: dict[str, Any]) -> Match | None:
    """Record a result kept on disk by an earlier delivery, if its claim still holds."""
    if match.status != Match.Status.RUNNING or match.claim_token != token:
        log.warning("match=%s kept result superseded (status %s); removed", match.pk, match.status)
        unrecorded_forget(match.pk)
        return None
    with _heartbeat(match.pk, token):
        recorded = _record_or_keep(match, token, played)
    unrecorded_forget(match.pk)
    if recorded is not None:
        log.info("match=%s recorded from the result kept on disk", match.pk)
    return recorded


def _retrying(write: Any, match_id: int, *, what: str = "write") -> Any:
    """Run ``write()`` (one transaction); on a lost connection reconnect and try again.

    At most :func:`record_tries` tries, :func:`record_backoff_s` apart; the last failure
    is raised (the task then retries with its own backoff).
    """
    tries = record_tries()
    for attempt in range(1, tries + 1):
        try:
            return write()
        except CONNECTION_LOST as exc:
            if connections["default"].in_atomic_block or attempt == tries:
                raise
            wait = record_backoff_s(attempt)
            log.warning(
                "match=%s %s try %d/%d lost its connection (%s); again in %.1f s",
                match_id,
                what,
                attempt,
                tries,
                str(exc).strip()[:200],
                wait,
            )
            _drop_broken_connection()
            time.sleep(wait)
    raise AssertionError("unreachable")  # pragma: no cover


def _record_retrying(match: Match, token: str, played: dict[str, Any]) -> Match | None:
    """Record a played match, retrying on lost connections; never play it again for that.

    A try whose commit reached the server but whose answer was lost looks, on the next
    try, like a superseded attempt (no running row with our token): the row read back
    then tells whether the match is recorded.
    """
    tries = 0

    def write() -> Match | None:
        nonlocal tries
        tries += 1
        recorded = _record(match, token, played)
        if recorded is None and tries > 1:
            again = Match.objects.filter(pk=match.pk, status=Match.Status.DONE).first()
            if again is not None:
                log.info("match=%s was recorded by an earlier try", match.pk)
                return again
        return recorded

    return _retrying(write, match.pk, what="recording")


def _rate_now_or_later(match: Match) -> None:
    """Rate the match inside the recording transaction; queue ``rate_match`` if that fails.

    Rating in the same commit saves a task, a transaction and two queries per match. A
    failure here (a lock timeout, say) is kept to its savepoint: the result still commits,
    and the match is rated later by the ``rate_match`` task (or the sweeper, should the
    message be lost).
    """
    try:
        with transaction.atomic():
            match_rate_locked(match=match, mark_rated=False)  # the record already did
    except CONNECTION_LOST:
        if _connection_gone():
            raise  # the whole recording transaction is lost: it is retried as a whole
        _rate_later(match)
    except Exception:
        _rate_later(match)


def _pause_if_faulty(version_id: int) -> None:
    """Apply the ladder's pause rule to the version whose fault ended this match."""
    from arena.services.ladder import version_pause_if_faulty  # ladder imports this module

    version_pause_if_faulty(version_id=version_id)


def _rate_later(match: Match) -> None:
    log.warning("match=%s rating failed here; queued for later", match.pk, exc_info=True)
    Match.objects.filter(pk=match.pk).update(rated=False)
    match.rated = False
    enqueue("rate_match", match.pk)


def _connection_gone() -> bool:
    """Whether this thread's connection was closed under it (not a mere lock timeout)."""
    raw = connections["default"].connection
    return raw is None or bool(getattr(raw, "closed", False) or getattr(raw, "broken", False))


# --- recording ----------------------------------------------------------------------------


def _result_fields(result: engine.MatchResult) -> dict[str, Any]:
    error = result.error
    return {
        "outcome": {0: Match.Outcome.A, 1: Match.Outcome.B}.get(result.winner, Match.Outcome.DRAW),
        "reason": result.reason[:16],
        "match_points_a": result.match_points[0],
        "match_points_b": result.match_points[1],
        "game_wins_a": result.game_wins[0],
        "game_wins_b": result.game_wins[1],
        "points_a": result.points[0],
        "points_b": result.points[1],
        "sweeps_a": result.sweeps[0],
        "sweeps_b": result.sweeps[1],
        "games_played": result.games_played,
        "error_kind": error.kind[:16] if error else "",
        "error_seat": error.seat if error else None,
        "error_detail": error.detail[:500] if error else "",
        "duration_s": round(result.duration_s, 3),
    }


def _played(result: engine.MatchResult, outputs: Sequence[str]) -> dict[str, Any]:
    """What recording needs of a played match, as plain data (it may be kept on disk)."""
    error = result.error
    return {
        "fields": _result_fields(result),
        "replay": replay_io.dumps(result.replay),
        "outputs": list(outputs),
        "error_seat": error.seat if error else None,
        "error_private": error.private if error else "",
    }


def _record(match: Match, token: str, played: dict[str, Any]) -> Match | None:
    """Write the result, replay and logs once: only while this attempt holds the claim."""
    data = played["replay"]
    fields = {
        "status": Match.Status.DONE,
        "rated": True,  # rated below in this same transaction (undone if that fails)
        "claim_token": "",
        "finished_at": timezone.now(),
        "failure_reason": "",
        **played["fields"],
    }
    with transaction.atomic():
        changed = Match.objects.filter(
            pk=match.pk, status=Match.Status.RUNNING, claim_token=token
        ).update(**fields)
        if changed != 1:
            # A later attempt took the match over while this one was presumed dead.
            log.warning("match=%s attempt superseded; result discarded", match.pk)
            return None
        Replay.objects.create(
            match_id=match.pk, data=data, size=len(data), format=replay_io.REPLAY_FORMAT
        )
        error_seat = played["error_seat"]
        MatchLog.objects.bulk_create(
            MatchLog(
                match_id=match.pk,
                seat=seat,
                bot_id=bot_id,
                output=played["outputs"][seat],
                traceback=played["error_private"] if error_seat == seat else "",
            )
            for seat, bot_id in enumerate((match.bot_a_id, match.bot_b_id))
        )
        for name, value in fields.items():  # what the row now holds, without reading it back
            setattr(match, name, value)
        _rate_now_or_later(match)
        if error_seat in (0, 1):
            _pause_if_faulty((match.version_a_id, match.version_b_id)[error_seat])
        if match.tournament_id:
            transaction.on_commit(partial(tournament_check_finished, match.tournament_id))
    return match


def _attempt_failed(match: Match, token: str, reason: str) -> Match:
    """Release the claim after a platform failure; fail the match on its last attempt."""
    if match.attempts >= MAX_ATTEMPTS:
        failed = _fail(match, token, f"failed {match.attempts} times; last: {reason}")
        if failed is not None:
            return failed
        match.refresh_from_db()
        return match
    Match.objects.filter(pk=match.pk, status=Match.Status.RUNNING, claim_token=token).update(
        status=Match.Status.QUEUED,
        claim_token="",
        heartbeat_at=timezone.now(),
        failure_reason=f"attempt {match.attempts}: {reason}",
    )
    raise PlatformError(reason)


def _fail(match: Match, token: str, reason: str) -> Match | None:
    """Mark a running match failed (if ``token`` still holds it); it will not be played."""
    with transaction.atomic():
        changed = Match.objects.filter(
            pk=match.pk, status=Match.Status.RUNNING, claim_token=token
        ).update(
            status=Match.Status.FAILED,
            claim_token="",
            finished_at=timezone.now(),
            failure_reason=reason[:2000],
        )
        if changed != 1:
            return None
        if match.tournament_id:
            transaction.on_commit(partial(tournament_check_finished, match.tournament_id))
    log.error("match=%s status=failed reason=%r", match.pk, reason)
    match.refresh_from_db()
    return match


def tournament_check_finished(tournament_id: int) -> bool:
    """Queue ``finish_tournament`` when no match of the tournament is open any more.

    Runs after the recording transaction commits: of two matches recorded at once, the one
    that commits last is sure to see the other done, so the last match is never missed.
    """
    from arena.models import Tournament

    over = Tournament.objects.filter(pk=tournament_id, status="running").exclude(
        matches__status__in=OPEN_STATUSES
    )
    if not over.exists():
        return False
    enqueue("finish_tournament", tournament_id)
    return True


# --- the sweeper --------------------------------------------------------------------------


def _queued_grace_s() -> float:
    return _seconds("ARENA_SWEEP_QUEUED_AFTER_S", 600.0)


def match_sweep_stuck(*, limit: int = 200) -> dict[str, int]:
    """Queue again what a lost message or a dead worker left behind; counts per kind.

    * ``running`` rows with a stale heartbeat (a dead attempt) go back to ``queued``
      (or ``failed`` after their last attempt) and are queued again;
    * ``queued`` rows untouched for ``ARENA_SWEEP_QUEUED_AFTER_S`` are queued again. The
      row is touched when re-sent, so a long but healthy queue gets at most one duplicate
      message per grace period (a harmless one: the claim lets only one through).
    * ``done`` rows left unrated (a worker died between recording and rating) are rated;
    * running tournaments whose matches are all over get ``finish_tournament`` again.
    """
    from arena.models import Tournament

    now = timezone.now()
    counts = {"reclaimed": 0, "failed": 0, "requeued": 0, "unrated": 0, "tournaments": 0}
    stale = now - timedelta(seconds=stale_after_s())
    dead = Match.objects.filter(
        Q(heartbeat_at__lt=stale) | Q(heartbeat_at__isnull=True), status=Match.Status.RUNNING
    )
    for match in dead.order_by("id")[:limit]:
        if match.attempts >= MAX_ATTEMPTS:
            reason = f"the worker playing it was lost {match.attempts} times"
            counts["failed"] += _fail(match, match.claim_token, reason) is not None
            continue
        released = Match.objects.filter(
            pk=match.pk, status=Match.Status.RUNNING, claim_token=match.claim_token
        ).update(status=Match.Status.QUEUED, claim_token="", heartbeat_at=now)
        if released:
            enqueue("play_match", match.pk)
            counts["reclaimed"] += 1
    cutoff = now - timedelta(seconds=_queued_grace_s())
    untouched = Q(heartbeat_at__lt=cutoff) | Q(heartbeat_at__isnull=True, created__lt=cutoff)
    lost = Match.objects.filter(untouched, status=Match.Status.QUEUED).order_by("id")[:limit]
    for match_id in list(lost.values_list("id", flat=True)):
        if Match.objects.filter(pk=match_id, status=Match.Status.QUEUED).update(heartbeat_at=now):
            enqueue("play_match", match_id)
            counts["requeued"] += 1
    # Recorded but not rated: the worker died between the two (it rates right after).
    unrated = Match.objects.filter(
        status=Match.Status.DONE, rated=False, finished_at__lt=now - timedelta(seconds=60)
    )
    for match_id in list(unrated.order_by("id").values_list("id", flat=True)[:limit]):
        enqueue("rate_match", match_id)
        counts["unrated"] += 1
    running = Tournament.objects.filter(status="running").exclude(matches__status__in=OPEN_STATUSES)
    for tournament_id in running.values_list("id", flat=True)[:limit]:
        enqueue("finish_tournament", tournament_id)
        counts["tournaments"] += 1
    return counts


def match_workdirs_sweep(*, older_than_s: float) -> int:
    """Remove match directories a killed worker left in the temp dir; how many were removed.

    A worker removes its directory when a match ends, unless it was killed (SIGKILL, power
    loss). Nothing runs longer than the task's hard time limit, so a directory older than
    that belongs to no live match. Called when a worker starts.
    """
    cutoff = time.time() - older_than_s
    removed = 0
    for path in Path(tempfile.gettempdir()).glob("arena-*"):
        if not path.name.startswith(WORKDIR_PREFIXES):
            continue
        try:
            if path.is_dir() and path.stat().st_mtime < cutoff:
                shutil.rmtree(path)
                removed += 1
        except OSError:
            continue  # another worker got there first, or it is not ours
    return removed
