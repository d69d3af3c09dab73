"""Claiming a match for one attempt, and keeping the claim alive while it plays.

A ``play_match`` task may arrive twice (a redelivered message, the sweeper, a retry) or die
half-way (a killed worker). Only the caller whose conditional ``UPDATE`` changed exactly one
row plays: ``queued`` (or ``running`` with a stale heartbeat, i.e. left by a dead attempt)
becomes ``running`` with ``attempts + 1`` and a fresh ``claim_token`` (a fencing token:
only its holder may record the result). A heartbeat thread refreshes ``heartbeat_at`` so a
living attempt is never taken over, and a dead one is after ``ARENA_MATCH_STALE_S``.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import TypeVar

from django.db import InterfaceError, OperationalError, connections
from django.utils import timezone

from arena.models import Match
from arena.services import sql
from arena.services.matches.scheduling import seconds_setting

__all__ = [
    "CONNECTION_LOST",
    "MAX_ATTEMPTS",
    "MatchBusy",
    "PlatformError",
    "claim",
    "claim_retrying",
    "drop_broken_connection",
    "heartbeat",
    "heartbeat_interval_s",
    "record_backoff_s",
    "record_tries",
    "retrying",
    "stale_after_s",
]

log = logging.getLogger("arena.services.matches")

#: A match whose third attempt fails for a platform reason is marked failed.
MAX_ATTEMPTS = 3
#: A connection that went away: worth a fresh connection and another try.
CONNECTION_LOST = (OperationalError, InterfaceError)
#: Tries to record a played match before giving up (``ARENA_RECORD_TRIES``); with
#: :func:`record_backoff_s` between them, 14 tries span about 4 minutes (241.5 s).
RECORD_TRIES_DEFAULT = 14

T = TypeVar("T")


class PlatformError(Exception):
    """The platform (sandbox, storage, database) failed: retry later, blame no bot."""


class MatchBusy(Exception):
    """Another attempt holds the match and looks alive; ask again in ``retry_in_s``."""

    def __init__(self, match_id: int, retry_in_s: float) -> None:
        super().__init__(f"match {match_id} is being played by another attempt")
        self.retry_in_s = retry_in_s


def heartbeat_interval_s() -> float:
    return seconds_setting("ARENA_MATCH_HEARTBEAT_S", 10.0)


def stale_after_s() -> float:
    """How long a running attempt may stay silent before it is presumed dead."""
    return seconds_setting("ARENA_MATCH_STALE_S", 60.0)


def record_tries() -> int:
    return max(1, int(seconds_setting("ARENA_RECORD_TRIES", RECORD_TRIES_DEFAULT)))


def record_backoff_s(attempt: int) -> float:
    """Wait before recording try ``attempt + 1``: 0.5 s, 1 s, 2 s ... capped at 30 s."""
    return min(30.0, 0.5 * 2 ** (attempt - 1))


def drop_broken_connection() -> None:
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


def retrying(write: Callable[[], T], match_id: int, *, what: str = "write") -> T:
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
            drop_broken_connection()
            time.sleep(wait)
    raise AssertionError("unreachable")  # pragma: no cover


#: The claim: queued, or running with a stale heartbeat (a dead attempt), and attempts left.
_CLAIM = """
UPDATE {match} SET "status" = %s, "attempts" = "attempts" + 1, "claim_token" = %s,
  "claimed_by" = %s, "started_at" = %s, "heartbeat_at" = %s
WHERE "id" = %s AND "attempts" < %s
  AND ("status" = %s OR ("status" = %s AND ("heartbeat_at" IS NULL OR "heartbeat_at" < %s)))
"""


def claim(
    match_id: int, worker: str, *, attempts: int | None = None, token: str | None = None
) -> str | None:
    """Take the match for one attempt; the claim token, or None if someone else holds it.

    With ``attempts`` (as the caller read the row) the claim also requires the row to be
    unchanged since that read, so the caller's copy is exact once the claim succeeds.
    Every match runs this: one plain ``UPDATE`` (see ``arena.services.sql``).
    """
    clock = timezone.now()
    now = sql.prep(Match, "heartbeat_at", clock)
    stale = sql.prep(Match, "heartbeat_at", clock - timedelta(seconds=stale_after_s()))
    token = token or uuid.uuid4().hex
    statement = _CLAIM.format(match=sql.table(Match))
    params = [Match.Status.RUNNING, token, worker[:64], now, now, match_id, MAX_ATTEMPTS]
    params += [Match.Status.QUEUED, Match.Status.RUNNING, stale]
    if attempts is not None:
        statement += 'AND "attempts" = %s'
        params.append(attempts)
    return token if sql.execute(statement, params) == 1 else None


def claim_retrying(match_id: int, worker: str, *, attempts: int) -> str | None:
    """:func:`claim`, again on a fresh connection if the connection was lost.

    A claim whose commit reached the server but whose answer was lost is ours all the same:
    the row then holds our token, and the match is played by this attempt (not claimed a
    second time after the heartbeat went stale, which would count a play for nothing).
    """
    token = uuid.uuid4().hex
    tries = 0

    def once() -> str | None:
        nonlocal tries
        tries += 1
        if tries > 1 and Match.objects.filter(pk=match_id, claim_token=token).exists():
            return token  # an earlier try did claim it
        return claim(match_id, worker, attempts=attempts, token=token)

    return retrying(once, match_id, what="claim")


def _beat_once(match_id: int, token: str) -> None:
    """One heartbeat; on a lost connection, reconnect and try once more at once."""
    for attempt in (1, 2):
        try:
            Match.objects.filter(
                pk=match_id, claim_token=token, status=Match.Status.RUNNING
            ).update(heartbeat_at=timezone.now())
            return
        except CONNECTION_LOST as exc:
            drop_broken_connection()  # the next query opens a fresh connection
            if attempt == 2:
                raise
            log.warning("match=%s heartbeat reconnecting after: %s", match_id, exc)


@contextmanager
def heartbeat(match_id: int, token: str) -> Iterator[None]:
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
