"""A tournament's standings from its matches: points, ranks, the crosstable and how sure each
number is (pure functions on plain records; the services read the rows).

**Points.** Each match gives a seat one point per seat it placed ahead of and half a point
per seat it tied with: a two-seat win is 1, a draw 1/2; first of four is 3. A bot's points
add up over all its matches, whatever the number of matches per pairing or the table size.

**Units.** The matches of a duplicate set (the same deals with the seats rotated) are one
independent draw, a *unit*; any other match is a unit of its own. Every interval and every
resample below draws units, never single matches of a set, so the luck the set cancels is
not counted as information twice.

**How sure.** A crosstable cell (the row bot against the column bot, over every match they
shared) carries the row bot's score share with its 95% interval
(:func:`arena.algorithms.intervals.score_share`, the arena's one interval method). A
standings row carries its points with a 95% interval (its score share's interval, scaled to
the points it could have made) and ``superiority_over_next``, the likelihood of superiority
over the row below: the share of bootstrap resamples of the tournament's units in which it
makes more points than that bot (level counts half), with one extra unit won by each of the
two counted in, as the intervals count them, so that a handful of matches never reads as
certainty.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from arena.algorithms.intervals import score_share

__all__ = [
    "BOOTSTRAP_SAMPLES",
    "Entrant",
    "MatchRecord",
    "Row",
    "SeatRecord",
    "crosstable",
    "points_interval",
    "rank_elimination",
    "rank_round_robin",
    "rank_swiss",
    "seat_points",
    "superiority",
    "tally",
]

#: Bootstrap resamples of the tournament's units for the likelihood of superiority.
BOOTSTRAP_SAMPLES = 1000


@dataclass(frozen=True, slots=True)
class SeatRecord:
    bot: int
    placing: int | None  # 0 = first; None until played
    score: int = 0  # the game's own match points
    fault: bool = False  # its own fault put it out of the match


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One match of a tournament, as the standings need it."""

    id: int
    status: str  # "done", "failed" (over, counts for nobody), or still to play
    seats: tuple[SeatRecord, ...]
    unit: Any = None  # its duplicate set's key; None: a unit of its own

    @property
    def played(self) -> bool:
        return self.status == "done" and all(seat.placing is not None for seat in self.seats)

    @property
    def over(self) -> bool:
        return self.status in ("done", "failed")

    @property
    def unit_key(self) -> Any:
        return ("set", self.unit) if self.unit else ("match", self.id)


@dataclass(frozen=True, slots=True)
class Entrant:
    bot: int
    name: str
    owner: str
    version: int
    seed: int | None = None  # 1 = best, from the ratings at the start


def seat_points(placing: int, placings: Sequence[int]) -> float:
    """One point per seat placed behind, half a point per other seat placed level.

    >>> seat_points(0, [0, 1]), seat_points(0, [0, 0]), seat_points(1, [0, 1, 1, 3])
    (1.0, 0.5, 1.5)
    """
    ahead = sum(1 for other in placings if other > placing)
    level = sum(1 for other in placings if other == placing) - 1
    return ahead + level / 2


@dataclass
class Row:
    entrant: Entrant
    played: int = 0
    points: float = 0.0  # from matches, plus byes where the format gives points for them
    #: The most points its played matches could have given (seats - 1 each).
    possible: float = 0.0
    first_places: int = 0
    wins: int = 0  # first place alone
    draws: int = 0  # first place shared
    losses: int = 0
    placing_sum: int = 0
    match_points: int = 0  # the game's own score, summed
    faults: int = 0
    #: Against each opponent (two seats): its points, for the mini-league of level bots.
    result_vs: dict[int, float] = field(default_factory=dict)
    buchholz: float = 0.0  # Swiss: the opponents' points, summed
    byes: list[int] = field(default_factory=list)  # rounds it sat out
    bye_points: float = 0.0
    eliminated_in: int | None = None  # eliminations: the round it went out in
    exit_place: int | None = None  # promotion: its place (0 = first) at the table it left

    @property
    def bot(self) -> int:
        return self.entrant.bot

    @property
    def mean_placing(self) -> float | None:
        """Mean seats placed ahead of it (0 = always first): what ranks sort by."""
        return self.placing_sum / self.played if self.played else None

    @property
    def mean_place(self) -> float | None:
        """Its mean place as people count it, 1 = first (docs/api.md, "Places")."""
        return 1 + self.placing_sum / self.played if self.played else None


