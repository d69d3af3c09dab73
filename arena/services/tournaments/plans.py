"""What a tournament will play, before it is created: how many matches and roughly how long.

The count comes from the format's own pure functions (the round robin's tables, Swiss and
promotion rounds played out, a double elimination's 2N-2 or 2N-1 pairings); the time from
how long this game's matches at that table size took lately and how many matches the
workers were seen playing at once in the last hour, after the matches already queued.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from arena.algorithms import formats
from arena.algorithms.round_robin import round_robin_tables
from arena.algorithms.tournament_options import table_size_default
from arena.models import Match, Tournament
from arena.services.tournaments.options import seats_at, seats_of

__all__ = [
    "MatchPace",
    "TournamentPlan",
    "match_pace",
    "matches_for",
    "one_table_warning",
    "planned_matches",
    "tournament_plan",
]

#: Recent matches of a game and table size timed for the estimate.
PACE_SAMPLE = 200
#: How far back the workers' parallelism is read.
PACE_WINDOW = timedelta(hours=1)


def matches_for(
    *,
    format: str,
    bots: int,
    seats: int,
    min_seats: int,
    matches_per_pairing: int = 1,
    duplicate: bool = False,
    rounds: int | None = None,
) -> tuple[int, int]:
    """(fewest, most) matches a tournament of ``bots`` plays at tables of ``seats``; equal
    but for a double elimination (a grand-final reset adds one pairing).

    >>> matches_for(format="round_robin", bots=32, seats=2, min_seats=2, matches_per_pairing=3)
    (1488, 1488)
    >>> matches_for(format="double_elimination", bots=8, seats=2, min_seats=2)
    (14, 15)
    """
    if bots < min_seats:
        return (0, 0)
    per_pairing = matches_per_pairing * (seats if duplicate else 1)
    if format == Tournament.Format.ROUND_ROBIN:
        pairings = len(round_robin_tables(list(range(bots)), seats))
        return (pairings * per_pairing,) * 2
    if format == Tournament.Format.SWISS:
        full, remainder = divmod(bots, seats)
        tables = full + (1 if remainder >= min_seats else 0)
        count = (rounds or formats.swiss_rounds_default(bots)) * tables * per_pairing
        return (count, count)
    if format == Tournament.Format.DOUBLE_ELIMINATION:
        # Every bot but the champion loses twice, the champion at most once: one loss a pairing.
        return ((2 * bots - 2) * per_pairing, (2 * bots - 1) * per_pairing)
    alive, pairings = list(range(bots)), 0
    while len(alive) > 1:
        step = formats.promotion_round(alive, seats=seats, min_seats=min_seats)
        pairings += len(step.tables)
        if step.final:
            break
        alive = formats.promoted(step.tables, step.byes, min_seats=min_seats)
    return (pairings * per_pairing,) * 2


def planned_matches(tournament: Tournament, *, bots: int) -> tuple[int, int]:
    """:func:`matches_for` a tournament as it is set up, with ``bots`` entrants."""
    seats = seats_of(tournament.game)
    size = tournament.table_size or table_size_default(seats)
    if tournament.format == Tournament.Format.DOUBLE_ELIMINATION:
        size = 2
    rounds = tournament.rounds
    return matches_for(
        format=tournament.format,
        bots=bots,
        seats=seats_at(size, bots, seats),
        min_seats=seats.smallest,
        matches_per_pairing=tournament.matches_per_pairing,
        duplicate=tournament.duplicate,
        rounds=rounds,
    )


@dataclass(frozen=True, slots=True)
class MatchPace:
    """How fast matches are played now: this game's recent match time at a table size, the
    matches the workers were seen playing at once, and the matches already waiting."""

    seconds_per_match: float | None  # None: no match of this game and size timed yet
    timed: int  # how many recent matches the time is the median of
    parallel: int  # most matches seen playing at once in the last hour (at least 1)
    queued: int  # matches waiting before a new tournament's
    queued_seconds: float  # roughly what those take


def _overlap(intervals: list[tuple[datetime, datetime]]) -> int:
    """The most intervals open at one moment (a sweep over their ends)."""
    events = sorted([(start, 1) for start, _ in intervals] + [(end, -1) for _, end in intervals])
    best = running = 0
    for _, step in events:
        running += step
        best = max(best, running)
    return best


def _known(durations: Iterable[float | None]) -> list[float]:
    """A nullable column's values from rows filtered on it being set: none is None."""
    return [duration for duration in durations if duration is not None]


