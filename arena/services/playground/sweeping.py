"""The playground's upkeep: matches whose message was lost or whose worker died sent again
(every minute), runs their authors no longer keep deleted (hourly)."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db.models import Count, Q
from django.utils import timezone

from arena.models import PlaygroundMatch, PlaygroundRun
from arena.services.dispatch import enqueue
from arena.services.matches import (
    seconds_setting,
)
from arena.services.playground.playing import MAX_ATTEMPTS, stale_after_s

__all__ = [
    "keep_days",
    "keep_runs",
    "playground_cleanup",
    "playground_sweep",
]

log = logging.getLogger("arena.services.playground")


def keep_runs() -> int:
    """``ARENA_PLAYGROUND_KEEP_RUNS``: the newest runs of each author that are kept."""
    return max(1, int(seconds_setting("ARENA_PLAYGROUND_KEEP_RUNS", 100)))


def keep_days() -> float:
    """``ARENA_PLAYGROUND_KEEP_DAYS``: how long a run is kept at most."""
    return max(1.0, seconds_setting("ARENA_PLAYGROUND_KEEP_DAYS", 30.0))


def playground_sweep(*, limit: int = 200) -> dict[str, int]:
    """Send again playground matches whose message was lost, and free those whose worker
    died (running past the task's hard time limit); the sweeper runs this every minute."""
    now = timezone.now()
    counts = {"playground_requeued": 0, "playground_failed": 0}
    stale = now - timedelta(seconds=stale_after_s())
    dead = PlaygroundMatch.objects.filter(
        status=PlaygroundMatch.Status.RUNNING, started_at__lt=stale
    )
    for row in dead.only("id", "attempts")[:limit]:
        if row.attempts >= MAX_ATTEMPTS:
            counts["playground_failed"] += PlaygroundMatch.objects.filter(
                pk=row.pk, status=PlaygroundMatch.Status.RUNNING, started_at__lt=stale
            ).update(
                status=PlaygroundMatch.Status.FAILED,
                claim_token="",
                finished_at=now,
                failure_reason="its worker stopped answering",
            )
        else:
            enqueue("play_playground_match", row.pk)  # the claim takes a stale match over
            counts["playground_requeued"] += 1
    lost = now - timedelta(seconds=seconds_setting("ARENA_SWEEP_QUEUED_AFTER_S", 600.0))
    waiting = PlaygroundMatch.objects.filter(
        Q(started_at__lt=lost) | Q(started_at__isnull=True, run__created__lt=lost),
        status=PlaygroundMatch.Status.QUEUED,
    )
    for row in waiting.only("id")[:limit]:
        # Touched (started_at) so a long but healthy queue gets one extra message per period.
        PlaygroundMatch.objects.filter(pk=row.pk, status=PlaygroundMatch.Status.QUEUED).update(
            started_at=now
        )
        enqueue("play_playground_match", row.pk)
        counts["playground_requeued"] += 1
    return counts


def playground_cleanup(*, batch: int = 500) -> dict[str, int]:
    """Delete the runs an author no longer keeps, with their matches, replays and output:
    those beyond the author's newest :func:`keep_runs`, and those older than
    :func:`keep_days`. Never a run of the last hour (the hourly quota counts them: deleting
    one would give its author another) nor one with a match still queued or playing (its
    worker would find nothing to record). Drafts are kept: one per author and game.
    """
    now = timezone.now()
    quota_window = now - timedelta(hours=1)
    expired = now - timedelta(days=keep_days())
    keep = keep_runs()
    beyond: list[int] = []
    crowded = (
        PlaygroundRun.objects.values("owner_id")
        .annotate(runs=Count("id"))
        .filter(runs__gt=keep)
        .values_list("owner_id", flat=True)
    )
    for owner_id in crowded:
        beyond += (
            PlaygroundRun.objects.filter(owner_id=owner_id)
            .order_by("-created", "-id")[keep:]
            .values_list("id", flat=True)
        )
    open_runs = PlaygroundMatch.objects.filter(
        status__in=[PlaygroundMatch.Status.QUEUED, PlaygroundMatch.Status.RUNNING]
    ).values("run_id")
    doomed = (
        PlaygroundRun.objects.filter(Q(created__lt=expired) | Q(pk__in=beyond))
        .filter(created__lt=quota_window)
        .exclude(pk__in=open_runs)
        .values_list("id", flat=True)
    )
    deleted = 0
    while ids := list(doomed[:batch]):
        PlaygroundMatch.objects.filter(run_id__in=ids).delete()
        deleted += (
            PlaygroundRun.objects.filter(pk__in=ids).delete()[1].get(PlaygroundRun._meta.label, 0)
        )
    if deleted:
        log.info("playground clean-up: %s runs deleted", deleted)
    return {"playground_runs_deleted": deleted}