def tally(entrants: Iterable[Entrant], matches: Iterable[MatchRecord]) -> dict[int, Row]:
    """Each entrant's row, counted over the played matches."""
    rows = {entrant.bot: Row(entrant=entrant) for entrant in entrants}
    for match in matches:
        if not match.played:
            continue
        placings = [seat.placing for seat in match.seats]
        firsts = placings.count(0)
        for seat in match.seats:
            row = rows.get(seat.bot)
            if row is None:
                continue
            points = seat_points(seat.placing, placings)  # type: ignore[arg-type]
            row.played += 1
            row.points += points
            row.possible += len(match.seats) - 1
            row.placing_sum += seat.placing  # type: ignore[operator]
            row.match_points += seat.score
            row.faults += seat.fault
            if seat.placing == 0:
                row.first_places += 1
                row.wins += firsts == 1
                row.draws += firsts > 1
            else:
                row.losses += 1
            if len(match.seats) == 2:
                other = next(s.bot for s in match.seats if s is not seat)
                row.result_vs[other] = row.result_vs.get(other, 0.0) + points
    return rows


# --- ranks ----------------------------------------------------------------------------------


def _ranked(keyed: list[tuple[tuple[float, ...], Row]]) -> list[tuple[int, Row]]:
    """Rows by ``key`` (ascending), then name; equal keys share a rank (1, 2, 2, 4)."""
    keyed.sort(key=lambda item: (item[0], item[1].entrant.name, item[1].bot))
    ranked: list[tuple[int, Row]] = []
    for position, (key, row) in enumerate(keyed, start=1):
        tied = ranked and keyed[position - 2][0] == key
        ranked.append((ranked[-1][0] if tied else position, row))
    return ranked


def _level_head_to_head(rows: Sequence[Row], key: Any) -> dict[int, float]:
    """Each row's points against the rows level with it on ``key`` (a mini-league)."""
    groups: dict[Any, set[int]] = defaultdict(set)
    for row in rows:
        groups[key(row)].add(row.bot)
    return {
        row.bot: sum(s for other, s in row.result_vs.items() if other in groups[key(row)])
        for row in rows
    }


def rank_round_robin(rows: Sequence[Row]) -> list[tuple[int, Row]]:
    """Points, then first places, then the results among the bots level on both (a
    mini-league, two seats), then mean placing, then match points; bots level on all of it
    share a rank and are listed by name."""
    h2h = _level_head_to_head(rows, lambda row: (row.points, row.first_places))

    def key(row: Row) -> tuple[float, ...]:
        mean = row.mean_placing if row.mean_placing is not None else 99.0
        return (-row.points, -row.first_places, -h2h[row.bot], mean, -row.match_points)

    return _ranked([(key(row), row) for row in rows])


def rank_swiss(rows: Sequence[Row]) -> list[tuple[int, Row]]:
    """Swiss: points (byes included), then Buchholz (the opponents' points summed), then
    head-to-head among the bots level on both, then seed (the rating at the start)."""
    h2h = _level_head_to_head(rows, lambda row: (row.points, row.buchholz))
    return _ranked(
        [((-row.points, -row.buchholz, -h2h[row.bot], row.entrant.seed or 0), row) for row in rows]
    )


