"""Pausing faulty versions: the ladder's rule, applied when a match is recorded.

A version whose own faults (crash, timeout, illegal move, memory, forbidden
call, bad output, protocol) ended at least :func:`pause_fault_rate` of its last
:func:`pause_window` recorded matches (and at least :func:`pause_min_matches` of them) is
*paused*: it leaves the ladder (no placement, no tick matches) and its page and API say
why. The way back is a new upload: a newly validated version becomes the active one,
unpaused. Settings (Django settings or environment): ``ARENA_PAUSE_WINDOW`` (10),
``ARENA_PAUSE_FAULT_RATE`` (0.5), ``ARENA_PAUSE_MIN_MATCHES`` (4).

It sits below both the ladder (which skips paused versions) and the recording of a match
(which applies the rule inside its transaction), so neither imports the other.
"""

from __future__ import annotations

import logging

from django.utils import timezone

from arena.config import seconds_setting
from arena.models import BotVersion, Match, MatchSeat

__all__ = ["pause_fault_rate", "pause_min_matches", "pause_window", "version_pause_if_faulty"]

log = logging.getLogger(__name__)


def pause_window() -> int:
    return max(1, int(seconds_setting("ARENA_PAUSE_WINDOW", 10)))


def pause_fault_rate() -> float:
    return seconds_setting("ARENA_PAUSE_FAULT_RATE", 0.5)


def pause_min_matches() -> int:
    return max(1, int(seconds_setting("ARENA_PAUSE_MIN_MATCHES", 4)))


def version_pause_if_faulty(*, version_id: int) -> bool:
    """Pause the version if its own faults pass the rate over its recent matches.

    Called when a match ending in a fault is recorded (inside that transaction, so the
    match counts). True when the version is paused now (by this call or before).
    """
    window = pause_window()
    recent = list(
        MatchSeat.objects.filter(version_id=version_id, match__status=Match.Status.DONE)
        .order_by("-match__finished_at", "-match_id")
        .values_list("fault", flat=True)[:window]
    )
    faults: dict[str, int] = {}
    for kind in recent:
        if kind:
            faults[kind] = faults.get(kind, 0) + 1
    total = sum(faults.values())
    if len(recent) < pause_min_matches() or total < pause_fault_rate() * len(recent):
        return BotVersion.objects.filter(pk=version_id, paused_at__isnull=False).exists()
    kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(faults.items()))
    reason = (
        f"paused from the ladder: {total} of its last {len(recent)} matches ended in its own "
        f"fault ({kinds}); upload a new version to return"
    )
    changed = BotVersion.objects.filter(pk=version_id, paused_at__isnull=True).update(
        paused_at=timezone.now(), pause_reason=reason[:300]
    )
    if changed:
        log.warning("version=%s %s", version_id, reason)
    return True
