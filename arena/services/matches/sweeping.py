"""The sweeper: what lost messages and dead workers left behind is queued again."""

from __future__ import annotations

import shutil
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from django.db.models import Q
from django.utils import timezone

from arena.models import Match
from arena.services.dispatch import enqueue
from arena.services.matches.claiming import MAX_ATTEMPTS, stale_after_s
from arena.services.matches.playing import WORKDIR_PREFIXES
from arena.services.matches.recording import fail
from arena.services.matches.scheduling import OPEN_STATUSES, seconds_setting

__all__ = ["match_sweep_stuck", "match_workdirs_sweep"]


def _queued_grace_s() -> float:
    return seconds_setting("ARENA_SWEEP_QUEUED_AFTER_S", 600.0)


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
            counts["failed"] += fail(match, match.claim_token, reason) is not None
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
