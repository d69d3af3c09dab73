"""Round-robin tournaments of any game: create, start (freeze entries, fan out matches),
cancel, finish.

Starting a tournament freezes each participant's active version into a TournamentEntry,
so a bot updated mid-tournament keeps playing the version it entered with. Two-seat games
play every pair once; games of more seats play a balanced schedule of tables
(``arena.services.pairings``). Each match is its own ``play_match`` task; the match recorded
(or failed) last queues ``finish_tournament``, which stores the standings. A failed match
counts for nobody and does not hold the tournament up.

Standings, for any table size: each match gives a seat one point per seat it placed ahead
of and half a point per seat it tied with (a two-seat win is 1, a draw 1/2). Rank by points,
then first places, then (two seats) the mini-league of the bots level so far, then mean
placing, then match points scored; bots level on all of it share a rank.

How sure the order is: each crosstable cell carries the 95% confidence interval of its score
share (``interval``), and each standings row the likelihood that it is really ahead of the
next row (``superiority_over_next``: the share of bootstrap resamples of the played matches
in which its points beat the next bot's).
"""

from __future__ import annotations

import logging
import math
import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone

from arena.models import Bot, BotVersion, Match, MatchSeat, Tournament, TournamentEntry
from arena.services.errors import Conflict, InvalidInput
from arena.services.ladder import ladder_seats
from arena.services.matches import OPEN_STATUSES, match_create, new_seed
from arena.services.pairings import round_robin_tables
from engine import derive_seed
from engine.registry import GAMES, get_game

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
        least = get_game(tournament.game).min_players
        if len(bots) < least:
            raise Conflict(
                f"a tournament needs at least {least} bots with a valid version; {len(bots)} found",
                code="too_few_participants",
            )
        TournamentEntry.objects.bulk_create(
            TournamentEntry(tournament=tournament, bot=bot, version=bot.active_version)
            for bot in bots
        )
        by_id = {bot.pk: bot for bot in bots}
        seats = ladder_seats(tournament.game, len(bots))
        tables = round_robin_tables(sorted(by_id), seats, seed=tournament.seed)
        for number, table in enumerate(tables):
            # Seeds come from the tournament seed and the table, so a tournament replays.
            match_create(
                versions=[by_id[bot_id].active_version for bot_id in table],
                kind=Match.Kind.TOURNAMENT,
                tournament=tournament,
                seed=derive_seed(tournament.seed, "match", number, *table),
            )
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = timezone.now()
        tournament.save(update_fields=["status", "started_at"])
    log.info("tournament=%s started bots=%d matches=%d", tournament.pk, len(bots), len(tables))
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
    points: float = 0.0  # seats placed ahead of, plus half of those tied with
    first_places: int = 0
    wins: int = 0  # first place alone
    draws: int = 0  # first place shared
    losses: int = 0
    placing_sum: int = 0
    match_points: int = 0  # the game's own score, summed
    faults: int = 0
    # Mini-league against each opponent (two seats): 1 a win, 1/2 a draw, for level bots.
    result_vs: dict[int, float] = field(default_factory=dict)

    @property
    def mean_placing(self) -> float | None:
        return self.placing_sum / self.played if self.played else None


def _seat_points(placing: int, placings: Sequence[int]) -> float:
    """One point per seat placed behind, half a point per other seat placed level."""
    ahead = sum(1 for other in placings if other > placing)
    level = sum(1 for other in placings if other == placing) - 1
    return ahead + level / 2


def _tally(rows: dict[int, _Row], matches: Iterable[Match]) -> None:
    for match in matches:
        seats = list(match.seats.all())
        if match.status != Match.Status.DONE or any(s.placing is None for s in seats):
            continue
        placings = [s.placing for s in seats]
        firsts = placings.count(0)
        for seat in seats:
            row = rows.get(seat.bot_id)
            if row is None:
                continue
            row.played += 1
            row.points += _seat_points(seat.placing, placings)
            row.placing_sum += seat.placing
            row.match_points += seat.score
            row.faults += bool(seat.fault)
            if seat.placing == 0:
                row.first_places += 1
                row.wins += firsts == 1
                row.draws += firsts > 1
            else:
                row.losses += 1
            if len(seats) == 2:
                other = seats[1 - seat.seat].bot_id
                row.result_vs[other] = row.result_vs.get(other, 0.0) + _seat_points(
                    seat.placing, placings
                )