def rank_elimination(rows: Sequence[Row], *, champion: int | None) -> list[tuple[int, Row]]:
    """Eliminations: the champion, then the bots still in, then by the round they went out
    in (latest first: the runner-up lost the final), then (promotion) their place at the
    table they went out from, then points, then seed."""

    def key(row: Row) -> tuple[float, ...]:
        out = row.eliminated_in
        return (
            row.bot != champion,
            out is not None,
            -(out or 0),
            row.exit_place or 0,
            -row.points,
            row.entrant.seed or 0,
        )

    return _ranked([(key(row), row) for row in rows])


# --- how sure -------------------------------------------------------------------------------


def _units(matches: Iterable[MatchRecord]) -> dict[Any, list[MatchRecord]]:
    units: dict[Any, list[MatchRecord]] = defaultdict(list)
    for match in matches:
        if match.played:
            units[match.unit_key].append(match)
    return units


def points_interval(
    bot: int, matches: Iterable[MatchRecord], *, bye_points: float = 0.0
) -> tuple[float, float] | None:
    """The 95% interval of a bot's points: its score share's interval (over its units)
    scaled to the points its matches could have given, plus any bye points (certain).
    None before it played."""
    units = []
    possible = 0.0
    for unit in _units(m for m in matches if any(s.bot == bot for s in m.seats)).values():
        points = most = 0.0
        for match in unit:
            placings = [seat.placing for seat in match.seats]
            mine = next(seat for seat in match.seats if seat.bot == bot)
            points += seat_points(mine.placing, placings)  # type: ignore[arg-type]
            most += len(match.seats) - 1
        units.append((points / most, len(unit)))
        possible += most
    share = score_share(units)
    if share.low is None or share.high is None:
        return None
    return (share.low * possible + bye_points, share.high * possible + bye_points)


def superiority(
    order: Sequence[int],
    matches: Sequence[MatchRecord],
    *,
    seed: int,
    bye_points: Mapping[int, float] | None = None,
    samples: int = BOOTSTRAP_SAMPLES,
) -> list[float | None]:
    """For each bot in ``order`` but the last: how likely it makes more points than the
    next one if the tournament's units were drawn again (bootstrap resamples with
    replacement; level counts half). None where neither has played.

    As the intervals do (:func:`arena.algorithms.intervals.score_share`), each comparison
    counts in two extra units, one won outright by each bot of the pair and each of the
    size of a typical unit between them (the mean swing of the units in which their points
    differ), so that two wins of two read as likely, not certain. Each resample is read
    twice, with the extra units' draws swapped (antithetic), so that two bots level on
    every unit come out at exactly one half.
    """
    units = list(_units(matches).values())
    if len(order) < 2 or not units:
        return [None] * max(len(order) - 1, 0)
    column = {bot: index for index, bot in enumerate(order)}
    points = np.zeros((len(units), len(order)))
    played = np.zeros(len(order), dtype=bool)
    for row, unit in enumerate(units):
        for match in unit:
            placings = [seat.placing for seat in match.seats]
            for seat in match.seats:
                if seat.bot in column:
                    gained = seat_points(seat.placing, placings)  # type: ignore[arg-type]
                    points[row, column[seat.bot]] += gained
                    played[column[seat.bot]] = True
    # Per adjacent pair: the unit's points of the upper bot less the lower bot's.
    gaps = points[:, :-1] - points[:, 1:]
    swing = np.abs(gaps)
    moved = swing > 0
    typical = np.where(moved.any(axis=0), swing.sum(axis=0) / np.maximum(moved.sum(axis=0), 1), 1.0)
    fixed = np.array([(bye_points or {}).get(bot, 0.0) for bot in order])
    offset = fixed[:-1] - fixed[1:]
    rng = np.random.default_rng(seed % 2**63)
    # counts[r, u]: how often resample r drew unit u, the two extra units last (a multinomial
    # draw of as many units as there are, extra units included).
    drawn = len(units) + 2
    counts = rng.multinomial(drawn, [1 / drawn] * drawn, size=samples)
    real = counts[:, : len(units)] @ gaps + offset
    extra = (counts[:, -2] - counts[:, -1])[:, None] * typical
    ahead = np.zeros(len(order) - 1)
    for total in (real + extra, real - extra):
        ahead += (total > 0).mean(axis=0) + 0.5 * (total == 0).mean(axis=0)
    ahead /= 2
    result: list[float | None] = []
    for index in range(len(order) - 1):
        if not (played[index] or played[index + 1]):
            result.append(None)
            continue
        result.append(round(float(ahead[index]), 3))
    return result


