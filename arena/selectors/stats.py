"""Per-version statistics a bot author reads: its record, faults by kind, decision times, the
game's own numbers, and its chances against rivals.

The record and faults come from the database in two queries. Decision times and the game's own
stats (``Game.stats``: Lie 21's bluff and challenge rates, each game's own) come from the
replays of the version's last :data:`RECENT_MATCHES` finished matches, decompressed once and
kept in the cache until the version plays another match.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db.models import Count

from arena.algorithms.live_ratings import win_probability
from arena.models import BotVersion, Match, MatchSeat, Rating, Replay
from arena.selectors.ladder import ladder_for_game
from engine import replay as replay_io
from engine.registry import get_game

__all__ = ["RECENT_MATCHES", "Chance", "VersionStats", "version_chances", "version_stats"]

#: Finished matches whose replays feed the decision times and the game's stats.
RECENT_MATCHES = 50


@dataclass(frozen=True, slots=True)
class VersionStats:
    matches: int  # finished matches (ranked or not)
    faults: dict[str, int]  # by kind
    fault_rate: float | None
    mean_place: float | None  # 1 = first
    first_places: int
    decision_ms_mean: float | None
    decision_ms_p95: float | None
    decision_ms_max: float | None
    decisions: int
    game_stats: dict[str, float | None] = field(default_factory=dict)  # means over matches
    sample: int = 0  # matches the times and game stats were read from


def version_stats(*, version: BotVersion) -> VersionStats:
    """The version's statistics (see the module docstring)."""
    seats = MatchSeat.objects.filter(version=version, match__status=Match.Status.DONE)
    latest = seats.order_by("-match_id").values_list("match_id", flat=True).first()
    key = f"arena:version-stats:2:{version.pk}:{latest}"  # 2: mean_place counts from 1
    cached = cache.get(key)
    if cached is not None:
        return cached
    rows = list(seats.values("placing", "fault"))
    faults = dict(
        seats.exclude(fault="").values_list("fault").annotate(n=Count("id")).order_by("fault")
    )
    placed = [row["placing"] for row in rows if row["placing"] is not None]
    times, game_stats, sample = _from_replays(version)
    stats = VersionStats(
        matches=len(rows),
        faults=faults,
        fault_rate=(sum(faults.values()) / len(rows)) if rows else None,
        mean_place=1 + statistics.fmean(placed) if placed else None,
        first_places=sum(1 for p in placed if p == 0),
        decision_ms_mean=statistics.fmean(times) if times else None,
        decision_ms_p95=sorted(times)[int(0.95 * (len(times) - 1))] if times else None,
        decision_ms_max=max(times) if times else None,
        decisions=len(times),
        game_stats=game_stats,
        sample=sample,
    )
    cache.set(key, stats, 3600)
    return stats


def _from_replays(version: BotVersion) -> tuple[list[float], dict[str, float | None], int]:
    recent = list(
        MatchSeat.objects.filter(version=version, match__status=Match.Status.DONE)
        .order_by("-match_id")
        .values_list("match_id", "seat")[:RECENT_MATCHES]
    )
    seat_of = dict(recent)
    game = get_game(version.bot.game)
    times: list[float] = []
    sums: dict[str, list[float]] = defaultdict(list)
    sample = 0
    for match_id, data in Replay.objects.filter(match_id__in=list(seat_of)).values_list(
        "match_id", "data"
    ):
        try:
            replay = replay_io.loads(bytes(data))
        except ValueError:
            continue
        seat = seat_of[match_id]
        sample += 1
        for played in replay["games"]:
            times += [s["ms"] for s in played["steps"] if s.get("seat") == seat and "ms" in s]
        try:
            numbers = game.stats(replay)[seat]
        except (KeyError, IndexError, TypeError, ValueError):
            continue
        for name, value in numbers.items():
            if isinstance(value, int | float) and not isinstance(value, bool):
                sums[name].append(float(value))
    means: dict[str, float | None] = {
        name: round(statistics.fmean(values), 4) for name, values in sums.items()
    }
    return times, means, sample


@dataclass(frozen=True, slots=True)
class Chance:
    bot_id: int
    bot_name: str
    owner: str
    version: int
    probability: float  # of placing ahead of that rival
    met: int  # finished matches shared with it


def version_chances(*, version: BotVersion, top: int = 5, rivals: int = 10) -> dict[str, Any]:
    """The version's chance of placing ahead of each rival it has met (most met first) and
    of each of the ladder's top bots, from the displayed ratings (their model: each seat
    performs its skill plus Gaussian noise of deviation beta)."""
    mine = Rating.objects.filter(version=version).first()
    if mine is None:
        return {"met": [], "top": []}
    game = version.bot.game
    shared = Counter(
        MatchSeat.objects.filter(
            match__in=MatchSeat.objects.filter(version=version).values("match_id"),
            match__status=Match.Status.DONE,
        )
        .exclude(bot_id=version.bot_id)
        .values_list("bot_id", flat=True)
    )
    current = {
        rating.bot_id: rating
        for rating in Rating.objects.filter(
            bot_id__in=[bot for bot, _ in shared.most_common(rivals)], current=True
        ).select_related("bot__owner", "version")
    }

    def chance(rating: Rating) -> Chance:
        return Chance(
            bot_id=rating.bot_id,
            bot_name=rating.bot.name,
            owner=rating.bot.owner.username,
            version=rating.version.number,
            probability=round(
                win_probability(
                    game, (mine.rating, mine.rating_sigma), (rating.rating, rating.rating_sigma)
                ),
                4,
            ),
            met=shared.get(rating.bot_id, 0),
        )

    met = [chance(current[bot]) for bot, _ in shared.most_common(rivals) if bot in current]
    leaders = [
        chance(rating)
        for rating in ladder_for_game(game=game)[: top + 1]
        if rating.bot_id != version.bot_id
    ][:top]
    return {"met": met, "top": leaders}
