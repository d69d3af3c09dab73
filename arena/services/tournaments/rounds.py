"""The rounds of Swiss, double elimination and promotion tournaments, one at a time.

The rounds so far are read back from the database (:func:`history`): each table's bots,
matches and points, the byes, who met whom, each bot's seats. The pure functions of
:mod:`arena.algorithms.formats` then give the next round, which :func:`round_create` saves
(its matches in two bulk inserts) under the tournament's row lock, so a round is created
once however often "round finished" is delivered.
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from arena.algorithms import formats
from arena.algorithms.standings import seat_points
from arena.models import BotVersion, Match, MatchSeat, Tournament
from arena.services.matches import OPEN_STATUSES, Built, duplicate_build, match_build, matches_save
from arena.services.tournaments.options import seats_at, seats_of
from engine import derive_seed

__all__ = ["History", "Table", "history", "round_create", "table_build", "table_seats"]

log = logging.getLogger(__name__)


@dataclass
class Table:
    round_number: int
    table_number: int
    bots: list[int]  # seat order of its first match
    matches: list[int] = field(default_factory=list)
    points: dict[int, float] = field(default_factory=dict)  # per bot, over its played matches
    open: bool = False
    bracket: str | None = None
    winner: int | None = None
    through: list[int] = field(default_factory=list)  # who went on (eliminations)


@dataclass
class History:
    """What the rounds so far say: their tables with results, byes and meetings."""

    tables: list[Table]
    byes: list[tuple[int, int, float]]  # round, bot, points
    seeds: dict[int, int]  # bot -> seed number (1 = best)
    rounds_played: int = 0
    met: Counter[tuple[int, int]] = field(default_factory=Counter)
    positions: Counter[tuple[int, int]] = field(default_factory=Counter)
    points: dict[int, float] = field(default_factory=dict)
    losses: dict[int, int] = field(default_factory=dict)
    eliminated_in: dict[int, int] = field(default_factory=dict)
    exit_place: dict[int, int] = field(default_factory=dict)  # its place at the table it left
    alive: list[int] = field(default_factory=list)  # promotion: still in, by seed
    champion: int | None = None
    #: Eliminations: the bracket each bye was in, by (round, bot).
    bye_brackets: dict[tuple[int, int], str] = field(default_factory=dict)


def _finishing_order(table: Table, seeds: dict[int, int]) -> list[int]:
    """A table's bots by their points over its matches, then by seed."""
    return sorted(table.bots, key=lambda bot: (-table.points.get(bot, 0.0), seeds[bot]))


def _table_points(
    table: Table, by_match: Mapping[int, list[tuple[int, int | None]]]
) -> dict[int, float]:
    """Each of the table's bots' points over its played matches (``by_match``: each played
    match's (bot, placing)); a match with a seat not placed counts for nobody."""
    points = dict.fromkeys(table.bots, 0.0)
    for match_id in table.matches:
        placed = by_match.get(match_id, [])
        placings = [placing for _, placing in placed if placing is not None]
        if not placed or len(placings) < len(placed):
            continue
        for (bot_id, _), placing in zip(placed, placings, strict=True):
            points[bot_id] += seat_points(placing, placings)
    return points


def table_seats(tournament: Tournament, bots: int) -> tuple[int, int]:
    """(seats, fewest seats) of a table of the tournament, with ``bots`` to seat."""
    seats = seats_of(tournament.game)
    wanted = 2 if tournament.format == Tournament.Format.DOUBLE_ELIMINATION else None
    size = wanted or tournament.table_size or seats.smallest
    return seats_at(size, bots, seats), seats.smallest


