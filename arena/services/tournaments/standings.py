"""A tournament's standings as the page, the API and the CSV show them.

The matches and entries are read here; the counting, ranking, crosstable and the intervals
are :mod:`arena.algorithms.standings` (pure). Standings are stored once the tournament is
finished; before that they are computed live and cached until the next match is over.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Q

from arena.algorithms import standings as table
from arena.models import MatchSeat, Tournament
from arena.services.tournaments.plans import planned_matches
from arena.services.tournaments.rounds import History, buchholz_of, history, table_seats

__all__ = ["HOW_TO_READ", "STANDINGS_VERSION", "standings_compute", "tournament_standings"]

#: The shape of stored standings: older ones are counted again from the matches (3: the
#: likelihood of superiority counts an extra unit won by each bot of a pair).
STANDINGS_VERSION = 3
#: How to read the standings' uncertainty, in one sentence (the page, the CSV's notes, docs).
HOW_TO_READ = (
    "95% interval: where a bot's points would fall 19 times in 20 if the same bots played "
    "the tournament again; ahead of next: how likely it would again make more points than "
    "the bot below it (50% is a coin toss, 95% or more a firm place)."
)
#: Seconds a live (running) tournament's standings are cached when no match ends meanwhile.
LIVE_CACHE_S = 300


def _records(tournament: Tournament) -> list[table.MatchRecord]:
    """Every match of the tournament with its seats in seat order, in two queries."""
    matches = list(tournament.matches.order_by("id").values_list("id", "status", "duplicate_key"))
    seats: dict[int, list[table.SeatRecord]] = defaultdict(list)
    for match_id, bot, placing, score, fault in (
        MatchSeat.objects.filter(match__tournament=tournament)
        .order_by("match_id", "seat")
        .values_list("match_id", "bot_id", "placing", "score", "fault")
    ):
        seats[match_id].append(
            table.SeatRecord(bot=bot, placing=placing, score=score or 0, fault=bool(fault))
        )
    return [
        table.MatchRecord(id=pk, status=status, seats=tuple(seats[pk]), unit=key or None)
        for pk, status, key in matches
    ]


def _entrants(tournament: Tournament) -> list[table.Entrant]:
    entries = tournament.entries.order_by("bot_id").values_list(
        "bot_id", "bot__name", "bot__owner__username", "version__number", "seed"
    )
    return [
        table.Entrant(bot=bot, name=name, owner=owner, version=number, seed=seed)
        for bot, name, owner, number, seed in entries
    ]


def standings_compute(tournament: Tournament) -> dict[str, Any]:
    """The standings from the matches (what is stored at the finish)."""
    matches = _records(tournament)
    entrants = _entrants(tournament)
    rows = table.tally(entrants, matches)
    found: History | None = None
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        ranked = table.rank_round_robin(list(rows.values()))
    else:
        found = history(tournament)
        ranked = _rank_by_rounds(tournament, rows, found)
    order = [row.bot for _, row in ranked]
    superiority = [
        *table.superiority(
            order,
            matches,
            seed=tournament.seed,
            bye_points={row.bot: row.bye_points for row in rows.values()},
        ),
        None,
    ]
    by_bot: dict[int, list[table.MatchRecord]] = defaultdict(list)
    for match in matches:
        for seat in match.seats:
            by_bot[seat.bot].append(match)
    over = sum(match.over for match in matches)
    seats_at_table = max((len(match.seats) for match in matches), default=0)
    seats_at_table = seats_at_table or table_seats(tournament, len(entrants) or 2)[0]
    low, high = planned_matches(tournament, bots=len(entrants))
    standings: dict[str, Any] = {
        "version": STANDINGS_VERSION,
        "tournament": tournament.pk,
        "game": tournament.game,
        "format": tournament.format,
        "seats": seats_at_table,
        "matches_per_pairing": tournament.matches_per_pairing,
        "status": tournament.status,
        "matches_total": len(matches),
        "matches_done": over,
        # What the whole tournament plays (Swiss and eliminations create rounds as they go;
        # a double elimination's count depends on its grand final): a progress bar's end.
        "matches_planned": [max(low, len(matches)), max(high, len(matches))],
        "how_to_read": HOW_TO_READ,
        "rows": [
            _row(tournament, rank, row, by_bot.get(row.bot, []), superiority[index])
            for index, (rank, row) in enumerate(ranked)
        ],
        "crosstable": table.crosstable(order, matches),
    }
    if found is not None:
        standings["rounds"] = _rounds(found)
        standings["rounds_planned"] = tournament.rounds
        standings["champion"] = found.champion
    return standings


def _rank_by_rounds(
    tournament: Tournament, rows: dict[int, table.Row], found: History
) -> list[tuple[int, table.Row]]:
    """Rank a tournament played in rounds (Swiss, eliminations): the rows first take what
    only the rounds know (byes and their points; Swiss: Buchholz; eliminations: the round
    each bot went out in and its exit place), which the ranking's tie-breaks read."""
    for round_number, bot, points in found.byes:
        if bot in rows:
            rows[bot].points += points
            rows[bot].bye_points += points
            rows[bot].byes.append(round_number)
    if tournament.format == Tournament.Format.SWISS:
        for bot, value in buchholz_of(found).items():
            if bot in rows:
                rows[bot].buchholz = value
        return table.rank_swiss(list(rows.values()))
    for bot, round_number in found.eliminated_in.items():
        if bot in rows:
            rows[bot].eliminated_in = round_number
            rows[bot].exit_place = found.exit_place.get(bot)
    return table.rank_elimination(list(rows.values()), champion=found.champion)


