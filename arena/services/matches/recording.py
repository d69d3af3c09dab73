"""Recording a played match exactly once, and failing a match the platform could not play.

Recording is one transaction that starts with ``UPDATE ... WHERE claim_token = mine AND
status = running``: the result, each seat's placing, the replay and the bots' logs are
written only if that update changed one row. A superseded attempt (its token replaced by a
later claim) finds nothing to update and throws its result away, so a match is never
recorded twice.

A dropped database connection never throws a played match away: recording is retried on a
fresh connection with backoff (``claiming.record_tries`` tries, about four minutes in all)
while the result waits in memory and the heartbeat keeps the claim alive; past that, the
result is kept on local disk for the task's next delivery (``arena.services.unrecorded``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import partial
from typing import Any

from django.db import connections, transaction
from django.utils import timezone

import engine
from arena.models import Match, MatchLog, MatchSeat, Replay, Tournament
from arena.models.matches import SEAT_OUTCOME_FIELDS, SEAT_RATING_FIELDS
from arena.services import sql
from arena.services.dispatch import enqueue
from arena.services.matches.claiming import (
    CONNECTION_LOST,
    MAX_ATTEMPTS,
    MatchBusy,
    PlatformError,
    heartbeat,
    retrying,
    stale_after_s,
)
from arena.services.matches.scheduling import OPEN_STATUSES
from arena.services.pausing import version_pause_if_faulty
from arena.services.ratings import match_rate_locked
from arena.services.unrecorded import unrecorded_forget, unrecorded_keep
from engine import replay as replay_io

__all__ = [
    "attempt_failed",
    "fail",
    "not_claimed",
    "played_result",
    "record",
    "record_kept",
    "record_or_keep",
    "tournament_check_finished",
]

log = logging.getLogger("arena.services.matches")

#: Cap on one seat's per-step log kept with a match (the whole output is capped too).
STEP_LOG_ENTRIES = 2000


def played_result(result: engine.MatchResult, outputs: Sequence[str]) -> dict[str, Any]:
    """What recording needs of a played match, as plain data (it may be kept on disk)."""
    faults = {fault.seat: fault for fault in result.faults}
    seats = []
    for seat, placing in enumerate(result.placings):
        fault = faults.get(seat)
        seats.append(
            {
                "placing": placing,
                "score": result.scores[seat],
                "fault": fault.kind[:16] if fault else "",
                "fault_detail": fault.detail[:500] if fault else "",
                "private": fault.private if fault else "",
                "output": outputs[seat] if seat < len(outputs) else "",
                "steps": list(result.logs[seat][:STEP_LOG_ENTRIES]) if result.logs else [],
            }
        )
    return {
        "fields": {
            "reason": result.reason[:16],
            "games_played": result.games_played,
            "totals": {key: list(values) for key, values in result.totals.items()},
            "duration_s": round(result.duration_s, 3),
        },
        "seats": seats,
        "replay": replay_io.dumps(result.replay),
    }


def record(match: Match, token: str, played: dict[str, Any]) -> Match | None:
    """Write the result, seats, replay and logs once: only while this attempt holds the claim.

    Every match runs these statements, so they are plain SQL (``arena.services.sql``).
    """
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
        changed = sql.update(
            Match,
            fields,
            '"id" = %s AND "status" = %s AND "claim_token" = %s',
            [match.pk, Match.Status.RUNNING, token],
        )
        if changed != 1:
            # A later attempt took the match over while this one was presumed dead.
            log.warning("match=%s attempt superseded; result discarded", match.pk)
            return None
        seats = _seats_of(match)
        for row, result in zip(seats, played["seats"], strict=True):
            row.placing, row.score = result["placing"], result["score"]
            row.fault, row.fault_detail = result["fault"], result["fault_detail"]
        for name, value in fields.items():  # what the row now holds, without reading it back
            setattr(match, name, value)
        seat_fields = [*SEAT_OUTCOME_FIELDS]
        if match.ranked and _rate_now_or_later(match, seats):
            seat_fields += SEAT_RATING_FIELDS
        sql.update_rows(seats, seat_fields)  # each seat written once
        replay = {"data": data, "size": len(data), "format": replay_io.REPLAY_FORMAT}
        sql.insert(Replay, [{"match_id": match.pk, **replay}])
        sql.insert(
            MatchLog,
            [
                {
                    "match_id": match.pk,
                    "seat": row.seat,
                    "bot_id": row.bot_id,
                    "output": result["output"],
                    "traceback": result["private"],
                    "steps": result["steps"],
                }
                for row, result in zip(seats, played["seats"], strict=True)
            ],
        )
        for row in seats:
            if row.fault:
                version_pause_if_faulty(version_id=row.version_id)
        if match.tournament_id:
            transaction.on_commit(partial(tournament_check_finished, match.tournament_id))
    return match


def record_or_keep(match: Match, token: str, played: dict[str, Any]) -> Match | None:
    """Record with retries; if the database stays away, keep the result on local disk."""
    try:
        return _record_retrying(match, token, played)
    except CONNECTION_LOST:
        path = unrecorded_keep(match.pk, token, played)
        log.error("match=%s not recorded (database away); result kept in %s", match.pk, path)
        raise


def record_kept(match: Match, token: str, played: dict[str, Any]) -> Match | None:
    """Record a result kept on disk by an earlier delivery, if its claim still holds."""
    if match.status != Match.Status.RUNNING or match.claim_token != token:
        log.warning("match=%s kept result superseded (status %s); removed", match.pk, match.status)
        unrecorded_forget(match.pk)
        return None
    with heartbeat(match.pk, token):
        recorded = record_or_keep(match, token, played)
    unrecorded_forget(match.pk)
    if recorded is not None:
        log.info("match=%s recorded from the result kept on disk", match.pk)
    return recorded


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
        recorded = record(match, token, played)
        if recorded is None and tries > 1:
            again = Match.objects.filter(pk=match.pk, status=Match.Status.DONE).first()
            if again is not None:
                log.info("match=%s was recorded by an earlier try", match.pk)
                return again
        return recorded

    return retrying(write, match.pk, what="recording")


def _seats_of(match: Match) -> list[MatchSeat]:
    """The match's seats in order: those ``match_play`` loaded before its claim (updated in
    place, so the match's prefetched seats stay true), or read now. Seats never change once
    the match is created; only their results are written."""
    cached = getattr(match, "_prefetched_objects_cache", {}).get("seats")
    if cached is not None:
        return sorted(cached, key=lambda row: row.seat)
    return list(MatchSeat.objects.filter(match_id=match.pk).select_related("version__bot"))


def _rate_now_or_later(match: Match, seats: list[MatchSeat]) -> bool:
    """Rate the match inside the recording transaction; queue ``rate_match`` if that fails.

    Rating in the same commit saves a task, a transaction and queries per match. A failure
    here (a lock timeout, say) is kept to its savepoint: the result still commits, and the
    match is rated later by the ``rate_match`` task (or the sweeper, should the message be
    lost). True when rated: the seats then hold their rating fields, for the caller to write.
    """
    try:
        with transaction.atomic():
            match_rate_locked(match=match, mark_rated=False, seats=seats)  # the record did
        return True
    except CONNECTION_LOST:
        if _connection_gone():
            raise  # the whole recording transaction is lost: it is retried as a whole
        _rate_later(match, seats)
    except Exception:
        _rate_later(match, seats)
    return False


def _rate_later(match: Match, seats: list[MatchSeat]) -> None:
    log.warning("match=%s rating failed here; queued for later", match.pk, exc_info=True)
    for row in seats:  # whatever the failed rating set on them is not written
        row.mu_before = row.sigma_before = row.mu_after = row.sigma_after = None
    Match.objects.filter(pk=match.pk).update(rated=False)
    match.rated = False
    enqueue("rate_match", match.pk)


def _connection_gone() -> bool:
    """Whether this thread's connection was closed under it (not a mere lock timeout)."""
    raw = connections["default"].connection
    return raw is None or bool(getattr(raw, "closed", False) or getattr(raw, "broken", False))


