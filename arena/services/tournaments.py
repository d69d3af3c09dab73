"""Round-robin tournaments: create, start (freeze entries, fan out matches), cancel, finish.

Starting a tournament freezes each participant's active version into a TournamentEntry,
so a bot updated mid-tournament keeps playing the version it entered with. Every pairing
plays one best-of-7 match, each its own ``play_match`` task; the match recorded (or failed)
last queues ``finish_tournament``, which stores the standings. A failed match counts for
nobody and does not hold the tournament up.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from arena.models import Bot, BotVersion, Match, Tournament, TournamentEntry
from arena.services.errors import Conflict, InvalidInput
from arena.services.matches import OPEN_STATUSES, match_create, new_seed
from engine import derive_seed
from engine.games.lie21.match_rules import BestOfSeven
from engine.registry import GAMES

__all__ = [
    "demo_tournament_start",
    "tournament_cancel",
    "tournament_create",
    "tournament_finish",
    "tournament_participants",
    "tournament_standings",
    "tournament_start",
]

log = logging.getLogger(__name__)

DEMO_NAME = "Demo tournament"


def tournament_create(
    *,
    name: str,
    game: str,
    created_by: Any,
    seed: int | None = None,
    schedule: Any = None,
) -> Tournament:
    """A pending tournament; nothing is frozen or played until :func:`tournament_start`."""
    if game not in GAMES:
        raise InvalidInput(f"unknown game {game!r}", code="unknown_game")
    name = (name or "").strip()
    if not name or len(name) > 100:
        raise InvalidInput("a tournament name is 1-100 characters", code="bad_name")
    if seed is not None and not 0 <= seed < 2**63:
        raise InvalidInput("the seed must be a non-negative 63-bit integer", code="bad_seed")
    return Tournament.objects.create(
        name=name,
        game=game,
        seed=new_seed() if seed is None else seed,
        created_by=created_by,
        schedule=schedule,
    )


def tournament_participants(*, game: str) -> list[Bot]:
    """Active bots of ``game`` whose active version is valid, in id order."""
    return list(
        Bot.objects.filter(
            game=game, is_active=True, active_version__status=BotVersion.Status.VALID
        )
        .select_related("active_version")
        .order_by("id")
    )


def tournament_start(*, tournament_id: int) -> Tournament:
    """Freeze the participants, create every pairing's match and queue them all.

    Conflict if the tournament is not pending or fewer than two bots can take part.
    """
    return _start(tournament_id, bots=None)


def _start(tournament_id: int, *, bots: Sequence[Bot] | None) -> Tournament:
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.status != Tournament.Status.PENDING:
            raise Conflict(
                f"tournament {tournament.pk} is {tournament.status}, not pending",
                code="not_pending",
            )
        if bots is None:
            bots = tournament_participants(game=tournament.game)
        if len(bots) < 2:
            raise Conflict(
                f"a tournament needs at least 2 bots with a valid version; {len(bots)} found",
                code="too_few_participants",
            )
        TournamentEntry.objects.bulk_create(
            TournamentEntry(tournament=tournament, bot=bot, version=bot.active_version)
            for bot in bots
        )
        for first, second in combinations(sorted(bots, key=lambda bot: bot.pk), 2):
            # Seeds come from the tournament seed and the pairing, so a tournament replays.
            match_create(
                version_a=first.active_version,
                version_b=second.active_version,
                kind=Match.Kind.TOURNAMENT,
                tournament=tournament,
                seed=derive_seed(tournament.seed, "match", first.pk, second.pk),
            )
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = timezone.now()
        tournament.save(update_fields=["status", "started_at"])
    log.info(
        "tournament=%s started bots=%d matches=%d",
        tournament.pk,
        len(bots),
        len(bots) * (len(bots) - 1) // 2,
    )
    return tournament


def tournament_cancel(*, tournament_id: int) -> Tournament:
    """Stop a pending or running tournament; its matches not yet started are not played.

    Matches already running finish and are rated like any other.
    """
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.status not in (Tournament.Status.PENDING, Tournament.Status.RUNNING):
            raise Conflict(
                f"tournament {tournament.pk} is {tournament.status}; it cannot be cancelled",
                code="not_cancellable",
            )
        now = timezone.now()
        tournament.matches.filter(status=Match.Status.QUEUED).update(
            status=Match.Status.FAILED, failure_reason=Match.CANCELLED, finished_at=now
        )
        tournament.status = Tournament.Status.CANCELLED
        tournament.finished_at = now
        tournament.save(update_fields=["status", "finished_at"])
    return tournament


def tournament_finish(*, tournament_id: int) -> Tournament:
    """Store the standings and mark the tournament finished once no match is open.

    Safe to call any number of times: it does nothing while matches are open or when the
    tournament is not running.
    """
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.status != Tournament.Status.RUNNING:
            return tournament
        if tournament.matches.filter(status__in=OPEN_STATUSES).exists():
            return tournament
        tournament.status = Tournament.Status.FINISHED
        tournament.finished_at = timezone.now()
        tournament.standings = _standings(tournament)
        tournament.save(update_fields=["status", "finished_at", "standings"])
    log.info("tournament=%s finished", tournament.pk)
    return tournament


# --- standings ----------------------------------------------------------------------------


@dataclass
class _Row:
    bot: Bot
    version: int
    played: int = 0
    match_points: int = 0
    match_wins: int = 0
    draws: int = 0
    losses: int = 0
    points: int = 0
    # Mini-league score against each opponent: 2 a win, 1 a draw (for head-to-head ties).
    result_vs: dict[int, int] = field(default_factory=dict)


#: A match won because the other bot failed counts as won by the match's target (4-0 in
#: Lie 21), a walkover: otherwise beating a broken bot early would be worth less in the
#: standings than a close win over a working one.
WALKOVER_MATCH_POINTS = BestOfSeven().target


def _match_points(match: Match, seat: str) -> tuple[int, int]:
    """(this seat's, the other's) match points, as the standings count them."""
    points = {"a": match.match_points_a, "b": match.match_points_b}
    if match.reason == "error" and match.outcome in points:
        points[match.outcome] = max(points[match.outcome], WALKOVER_MATCH_POINTS)
    other = "b" if seat == "a" else "a"
    return points[seat], points[other]


def _result(match: Match, seat: str) -> str | None:
    if match.status != Match.Status.DONE or not match.outcome:
        return None
    if match.outcome == Match.Outcome.DRAW:
        return "draw"
    return "win" if match.outcome == seat else "loss"


def _tally(rows: dict[int, _Row], matches: Iterable[Match]) -> None:
    for match in matches:
        sides = (
            (match.bot_a_id, match.bot_b_id, "a", match.points_a),
            (match.bot_b_id, match.bot_a_id, "b", match.points_b),
        )
        for bot_id, other_id, seat, points in sides:
            result = _result(match, seat)
            row = rows.get(bot_id)
            if row is None or result is None:
                continue
            row.played += 1
            row.match_points += _match_points(match, seat)[0]
            row.points += points
            row.match_wins += result == "win"
            row.draws += result == "draw"
            row.losses += result == "loss"
            row.result_vs[other_id] = {"win": 2, "draw": 1, "loss": 0}[result]


def rank_rows(rows: Sequence[_Row]) -> list[tuple[int, _Row]]:
    """Rows with their rank: match points, then match wins, then head-to-head, then points.

    Head-to-head only compares bots level on the first two: their results against each
    other form a mini-league (2 for a win, 1 for a draw). Bots level on everything share a
    rank (1, 2, 2, 4) and are listed by name.
    """
    groups: dict[tuple[int, int], list[_Row]] = defaultdict(list)
    for row in rows:
        groups[(row.match_points, row.match_wins)].append(row)
    keyed: list[tuple[tuple[int, int, int, int], _Row]] = []
    for (match_points, wins), group in groups.items():
        ids = {row.bot.pk for row in group}
        for row in group:
            head_to_head = sum(score for other, score in row.result_vs.items() if other in ids)
            keyed.append(((match_points, wins, head_to_head, row.points), row))
    keyed.sort(key=lambda item: (tuple(-k for k in item[0]), item[1].bot.name, item[1].bot.pk))
    ranked: list[tuple[int, _Row]] = []
    for position, (key, row) in enumerate(keyed, start=1):
        tied = ranked and keyed[position - 2][0] == key
        ranked.append((ranked[-1][0] if tied else position, row))
    return ranked


def _crosstable(order: Sequence[int], matches: Iterable[Match]) -> dict[str, Any]:
    cells: dict[str, Any] = {}
    for match in matches:
        sides = ((match.bot_a_id, match.bot_b_id, "a"), (match.bot_b_id, match.bot_a_id, "b"))
        for row_id, col_id, seat in sides:
            cells[f"{row_id}-{col_id}"] = {
                "match": match.pk,
                "status": match.status,
                "result": _result(match, seat),
                "match_points": list(_match_points(match, seat)),
            }
    return {"bots": list(order), "cells": cells}


def _standings(tournament: Tournament) -> dict[str, Any]:
    entries = tournament.entries.select_related("bot__owner", "version").order_by("bot_id")
    rows = {entry.bot_id: _Row(bot=entry.bot, version=entry.version.number) for entry in entries}
    matches = list(tournament.matches.order_by("id"))
    _tally(rows, matches)
    ranked = rank_rows(list(rows.values()))
    over = sum(match.status in (Match.Status.DONE, Match.Status.FAILED) for match in matches)
    return {
        "tournament": tournament.pk,
        "status": tournament.status,
        "matches_total": len(matches),
        "matches_done": over,
        "rows": [
            {
                "rank": rank,
                "bot": {"id": row.bot.pk, "name": row.bot.name, "owner": row.bot.owner.username},
                "version": row.version,
                "played": row.played,
                "match_points": row.match_points,
                "match_wins": row.match_wins,
                "draws": row.draws,
                "losses": row.losses,
                "points": row.points,
            }
            for rank, row in ranked
        ],
        "crosstable": _crosstable([row.bot.pk for _, row in ranked], matches),
    }


def tournament_standings(*, tournament: Tournament) -> dict[str, Any]:
    """The standings: stored once finished, computed live before that.

    ``matches_done`` counts the matches that are over (played or failed), so it reaches
    ``matches_total`` when the tournament can finish.
    """
    if tournament.status == Tournament.Status.FINISHED and tournament.standings:
        return tournament.standings
    return _standings(tournament)


# --- first run ----------------------------------------------------------------------------


def demo_tournament_start() -> Tournament | None:
    """Start a tournament of the built-in bots if no tournament was ever run.

    Gives a new installation a ladder, standings and replays within a minute of the first
    worker coming up. Does nothing when ``ARENA_DEMO_TOURNAMENT`` is off.
    """
    from arena.services.builtins import ARENA_USERNAME, builtin_bots_install

    if not getattr(settings, "ARENA_DEMO_TOURNAMENT", True) or Tournament.objects.exists():
        return None
    bots = [bot for bot in builtin_bots_install() if bot.game == "lie21"]
    if len(bots) < 2:
        return None
    owner = get_user_model().objects.get(username=ARENA_USERNAME)
    with transaction.atomic():
        tournament = tournament_create(name=DEMO_NAME, game="lie21", created_by=owner, seed=21)
        bots = list(
            Bot.objects.filter(pk__in=[b.pk for b in bots]).select_related("active_version")
        )
        return _start(tournament.pk, bots=bots)
