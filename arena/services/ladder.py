"""Ladder play between tournaments: placement for new versions, and a periodic tick.

Tables have the game's ladder size (``Game.ladder_seats`` if it declares one, else four
seats or its maximum, whichever is smaller; never fewer than its minimum). A version that
becomes valid plays up to :data:`PLACEMENT_MATCHES` tables at once with the active bots
rated nearest to it (no opponent twice while others are left). ``ladder_tick`` (every
minute, from celery beat) gives more matches where the displayed ranking knows least
(``arena.algorithms.pairing``): it reads the ladder in its displayed order (one query of a
few narrow columns, about a millisecond for a thousand bots), draws pairs close in that
order by what one more match of each is expected to settle of the pairs the ratings may
have the wrong way round (some 25 ms for a thousand bots), and seats each with the free
bots nearest to it in the order. The tick tops the queue up to :data:`QUEUE_CAP` open ladder
matches and never beyond, so a slow or stopped worker pool does not let the queue grow
without bound.

**Pausing** faulty versions (they leave the ladder) is ``arena.services.pausing``, which
recording calls.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F, QuerySet

from arena.algorithms import pairing
from arena.models import Bot, BotVersion, Match, MatchSeat, Rating
from arena.services.matches import (
    OPEN_STATUSES,
    match_create,
)
from arena.services.ratings import rating_for_version
from engine.registry import GAMES, get_game

__all__ = [
    "PLACEMENT_MATCHES",
    "QUEUE_CAP",
    "ladder_placement",
    "ladder_seats",
    "ladder_tick",
]

log = logging.getLogger(__name__)

#: Tables a newly valid version plays right away.
PLACEMENT_MATCHES = 4
#: Open (queued or running) ladder matches the tick tops up to, per game.
QUEUE_CAP = 12
#: Most matches one tick creates per game.
TICK_BATCH = 4


def ladder_seats(game: str, available: int) -> int:
    """How many seats a ladder table of ``game`` has, with ``available`` bots to seat."""
    rules = get_game(game)
    preferred = getattr(rules, "ladder_seats", min(4, rules.max_players))
    return max(rules.min_players, min(preferred, rules.max_players, available))


def _playable(game: str) -> QuerySet[Rating]:
    return Rating.objects.filter(
        game=game,
        current=True,
        bot__game=game,
        bot__is_active=True,
        version__status=BotVersion.Status.VALID,
        version__paused_at__isnull=True,
        bot__active_version=F("version"),  # the bot's active version's own rating
    )


# --- choosing tables -------------------------------------------------------------------------


def _nearest(
    game: str, rating: float, count: int, exclude: set[int], rng: random.Random | None = None
) -> list[Rating]:
    """Up to ``count`` playable entries whose displayed rating is nearest to ``rating`` (one
    walk each way along the ladder's index, then :func:`pairing.nearest` on what it found)."""
    base = _playable(game).exclude(bot_id__in=exclude).select_related("version__bot")
    above = list(base.filter(rating__gte=rating).order_by("rating", "-id")[: 2 * count])
    below = list(base.filter(rating__lt=rating).order_by("-rating", "id")[: 2 * count])
    return pairing.nearest(above + below, rating, count, rng or random.Random(0))


@dataclass(frozen=True)
class _Entry:
    """A ladder entry as pairing reads it."""

    bot_id: int
    version_id: int
    rating: float
    rating_sigma: float


def _ladder_order(game: str) -> list[_Entry]:
    """The playable entries in the displayed order, best first (one query, narrow columns)."""
    rows = (
        _playable(game)
        .order_by("-rating", "id")
        .values_list("bot_id", "version_id", "rating", "rating_sigma")
    )
    return [_Entry(*row) for row in rows]


def _create_table(table: Sequence[Rating | BotVersion], rng: random.Random) -> list[Match]:
    """The table's match: one fresh deal, with the seats in random order.

    Never a duplicate set, even where the game's deals are best played in duplicate
    (``Game.duplicate_helps``): a set cuts the variance of one table's result, which is what
    a head-to-head comparison needs (challenges, version comparisons), but spends N matches
    on one table, and measured in ``benchmarks/ranking_convergence.py`` the ladder orders a
    field in fewer matches with a fresh table each time (Liars: 688 matches to a settled
    order against 1,120 with duplicate sets; Tieng Len: 96 against 144).
    """
    versions = [entry if isinstance(entry, BotVersion) else entry.version for entry in table]
    rng.shuffle(versions)  # no bot always takes seat 0
    return [match_create(versions=versions, kind=Match.Kind.LADDER)]


def ladder_placement(*, bot_id: int) -> list[Match]:
    """Queue the placement matches of the bot's active version (once per version)."""
    rng = random.Random()
    with transaction.atomic():
        bot = (
            Bot.objects.select_for_update(of=("self",))
            .select_related("active_version__bot")
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
        placed = MatchSeat.objects.filter(version=version, match__kind=Match.Kind.LADDER)
        if placed.exists():
            return []
        rating = rating_for_version(version=version)
        available = _playable(bot.game).exclude(bot_id=bot.pk).count() + 1
        seats = ladder_seats(bot.game, available)
        if available < get_game(bot.game).min_players:
            return []
        need = (seats - 1) * PLACEMENT_MATCHES
        pool = _nearest(bot.game, rating.rating, max(need, seats - 1), exclude={bot.pk})
        matches = []
        # One table per group of opponents: no opponent twice while others are left.
        tables = min(PLACEMENT_MATCHES, max(1, len(pool) // (seats - 1)))
        for index in range(tables):
            # Each table takes the next opponents round the pool, so placement meets many.
            others = [pool[(index * (seats - 1) + k) % len(pool)] for k in range(seats - 1)]
            if len({o.bot_id for o in others}) < seats - 1:
                others = pool[: seats - 1]
            matches += _create_table([rating, *others], rng)
    log.info("bot=%s version=%s placement matches=%d", bot.pk, version.number, len(matches))
    return matches


def _open_ladder_bots(game: str) -> tuple[int, set[int]]:
    open_matches = set(
        Match.objects.filter(
            game=game, kind=Match.Kind.LADDER, status__in=OPEN_STATUSES
        ).values_list("id", flat=True)
    )
    busy = set(MatchSeat.objects.filter(match_id__in=open_matches).values_list("bot_id", flat=True))
    return len(open_matches), busy


def ladder_tick(*, rng: random.Random | None = None) -> list[Match]:
    """Queue tables where the displayed ranking is least sure, keeping open ladder matches
    under the cap."""
    rng = rng or random.Random()
    created: list[Match] = []
    for game in GAMES:
        open_count, busy = _open_ladder_bots(game)
        budget = min(TICK_BATCH, QUEUE_CAP - open_count)
        if budget <= 0:
            continue
        order = _ladder_order(game)
        available = sum(1 for entry in order if entry.bot_id not in busy)
        seats = ladder_seats(game, available)
        if available < max(seats, get_game(game).min_players):
            continue
        tables = pairing.pick_tables(
            order, seats, budget, rng, busy=busy, key=lambda entry: entry.bot_id
        )
        ids = [entry.version_id for table in tables for entry in table]
        versions = BotVersion.objects.select_related("bot").in_bulk(ids)
        for table in tables:
            with transaction.atomic():
                created += _create_table([versions[entry.version_id] for entry in table], rng)
    if created:
        log.info("ladder tick queued matches=%d", len(created))
    return created