def history(tournament: Tournament) -> History:
    seats = (
        MatchSeat.objects.filter(match__tournament=tournament, match__round_number__isnull=False)
        .order_by("match__round_number", "match__table_number", "match__leg", "seat")
        .values_list(
            "match_id",
            "match__round_number",
            "match__table_number",
            "match__leg",
            "match__status",
            "bot_id",
            "placing",
        )
    )
    tables: dict[tuple[int, int], Table] = {}
    by_match: dict[int, list[tuple[int, int | None]]] = defaultdict(list)
    for match_id, round_number, table_number, leg, status, bot_id, placing in seats:
        if round_number is None or table_number is None:
            continue  # never: the query keeps a round's matches, which have both
        table = tables.setdefault(
            (round_number, table_number), Table(round_number, table_number, bots=[])
        )
        if leg == 0:
            table.bots.append(bot_id)
        if match_id not in table.matches:
            table.matches.append(match_id)
        table.open |= status in OPEN_STATUSES
        if status == Match.Status.DONE:
            by_match[match_id].append((bot_id, placing))
    for table in tables.values():
        table.points = _table_points(table, by_match)
    entries = tournament.entries.values_list("bot_id", "seed")
    found = History(
        tables=sorted(tables.values(), key=lambda t: (t.round_number, t.table_number)),
        byes=[(r, bot, float(points)) for r, bot, points in tournament.byes],
        seeds={bot: seed or bot for bot, seed in entries},
    )
    found.rounds_played = max(
        [t.round_number for t in found.tables] + [r for r, _, _ in found.byes], default=0
    )
    found.points = dict.fromkeys(found.seeds, 0.0)
    for table in found.tables:
        found.met.update(formats.meetings([table.bots]))
        for position, bot in enumerate(table.bots):
            found.positions[(bot, position)] += 1
        for bot, points in table.points.items():
            found.points[bot] = found.points.get(bot, 0.0) + points
    for _, bot, points in found.byes:
        found.points[bot] = found.points.get(bot, 0.0) + points
    if tournament.format == Tournament.Format.DOUBLE_ELIMINATION:
        _replay_bracket(found)
    elif tournament.format == Tournament.Format.PROMOTION:
        _replay_promotion(found, *table_seats(tournament, len(found.seeds)))
    return found


def _by_seed(found: History) -> list[int]:
    return sorted(found.seeds, key=lambda bot: (found.seeds[bot], bot))


def _replay_promotion(found: History, seats: int, min_seats: int) -> None:
    """Walk the rounds of a promotion tournament: each table's finishing order (points over
    its matches, then seed), who went through, who went out where; the final's winner."""
    alive = _by_seed(found)
    by_round: dict[int, list[Table]] = defaultdict(list)
    for table in found.tables:
        by_round[table.round_number].append(table)
    for round_number in sorted(by_round):
        plan = formats.promotion_round(alive, seats=seats, min_seats=min_seats)
        tables = by_round[round_number]
        for table in tables:
            table.bracket = "final" if plan.final else "round"
        for bot in plan.byes:
            found.bye_brackets[(round_number, bot)] = "round"
        if any(table.open for table in tables):
            break
        results = [_finishing_order(t, found.seeds) for t in tables]
        through = set(formats.promoted(results, plan.byes, min_seats=min_seats))
        if plan.final:
            through = {results[0][0]}
        for table, order in zip(tables, results, strict=True):
            table.winner = order[0]
            table.through = [bot for bot in order if bot in through]
            for place, bot in enumerate(order):
                if bot not in through:
                    found.eliminated_in[bot] = round_number
                    found.exit_place[bot] = place
        alive = [bot for bot in alive if bot in through]
        if plan.final:
            found.champion = alive[0]
            alive = []
    found.alive = alive


def _replay_bracket(found: History) -> None:
    """Walk the bracket round by round: label each table and each bye, find each table's
    winner (more points over its matches; level: the better seed advances) and count losses
    and eliminations."""
    seeds = _by_seed(found)
    losses: dict[int, int] = {}
    by_round: dict[int, list[Table]] = defaultdict(list)
    for table in found.tables:
        by_round[table.round_number].append(table)
    for round_number in sorted(by_round):
        plan = formats.elimination_round(seeds, losses)
        for bot in plan.byes:
            found.bye_brackets[(round_number, bot)] = (
                "winners" if losses.get(bot, 0) == 0 else "losers"
            )
        for table, (bracket, _) in zip(by_round[round_number], plan.pairings, strict=False):
            table.bracket = bracket
            if table.open:
                continue
            a, b = sorted(table.bots, key=lambda bot: found.seeds[bot])
            table.winner = b if table.points.get(b, 0) > table.points.get(a, 0) else a
            loser = b if table.winner == a else a
            table.through = [table.winner]
            losses[loser] = losses.get(loser, 0) + 1
            if losses[loser] == 2:
                found.eliminated_in[loser] = round_number
    found.losses = losses
    found.champion = formats.elimination_round(seeds, losses).champion