def _row(
    tournament: Tournament,
    rank: int,
    row: table.Row,
    matches: list[table.MatchRecord],
    superiority: float | None,
) -> dict[str, Any]:
    interval = table.points_interval(row.bot, matches, bye_points=row.bye_points)
    entrant = row.entrant
    return {
        "rank": rank,
        "bot": {"id": entrant.bot, "name": entrant.name, "owner": entrant.owner},
        "version": entrant.version,
        "seed": entrant.seed,
        "played": row.played,
        "points": row.points,
        "points_interval": None if interval is None else [round(v, 2) for v in interval],
        "first_places": row.first_places,
        "wins": row.wins,
        "draws": row.draws,
        "losses": row.losses,
        "mean_place": round(row.mean_place, 3) if row.mean_place is not None else None,
        "match_points": row.match_points,
        "faults": row.faults,
        "superiority_over_next": superiority,
        **_format_columns(tournament, row),
    }


def _format_columns(tournament: Tournament, row: table.Row) -> dict[str, Any]:
    if tournament.format == Tournament.Format.SWISS:
        return {"buchholz": row.buchholz, "byes": row.byes}
    if tournament.format == Tournament.Format.DOUBLE_ELIMINATION:
        return {"eliminated_in": row.eliminated_in, "byes": row.byes}
    if tournament.format == Tournament.Format.PROMOTION:
        return {
            "eliminated_in": row.eliminated_in,
            "exit_place": None if row.exit_place is None else row.exit_place + 1,
            "byes": row.byes,
        }
    return {}


def _rounds(found: History) -> list[dict[str, Any]]:
    """Each round's tables (bots in seat order, their matches, each bot's points, the
    bracket and winner in an elimination) and byes (with their bracket in eliminations),
    for the page, the API and the CSV."""
    rounds: dict[int, dict[str, Any]] = {}

    def round_of(number: int) -> dict[str, Any]:
        return rounds.setdefault(
            number, {"round": number, "tables": [], "byes": [], "bye_brackets": []}
        )

    for t in found.tables:
        round_of(t.round_number)["tables"].append(
            {
                "table": t.table_number,
                "bracket": t.bracket,
                "bots": t.bots,
                "matches": t.matches,
                "points": [t.points.get(bot, 0.0) for bot in t.bots],
                "open": t.open,
                "winner": t.winner,
                "through": t.through,
            }
        )
    for round_number, bot, _ in found.byes:
        entry = round_of(round_number)
        entry["byes"].append(bot)
        entry["bye_brackets"].append(found.bye_brackets.get((round_number, bot)))
    return [rounds[number] for number in sorted(rounds)]


def _live_key(tournament: Tournament) -> str:
    """A key that changes whenever a match of the tournament is created or ends."""
    counts = tournament.matches.aggregate(
        total=Count("id"), over=Count("id", filter=Q(status__in=("done", "failed")))
    )
    return f"standings:{tournament.pk}:{tournament.status}:{counts['total']}:{counts['over']}"


def tournament_standings(*, tournament: Tournament) -> dict[str, Any]:
    """The standings: stored once finished, computed live before that (and cached until a
    match ends or is created).

    ``matches_done`` counts the matches that are over (played or failed), so it reaches
    ``matches_total`` when the tournament can finish.
    """
    stored = tournament.standings
    # Standings stored in an older shape (before N seats, intervals and units) are counted
    # again from the matches rather than served as they were.
    if tournament.status == Tournament.Status.FINISHED:
        if stored and stored.get("version") == STANDINGS_VERSION:
            return stored
        recounted = standings_compute(tournament)
        Tournament.objects.filter(pk=tournament.pk).update(standings=recounted)
        return recounted
    if tournament.status == Tournament.Status.PENDING:
        return standings_compute(tournament)
    key = _live_key(tournament)
    found = cache.get(key)
    if found is None:
        found = standings_compute(tournament)
        cache.set(key, found, LIVE_CACHE_S)
    return found