def rank_rows(rows: Sequence[_Row]) -> list[tuple[int, _Row]]:
    """Rows with their rank: points, first places, head-to-head, mean placing, match points.

    Head-to-head only compares bots level on the first two: their results against each
    other form a mini-league. Bots level on everything share a rank (1, 2, 2, 4) and are
    listed by name.
    """
    groups: dict[tuple[float, int], list[_Row]] = defaultdict(list)
    for row in rows:
        groups[(row.points, row.first_places)].append(row)
    keyed: list[tuple[tuple[float, ...], _Row]] = []
    for (points, firsts), group in groups.items():
        ids = {row.bot.pk for row in group}
        for row in group:
            head_to_head = sum(score for other, score in row.result_vs.items() if other in ids)
            mean = row.mean_placing if row.mean_placing is not None else 99.0
            keyed.append(((points, firsts, head_to_head, -mean, row.match_points), row))
    keyed.sort(key=lambda item: (tuple(-k for k in item[0]), item[1].bot.name, item[1].bot.pk))
    ranked: list[tuple[int, _Row]] = []
    for position, (key, row) in enumerate(keyed, start=1):
        tied = ranked and keyed[position - 2][0] == key
        ranked.append((ranked[-1][0] if tied else position, row))
    return ranked


def _crosstable(order: Sequence[int], matches: Iterable[Match]) -> dict[str, Any]:
    """Per ordered pair of bots: the matches they met in and how the row bot fared.

    A cell ``"<row>-<col>"`` holds ``matches`` (ids), ``ahead`` / ``level`` / ``behind``
    (placings of the row bot against the column bot), ``score`` (the row bot's points from
    those meetings, 1 per match ahead and 1/2 level) and, for two seats, ``result`` and
    ``match_points`` of their (last) match.
    """
    cells: dict[str, Any] = {}
    for match in matches:
        seats = list(match.seats.all())
        done = match.status == Match.Status.DONE and all(s.placing is not None for s in seats)
        for mine in seats:
            for theirs in seats:
                if mine.bot_id == theirs.bot_id:
                    continue
                cell = cells.setdefault(
                    f"{mine.bot_id}-{theirs.bot_id}",
                    {"matches": [], "ahead": 0, "level": 0, "behind": 0, "score": 0.0},
                )
                cell["matches"].append(match.pk)
                cell["match"] = match.pk
                cell["status"] = match.status
                if not done:
                    cell.setdefault("result", None)
                    continue
                if mine.placing < theirs.placing:
                    cell["ahead"] += 1
                    cell["score"] += 1
                    result = "win"
                elif mine.placing == theirs.placing:
                    cell["level"] += 1
                    cell["score"] += 0.5
                    result = "draw"
                else:
                    cell["behind"] += 1
                    result = "loss"
                if len(seats) == 2:
                    cell["result"] = result
                    cell["match_points"] = [mine.score, theirs.score]
    return {"bots": list(order), "cells": cells}