def swiss_order(found: History) -> list[int]:
    """Best first: points (byes included), Buchholz, seed."""
    buchholz = buchholz_of(found)
    return sorted(
        found.seeds,
        key=lambda bot: (-found.points.get(bot, 0.0), -buchholz[bot], found.seeds[bot]),
    )


def buchholz_of(found: History) -> dict[int, float]:
    """Each bot's opponents' points summed, once per table shared (a bye adds nothing)."""
    total = dict.fromkeys(found.seeds, 0.0)
    for table in found.tables:
        for bot in table.bots:
            total[bot] += sum(found.points.get(other, 0.0) for other in table.bots if other != bot)
    return total


def round_create(tournament: Tournament) -> int:
    """Create the next round (its tables' matches, and its byes in ``tournament.byes``);
    the number of tables created, 0 when the tournament is over. The caller holds the
    tournament's row lock and saves ``byes``."""
    found = history(tournament)
    number = found.rounds_played + 1
    seats, least = table_seats(tournament, len(found.seeds))
    if tournament.format == Tournament.Format.SWISS:
        if found.rounds_played >= (tournament.rounds or 0):
            return 0
        plan = formats.swiss_round(
            swiss_order(found),
            seats=seats,
            min_seats=least,
            met=found.met,
            positions=found.positions,
            byes=Counter(bot for _, bot, _ in found.byes),
            tables_played=[frozenset(t.bots) for t in found.tables if len(t.bots) > 2],
        )
        tables, byes = plan.tables, plan.byes
    elif tournament.format == Tournament.Format.PROMOTION:
        if found.champion is not None or len(found.alive) < 2:
            return 0
        step = formats.promotion_round(found.alive, seats=seats, min_seats=least)
        tables = [formats.seat_order(table, found.positions) for table in step.tables]
        byes = step.byes
    else:
        bracket = formats.elimination_round(_by_seed(found), found.losses, met=found.met)
        if bracket.champion is not None or not bracket.pairings:
            return 0
        tables = [formats.seat_order(pair, found.positions) for _, pair in bracket.pairings]
        byes = bracket.byes
    versions = dict(tournament.entries.values_list("bot_id", "version_id"))
    version_rows = BotVersion.objects.select_related("bot").in_bulk(list(versions.values()))
    built: list[Built] = []
    for table_number, table in enumerate(tables):
        built += table_build(
            tournament,
            [version_rows[versions[bot]] for bot in table],
            seeds=[
                derive_seed(tournament.seed, "round", number, table_number, leg, *table)
                for leg in range(tournament.matches_per_pairing)
            ],
            round_number=number,
            table_number=table_number,
        )
    matches_save(built)
    tournament.byes = [
        *tournament.byes,
        *([number, bot, _bye_worth(tournament, seats)] for bot in byes),
    ]
    log.info(
        "tournament=%s round=%d tables=%d byes=%d", tournament.pk, number, len(tables), len(byes)
    )
    return len(tables)


def _bye_worth(tournament: Tournament, seats: int) -> float:
    """Swiss: a bye is worth a win at every match a full table plays in the round (the
    points it could not play for); eliminations: nothing (the bot just goes on)."""
    if tournament.format != Tournament.Format.SWISS:
        return 0
    rotations = seats if tournament.duplicate else 1
    return (seats - 1) * tournament.matches_per_pairing * rotations


def table_build(
    tournament: Tournament,
    versions: Sequence[BotVersion],
    *,
    seeds: Sequence[int],
    round_number: int | None = None,
    table_number: int | None = None,
) -> list[Built]:
    """The matches of one table, built for :func:`matches_save`: one per match of the
    pairing (``matches_per_pairing``), each once per seat rotation with duplicate deals;
    numbered by ``leg`` within the table. The unique (tournament, round, table, leg) refuses
    a second copy of a round, whatever got past the tournament's row lock."""
    built: list[Built] = []
    for seed in seeds:
        if tournament.duplicate:
            built += duplicate_build(
                versions=versions,
                kind=Match.Kind.TOURNAMENT,
                tournament=tournament,
                seed=seed,
                ranked=tournament.rated,
            )
        else:
            built.append(
                match_build(
                    versions=versions,
                    kind=Match.Kind.TOURNAMENT,
                    tournament=tournament,
                    seed=seed,
                    ranked=tournament.rated,
                )
            )
    if round_number is not None:
        for leg, (match, _) in enumerate(built):
            match.round_number, match.table_number, match.leg = round_number, table_number, leg
    return built