def match_pace(*, game: str, seats: int, now: datetime | None = None) -> MatchPace:
    """The workers' pace as the last hour shows it (a fixed number of queries)."""
    now = now or timezone.now()
    done = Match.objects.filter(status=Match.Status.DONE, duration_s__isnull=False)
    durations = _known(
        done.filter(game=game, seat_count=seats)
        .order_by("-finished_at")
        .values_list("duration_s", flat=True)[:PACE_SAMPLE]
    )
    recent = list(
        Match.objects.filter(finished_at__gte=now - PACE_WINDOW, started_at__isnull=False)
        .order_by("-finished_at")
        .values_list("started_at", "finished_at")[:2000]
    )
    parallel = max(
        1, _overlap([(start, end) for start, end in recent if start and end and start <= end])
    )
    queued = Match.objects.filter(status=Match.Status.QUEUED)
    any_durations = _known(done.order_by("-finished_at").values_list("duration_s", flat=True)[:200])
    typical = statistics.median(any_durations) if any_durations else 0.0
    waiting = queued.count()
    return MatchPace(
        seconds_per_match=statistics.median(durations) if durations else None,
        timed=len(durations),
        parallel=parallel,
        queued=waiting,
        queued_seconds=waiting * typical,
    )


def one_table_warning(
    *, format: str, entrants: int, seats: int, min_seats: int, rounds: int | None
) -> str | None:
    """What goes wrong when every entrant sits at one table of a Swiss: each round seats the
    same bots, so its rounds are identical (the pairing has nobody else to choose). None
    when the rounds can differ (or the format is not Swiss).

    The organiser is warned, not refused: the entrants may still change before the start
    (new bots, sign-ups), and one table played again and again is a valid if plain event.

    >>> one_table_warning(format="swiss", entrants=4, seats=4, min_seats=2, rounds=3)[:44]
    'All 4 bots sit at one table of 4 every round'
    >>> one_table_warning(format="swiss", entrants=5, seats=4, min_seats=2, rounds=3) is None
    True
    """
    if format != Tournament.Format.SWISS or entrants < min_seats or seats < entrants:
        return None
    count = rounds or formats.swiss_rounds_default(entrants)
    if entrants <= min_seats:
        return (
            f"The {entrants} bots meet at the one table there is every round: the {count} "
            f"rounds of this Swiss are the same table played {count} times."
        )
    return (
        f"All {entrants} bots sit at one table of {entrants} every round, so the {count} "
        f"rounds of this Swiss are the same table played {count} times. Choose tables of "
        f"fewer than {entrants} seats for rounds that differ."
    )


@dataclass(frozen=True, slots=True)
class TournamentPlan:
    """What a tournament would play, for the organiser to confirm."""

    entrants: int  # bots that would take part now (sign-up: the game's eligible bots)
    entrants_known: bool  # False for sign-up: it depends on who signs up
    seats: int  # at each table
    matches: tuple[int, int]  # fewest, most
    pace: MatchPace
    seconds: tuple[float, float] | None  # its own matches' time, fewest and most
    wait_seconds: float  # before its first match, for the matches queued ahead
    #: A Swiss whose entrants all sit at one table: its rounds are identical (say why).
    one_table: str | None = None
    #: Matches each pairing (each table of a round) plays: matches per pairing, times the
    #: seats when every deal is played once per seat rotation.
    per_pairing: int = 1

    @property
    def pairings(self) -> tuple[int, int]:
        """Pairings (tables) the tournament seats, fewest and most."""
        low, high = self.matches
        return (low // self.per_pairing, high // self.per_pairing)


def tournament_plan(
    *, game: str, entrants: int, entrants_known: bool, **options: Any
) -> TournamentPlan:
    """The plan of a tournament of ``game`` with these (already checked) options."""
    seats = seats_of(game)
    format = options.get("format") or Tournament.Format.ROUND_ROBIN
    size = 2 if format == Tournament.Format.DOUBLE_ELIMINATION else options.get("table_size")
    at_table = seats_at(size or table_size_default(seats), max(entrants, 1), seats)
    matches = matches_for(
        format=format,
        bots=entrants,
        seats=at_table,
        min_seats=seats.smallest,
        matches_per_pairing=options.get("matches_per_pairing") or 1,
        duplicate=bool(options.get("duplicate")),
        rounds=options.get("rounds"),
    )
    pace = match_pace(game=game, seats=at_table)
    seconds: tuple[float, float] | None = None
    if pace.seconds_per_match is not None:
        fewest, most = (m * pace.seconds_per_match / pace.parallel for m in matches)
        seconds = (fewest, most)
    return TournamentPlan(
        entrants=entrants,
        entrants_known=entrants_known,
        seats=at_table,
        matches=matches,
        pace=pace,
        seconds=seconds,
        wait_seconds=pace.queued_seconds / pace.parallel,
        per_pairing=(options.get("matches_per_pairing") or 1)
        * (at_table if options.get("duplicate") else 1),
        one_table=one_table_warning(
            format=format,
            entrants=entrants,
            seats=at_table,
            min_seats=seats.smallest,
            rounds=options.get("rounds"),
        ),
    )
