"""Ladder play between tournaments: placement for new versions, and a periodic tick.

A version that becomes valid plays :data:`PLACEMENT_MATCHES` matches at once against the
active bots rated nearest to it. ``ladder_tick`` (every minute, from celery beat) gives
more matches to bots whose rating is still uncertain (high sigma), each against a bot of
similar strength, so the ladder settles without waiting for a tournament. The tick tops
the queue up to :data:`QUEUE_CAP` open ladder matches and never beyond, so a slow or
stopped worker pool does not let the queue grow without bound.

**Pausing.** A version whose own faults (crash, timeout, illegal move, memory, forbidden
call, bad output, protocol) ended at least :func:`pause_fault_rate` of its last
:func:`pause_window` recorded matches (and at least :func:`pause_min_matches` of them) is
*paused*: it leaves the ladder (no placement, no tick matches) and its page and API say
why. The way back is a new upload: a newly validated version becomes the active one,
unpaused. Settings (Django settings or environment): ``ARENA_PAUSE_WINDOW`` (10),
``ARENA_PAUSE_FAULT_RATE`` (0.5), ``ARENA_PAUSE_MIN_MATCHES`` (4).
"""

from __future__ import annotations

import logging
import random

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from arena.models import Bot, BotVersion, Match, Rating
from arena.services.matches import OPEN_STATUSES, _seconds, match_create
from arena.services.ratings import rating_get_or_create
from engine.registry import GAMES

__all__ = [
    "PLACEMENT_MATCHES",
    "QUEUE_CAP",
    "SIGMA_SETTLED",
    "ladder_placement",
    "ladder_tick",
    "version_pause_if_faulty",
]

log = logging.getLogger(__name__)

#: Matches a newly valid version plays right away.
PLACEMENT_MATCHES = 4
#: Open (queued or running) ladder matches the tick tops up to, per game.
QUEUE_CAP = 12
#: Most matches one tick creates per game.
TICK_BATCH = 4
#: Bots with sigma at or below this are settled: the tick leaves them alone.
SIGMA_SETTLED = 2.5
#: The tick picks an opponent at random among this many nearest in rating.
NEAREST = 3


def _playable(game: str) -> QuerySet[Rating]:
    return Rating.objects.filter(
        game=game,
        bot__game=game,
        bot__is_active=True,
        bot__active_version__status=BotVersion.Status.VALID,
        bot__active_version__paused_at__isnull=True,
    )


# --- pausing faulty versions -----------------------------------------------------------------


def pause_window() -> int:
    return max(1, int(_seconds("ARENA_PAUSE_WINDOW", 10)))


def pause_fault_rate() -> float:
    return _seconds("ARENA_PAUSE_FAULT_RATE", 0.5)


def pause_min_matches() -> int:
    return max(1, int(_seconds("ARENA_PAUSE_MIN_MATCHES", 4)))


def version_pause_if_faulty(*, version_id: int) -> bool:
    """Pause the version if its own faults pass the rate over its recent matches.

    Called when a match ending in a fault is recorded (inside that transaction, so the
    match counts). True when the version is paused now (by this call or before).
    """
    window = pause_window()
    recent = list(
        Match.objects.filter(
            Q(version_a_id=version_id) | Q(version_b_id=version_id), status=Match.Status.DONE
        )
        .order_by("-finished_at", "-id")
        .values_list("version_a_id", "error_seat", "error_kind")[:window]
    )
    faults: dict[str, int] = {}
    for version_a_id, error_seat, error_kind in recent:
        seat = 0 if version_a_id == version_id else 1
        if error_seat == seat and error_kind:
            faults[error_kind] = faults.get(error_kind, 0) + 1
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


def _nearest(game: str, mu: float, count: int, exclude: set[int]) -> list[Rating]:
    """Up to ``count`` playable ratings nearest to ``mu`` (one indexed walk each way)."""
    base = _playable(game).exclude(bot_id__in=exclude).select_related("bot__active_version")
    above = list(base.filter(mu__gte=mu).order_by("mu", "id")[:count])
    below = list(base.filter(mu__lt=mu).order_by("-mu", "-id")[:count])
    return sorted(above + below, key=lambda rating: (abs(rating.mu - mu), rating.pk))[:count]


def ladder_placement(*, bot_id: int) -> list[Match]:
    """Queue the placement matches of the bot's active version (once per version)."""
    with transaction.atomic():
        bot = (
            Bot.objects.select_for_update(of=("self",))
            .select_related("active_version")
            .get(pk=bot_id)
        )
        version = bot.active_version
        if (
            not bot.is_active
            or version is None
            or version.status != BotVersion.Status.VALID
            or version.is_paused
        ):
            return []
        placed = Match.objects.filter(kind=Match.Kind.LADDER, version_a=version).exists()
        if placed:
            return []
        rating = rating_get_or_create(bot_id=bot.pk, game=bot.game)
        opponents = _nearest(bot.game, rating.mu, PLACEMENT_MATCHES, exclude={bot.pk})
        matches = [
            match_create(
                version_a=version, version_b=other.bot.active_version, kind=Match.Kind.LADDER
            )
            for other in opponents
        ]
    log.info("bot=%s version=%s placement matches=%d", bot.pk, version.number, len(matches))
    return matches


def _open_ladder_bots(game: str) -> tuple[int, set[int]]:
    open_matches = Match.objects.filter(
        game=game, kind=Match.Kind.LADDER, status__in=OPEN_STATUSES
    ).values_list("bot_a_id", "bot_b_id")
    busy: set[int] = set()
    count = 0
    for pair in open_matches:
        busy.update(pair)
        count += 1
    return count, busy


def ladder_tick(*, rng: random.Random | None = None) -> list[Match]:
    """Queue matches for unsettled bots, keeping open ladder matches under the cap."""
    rng = rng or random.Random()
    created: list[Match] = []
    for game in GAMES:
        open_count, busy = _open_ladder_bots(game)
        budget = min(TICK_BATCH, QUEUE_CAP - open_count)
        if budget <= 0:
            continue
        unsettled = (
            _playable(game)
            .filter(sigma__gt=SIGMA_SETTLED)
            .exclude(bot_id__in=busy)
            .select_related("bot__active_version")
            .order_by("-sigma", "id")[: budget * 2]
        )
        queued = 0
        for rating in unsettled:
            if queued >= budget or rating.bot_id in busy:
                continue
            choices = _nearest(game, rating.mu, NEAREST, exclude=busy | {rating.bot_id})
            if not choices:
                continue
            other = rng.choice(choices)
            pair = [rating.bot.active_version, other.bot.active_version]
            rng.shuffle(pair)  # neither bot always takes seat A
            with transaction.atomic():
                created.append(
                    match_create(version_a=pair[0], version_b=pair[1], kind=Match.Kind.LADDER)
                )
            busy.update((rating.bot_id, other.bot_id))
            queued += 1
    if created:
        log.info("ladder tick queued matches=%d", len(created))
    return created