def _interval(cell: dict[str, Any]) -> list[float] | None:
    """95% interval of a cell's score share (per meeting 1, 1/2 or 0): Wilson's score
    interval, which stays honest at small counts and at 0% or 100% (where a normal interval
    would shrink to a point); counting a level meeting as half a win makes it a little wide."""
    n = cell["ahead"] + cell["level"] + cell["behind"]
    if n == 0:
        return None
    share = (cell["ahead"] + 0.5 * cell["level"]) / n
    z2 = 1.96**2
    centre = (share + z2 / (2 * n)) / (1 + z2 / n)
    half = 1.96 * math.sqrt(share * (1 - share) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


#: Bootstrap resamples of the tournament's matches for the likelihood of superiority.
BOOTSTRAP_SAMPLES = 300


def _superiority(order: Sequence[int], matches: Sequence[Match], seed: int) -> list[float | None]:
    """For each bot in ``order`` but the last: how likely it is really ahead of the next one
    (the share of bootstrap resamples of the matches in which its points beat the next bot's;
    ties count half). A resample draws the played matches with replacement."""
    done = []
    for match in matches:
        seats = list(match.seats.all())
        if match.status == Match.Status.DONE and all(s.placing is not None for s in seats):
            placings = [s.placing for s in seats]
            done.append({s.bot_id: _seat_points(s.placing, placings) for s in seats})
    if len(order) < 2 or not done:
        return [None] * max(len(order) - 1, 0)
    rng = random.Random(seed)
    ahead = [0.0] * (len(order) - 1)
    for _ in range(BOOTSTRAP_SAMPLES):
        totals: dict[int, float] = defaultdict(float)
        for _ in range(len(done)):
            for bot, points in done[rng.randrange(len(done))].items():
                totals[bot] += points
        for index in range(len(order) - 1):
            mine, next_one = totals[order[index]], totals[order[index + 1]]
            ahead[index] += 1.0 if mine > next_one else 0.5 if mine == next_one else 0.0
    return [round(value / BOOTSTRAP_SAMPLES, 3) for value in ahead]


def _standings(tournament: Tournament) -> dict[str, Any]:
    entries = tournament.entries.select_related("bot__owner", "version").order_by("bot_id")
    rows = {entry.bot_id: _Row(bot=entry.bot, version=entry.version.number) for entry in entries}
    matches = list(
        tournament.matches.order_by("id").prefetch_related(
            Prefetch("seats", queryset=MatchSeat.objects.order_by("seat"))
        )
    )
    _tally(rows, matches)
    ranked = rank_rows(list(rows.values()))
    order = [row.bot.pk for _, row in ranked]
    superiority = [*_superiority(order, matches, tournament.seed), None]
    crosstable = _crosstable(order, matches)
    for cell in crosstable["cells"].values():
        cell["interval"] = _interval(cell)
    over = sum(match.status in (Match.Status.DONE, Match.Status.FAILED) for match in matches)
    return {
        "tournament": tournament.pk,
        "game": tournament.game,
        "seats": max((match.seat_count for match in matches), default=2),
        "status": tournament.status,
        "matches_total": len(matches),
        "matches_done": over,
        "rows": [
            {
                "rank": rank,
                "bot": {"id": row.bot.pk, "name": row.bot.name, "owner": row.bot.owner.username},
                "version": row.version,
                "played": row.played,
                "points": row.points,
                "first_places": row.first_places,
                "wins": row.wins,
                "draws": row.draws,
                "losses": row.losses,
                "mean_placing": (
                    round(row.mean_placing, 3) if row.mean_placing is not None else None
                ),
                "match_points": row.match_points,
                "faults": row.faults,
                "superiority_over_next": superiority[index],
            }
            for index, (rank, row) in enumerate(ranked)
        ],
        "crosstable": crosstable,
    }


def tournament_standings(*, tournament: Tournament) -> dict[str, Any]:
    """The standings: stored once finished, computed live before that.

    ``matches_done`` counts the matches that are over (played or failed), so it reaches
    ``matches_total`` when the tournament can finish.
    """
    stored = tournament.standings
    # Standings stored before tournaments had N seats (no "seats" key) are counted again from
    # the matches, which the seats migration carried over, rather than served in an old shape.
    if tournament.status == Tournament.Status.FINISHED and stored and "seats" in stored:
        return stored
    return _standings(tournament)


# --- first run ----------------------------------------------------------------------------


def demo_tournament_start() -> list[Tournament]:
    """Start a tournament of the built-in bots of every game, if no tournament was ever run.

    Gives a new installation ladders, standings and replays within a minute of the first
    worker coming up. Does nothing when ``ARENA_DEMO_TOURNAMENT`` is off.
    """
    from arena.services.builtins import ARENA_USERNAME, builtin_bots_install

    if not getattr(settings, "ARENA_DEMO_TOURNAMENT", True) or Tournament.objects.exists():
        return []
    installed = builtin_bots_install()
    owner = get_user_model().objects.get(username=ARENA_USERNAME)
    started = []
    for game in GAMES:
        ids = [bot.pk for bot in installed if bot.game == game]
        if len(ids) < get_game(game).min_players:
            continue
        with transaction.atomic():
            tournament = tournament_create(
                name=f"{DEMO_NAME}: {get_game(game).title}", game=game, created_by=owner, seed=21
            )
            bots = list(Bot.objects.filter(pk__in=ids).select_related("active_version"))
            started.append(_start(tournament.pk, bots=bots))
    return started