# --- the crosstable ---------------------------------------------------------------------------


def crosstable(order: Sequence[int], matches: Iterable[MatchRecord]) -> dict[str, Any]:
    """Per ordered pair of bots that shared a table: how the row bot fared against the
    column bot over **all** their matches.

    A cell ``"<row>-<col>"`` holds ``matches`` (ids, in order), ``open`` (still to play),
    ``failed`` (not played), ``ahead`` / ``level`` / ``behind`` (the row bot's placings
    against the column bot's in the played ones), ``score`` (its points from them: 1 ahead,
    1/2 level), ``share`` with its 95% ``interval`` (over the pair's units), ``result``
    (``win`` / ``draw`` / ``loss``: ahead more often, as often, or less; null before any is
    played) and, at two seats, ``match_points``: the game's own score of both, summed.
    """
    cells: dict[str, dict[str, Any]] = {}
    pair_units: dict[str, dict[Any, list[float]]] = defaultdict(dict)
    two_seats = True
    for match in matches:
        seats = match.seats
        two_seats &= len(seats) == 2
        for mine in seats:
            for theirs in seats:
                if mine.bot == theirs.bot:
                    continue
                key = f"{mine.bot}-{theirs.bot}"
                cell = cells.setdefault(key, _empty_cell())
                cell["matches"].append(match.id)
                if not match.over:
                    cell["open"] += 1
                    continue
                if not match.played:
                    cell["failed"] += 1
                    continue
                point = _count_meeting(cell, mine, theirs)
                unit = pair_units[key].setdefault(match.unit_key, [0.0, 0.0])
                unit[0] += point
                unit[1] += 1
    for key, cell in cells.items():
        _settle(cell, pair_units[key].values(), two_seats=two_seats)
    return {"bots": list(order), "cells": cells}


def _count_meeting(cell: dict[str, Any], mine: SeatRecord, theirs: SeatRecord) -> float:
    """Count one played meeting in the row bot's cell: ahead, level or behind on placings
    and both bots' match points. Returns the row bot's point (1, 1/2 or 0), which the
    pair's score share sums per unit."""
    if mine.placing < theirs.placing:  # type: ignore[operator]  # both played
        cell["ahead"] += 1
        point = 1.0
    elif mine.placing == theirs.placing:
        cell["level"] += 1
        point = 0.5
    else:
        cell["behind"] += 1
        point = 0.0
    cell["score"] += point
    cell["match_points"][0] += mine.score
    cell["match_points"][1] += theirs.score
    return point


def _settle(cell: dict[str, Any], units: Iterable[list[float]], *, two_seats: bool) -> None:
    """Finish a cell once every match is counted: its score share and 95% interval over the
    pair's units (a duplicate set is one unit, so its deals' luck cancels out), its result,
    and match points only where they read as head-to-head (two seats)."""
    share = score_share((total / count, count) for total, count in units)
    played = cell["ahead"] + cell["level"] + cell["behind"]
    cell["share"] = None if share.score is None else round(share.score, 4)
    cell["interval"] = (
        None if share.low is None else [round(share.low, 4), round(share.high or 0.0, 4)]
    )
    cell["result"] = (
        None
        if not played
        else "win"
        if cell["ahead"] > cell["behind"]
        else "loss"
        if cell["ahead"] < cell["behind"]
        else "draw"
    )
    if not two_seats:
        del cell["match_points"]


def _empty_cell() -> dict[str, Any]:
    return {
        "matches": [],
        "open": 0,
        "failed": 0,
        "ahead": 0,
        "level": 0,
        "behind": 0,
        "score": 0.0,
        "match_points": [0, 0],
    }