# --- platform failures ---------------------------------------------------------------------


def not_claimed(match_id: int) -> Match | None:
    """Why the claim failed: finished (None), busy (MatchBusy), or dead too often (failed)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != Match.Status.RUNNING:
        return None  # done, failed, or deleted: a redelivered task has nothing to do
    age = (timezone.now() - match.heartbeat_at).total_seconds() if match.heartbeat_at else 1e9
    if age < stale_after_s():
        raise MatchBusy(match_id, retry_in_s=stale_after_s() - age + 1)
    # The last allowed attempt died with its worker: give up on the match.
    return fail(match, match.claim_token, f"the worker playing it was lost {match.attempts} times")


def attempt_failed(match: Match, token: str, reason: str) -> Match:
    """Release the claim after a platform failure; fail the match on its last attempt."""
    if match.attempts >= MAX_ATTEMPTS:
        failed = fail(match, token, f"failed {match.attempts} times; last: {reason}")
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


def fail(match: Match, token: str, reason: str) -> Match | None:
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


#: Whether a tournament still has a queued or running match.
_OPEN_MATCH = 'SELECT 1 FROM {match} WHERE "tournament_id" = %s AND "status" IN (%s, %s) LIMIT 1'


def tournament_check_finished(tournament_id: int) -> bool:
    """Queue ``finish_tournament`` when no match of the tournament is open any more.

    Runs after the recording transaction commits: of two matches recorded at once, the one
    that commits last is sure to see the other done, so the last match is never missed.
    """
    # Two plain queries, the second only after the last match: cheaper than one with a join.
    # Every recorded match runs the first, so it is plain SQL (arena.services.sql).
    open_match = _OPEN_MATCH.format(match=sql.table(Match))
    if sql.exists(open_match, [tournament_id, *OPEN_STATUSES]):
        return False
    if not Tournament.objects.filter(pk=tournament_id, status="running").exists():
        return False
    enqueue("finish_tournament", tournament_id)
    return True
