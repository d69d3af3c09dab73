"""Tournaments of any game: create, sign up, start (freeze entries, create matches), play
round by round, cancel, finish.

Starting a tournament freezes each participant's active version into a TournamentEntry,
so a bot updated mid-tournament keeps playing the version it entered with. A round robin
plays every pair once (two seats) or a balanced schedule of tables (more seats,
``arena.services.pairings``), all at once. Swiss, double elimination and promotion by
placing play one round at a time (pairing rules: ``arena.services.formats``): the match
recorded (or failed) last in a round queues ``finish_tournament``, which creates the next
round under the tournament's row lock, or stores the standings when there is none. Each
match is its own ``play_match`` task. A failed match counts for nobody and does not hold
the tournament up.

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
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F, Prefetch
from django.utils import timezone

from arena.models import (
    Bot,
    BotVersion,
    Match,
    MatchSeat,
    Rating,
    Tournament,
    TournamentEntry,
    TournamentSignup,
)
from arena.services import formats
from arena.services.errors import Conflict, Forbidden, InvalidInput, NotFound
from arena.services.formats import swiss_rounds_default
from arena.services.ladder import ladder_seats
from arena.services.matches import (
    OPEN_STATUSES,
    Built,
    duplicate_build,
    match_build,
    matches_save,
    new_seed,
)
from arena.services.pairings import round_robin_tables
from engine import derive_seed
from engine.registry import GAMES, get_game

__all__ = [
    "demo_tournament_start",
    "tournament_cancel",
    "tournament_create",
    "tournament_finish",
    "tournament_options_check",
    "tournament_participants",
    "tournament_signup",
    "tournament_standings",
    "tournament_start",
    "tournament_start_due",
    "tournament_withdraw",
]

log = logging.getLogger(__name__)

DEMO_NAME = "Demo tournament"


#: Limits of the per-tournament options.
MAX_ROUNDS = 100
MAX_GAMES_PER_MATCH = 20
#: Bounds of a tournament's own time limits (CPU seconds per move, CPU bank per match).
#: Whatever is chosen, a seat's wall-clock time in a match stays under the arena's
#: ``ARENA_MATCH_WALL_S``, from which the match task's time limit is derived.
MIN_MOVE_TIMEOUT_S = 0.05
MAX_MOVE_TIMEOUT_S = 10.0
MAX_TIME_BANK_S = 120.0


def tournament_create(
    *,
    name: str,
    game: str,
    created_by: Any,
    seed: int | None = None,
    schedule: Any = None,
    format: str = Tournament.Format.ROUND_ROBIN,
    rounds: int | None = None,
    games_per_match: int = 1,
    duplicate: bool = False,
    rated: bool = True,
    entry: str = Tournament.Entry.ALL,
    entry_limit: int | None = None,
    signup_deadline: datetime | None = None,
    move_timeout_s: float | None = None,
    time_bank_s: float | None = None,
) -> Tournament:
    """A pending tournament; nothing is frozen or played until :func:`tournament_start`.

    ``rounds`` is for Swiss only (null: ceil(log2 N) + 1); double elimination needs a game
    played at two seats. ``games_per_match`` matches per table and round, each with its own
    seed; ``duplicate`` plays each of them once per seat rotation on the same deals.
    ``entry``: every bot of the game (``all``), the bots signed up by their owners before
    ``signup_deadline`` (``signup``; it starts then), or the top ``entry_limit`` of the ladder
    (``top``). ``move_timeout_s`` and ``time_bank_s``: its matches' CPU time per move and
    CPU bank (null: the arena's settings; ``matches.match_limits`` for the rest).
    """
    if game not in GAMES:
        raise InvalidInput(f"unknown game {game!r}", code="unknown_game")
    name = (name or "").strip()
    if not name or len(name) > 100:
        raise InvalidInput("a tournament name is 1-100 characters", code="bad_name")
    if seed is not None and not 0 <= seed < 2**63:
        raise InvalidInput("the seed must be a non-negative 63-bit integer", code="bad_seed")
    tournament_options_check(
        game=game,
        format=format,
        rounds=rounds,
        games_per_match=games_per_match,
        entry=entry,
        entry_limit=entry_limit,
        signup_deadline=signup_deadline,
        move_timeout_s=move_timeout_s,
        time_bank_s=time_bank_s,
        now=timezone.now(),
    )
    return Tournament.objects.create(
        move_timeout_s=move_timeout_s,
        time_bank_s=time_bank_s,
        entry=entry,
        entry_limit=entry_limit,
        signup_deadline=signup_deadline,
        name=name,
        game=game,
        seed=new_seed() if seed is None else seed,
        created_by=created_by,
        schedule=schedule,
        format=format,
        rounds=rounds,
        games_per_match=games_per_match,
        duplicate=bool(duplicate),
        rated=bool(rated),
    )


def tournament_options_check(
    *,
    game: str,
    format: str,
    rounds: int | None,
    games_per_match: int,
    entry: str = Tournament.Entry.ALL,
    entry_limit: int | None = None,
    signup_deadline: datetime | None = None,
    move_timeout_s: float | None = None,
    time_bank_s: float | None = None,
    now: datetime | None = None,
) -> None:
    """InvalidInput naming the first bad option (the services', the API's and the admin's
    check): an unknown format, double elimination of a game not played at two seats, rounds
    outside Swiss or outside 1-100, games per match outside 1-20; an unknown entry, a
    sign-up without a deadline (or, given ``now``, one not in the future), the top of the
    ladder without a limit of 2-10000, a limit or a deadline the entry does not use; a CPU
    time per move outside 0.05-10 s or a CPU bank outside 0-120 s."""
    if format not in Tournament.Format.values:
        raise InvalidInput(
            f"unknown format {format!r}; one of {', '.join(Tournament.Format.values)}",
            code="bad_format",
        )
    if format == Tournament.Format.DOUBLE_ELIMINATION and ladder_seats(game, 2**15) != 2:
        raise InvalidInput(
            f"double elimination needs a two-seat game; {get_game(game).title} is played "
            "at larger tables (use Swiss)",
            code="bad_format",
        )
    if rounds is not None:
        if format != Tournament.Format.SWISS:
            raise InvalidInput("rounds are set for Swiss tournaments only", code="bad_rounds")
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
            raise InvalidInput(f"rounds must be 1-{MAX_ROUNDS}", code="bad_rounds")
    if (
        isinstance(games_per_match, bool)
        or not isinstance(games_per_match, int)
        or not 1 <= games_per_match <= MAX_GAMES_PER_MATCH
    ):
        raise InvalidInput(
            f"games per match must be 1-{MAX_GAMES_PER_MATCH}", code="bad_games_per_match"
        )
    _check_entry(entry, entry_limit, signup_deadline, now)
    _check_seconds(
        move_timeout_s, MIN_MOVE_TIMEOUT_S, MAX_MOVE_TIMEOUT_S, "CPU time per move", "move_timeout"
    )
    _check_seconds(time_bank_s, 0.0, MAX_TIME_BANK_S, "CPU time bank", "time_bank")


def _check_seconds(value: float | None, low: float, high: float, what: str, code: str) -> None:
    """None (the arena's setting) or a finite number of seconds in [low, high]."""
    if value is None:
        return
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or not low <= value <= high
    ):
        raise InvalidInput(f"the {what} must be {low:g}-{high:g} s", code=f"bad_{code}")


#: The most bots a ``top`` tournament may invite.
MAX_ENTRY_LIMIT = 10_000


def _check_entry(
    entry: str, limit: int | None, deadline: datetime | None, now: datetime | None
) -> None:
    if entry not in Tournament.Entry.values:
        raise InvalidInput(
            f"unknown entry {entry!r}; one of {', '.join(Tournament.Entry.values)}",
            code="bad_entry",
        )
    if entry == Tournament.Entry.TOP:
        if (
            isinstance(limit, bool)
            or not isinstance(limit, int)
            or not 2 <= limit <= MAX_ENTRY_LIMIT
        ):
            raise InvalidInput(
                f"the top of the ladder needs an entry limit of 2-{MAX_ENTRY_LIMIT}",
                code="bad_entry_limit",
            )
    elif limit is not None:
        raise InvalidInput(
            "an entry limit is for top-of-the-ladder entry only", code="bad_entry_limit"
        )
    if entry == Tournament.Entry.SIGNUP:
        if deadline is None:
            raise InvalidInput("a sign-up tournament needs a deadline", code="bad_signup_deadline")
        if now is not None and deadline <= now:
            raise InvalidInput(
                "the sign-up deadline must be in the future", code="bad_signup_deadline"
            )
    elif deadline is not None:
        raise InvalidInput("a deadline is for sign-up entry only", code="bad_signup_deadline")


def tournament_participants(*, game: str, tournament: Tournament | None = None) -> list[Bot]:
    """Who plays, as the tournament's entry says (without one: every bot of the game).

    Always active bots of ``game`` whose active version is valid, in id order: every one
    (``all``), those signed up (``signup``), or the ``entry_limit`` best by the ladder's
    displayed rating (``top``).
    """
    bots = Bot.objects.filter(
        game=game, is_active=True, active_version__status=BotVersion.Status.VALID
    ).select_related("active_version")
    if tournament is not None and tournament.entry == Tournament.Entry.SIGNUP:
        bots = bots.filter(pk__in=tournament.signups.values("bot_id"))
    elif tournament is not None and tournament.entry == Tournament.Entry.TOP:
        top = (
            Rating.objects.filter(
                game=game, current=True, bot__in=bots, version=F("bot__active_version")
            )
            .order_by("-rating", "id")
            .values_list("bot_id", flat=True)[: tournament.entry_limit]
        )
        bots = bots.filter(pk__in=list(top))
    return list(bots.order_by("id"))


def tournament_signup(
    *, tournament_id: int, bot_id: int, user: Any
) -> tuple[TournamentSignup, bool]:
    """Enter ``bot_id`` (owned by ``user``) into a sign-up tournament before its deadline;
    (the sign-up, whether it is new). Signing up twice keeps the first.

    NotFound for a missing bot; Forbidden for someone else's; InvalidInput for a bot of
    another game; Conflict when the tournament takes no sign-ups (not ``signup``, started,
    or past its deadline) or the bot has no valid active version.
    """
    with transaction.atomic():
        tournament = _signup_open(tournament_id)
        bot = _own_bot(bot_id, user)
        if bot.game != tournament.game:
            raise InvalidInput(
                f"{bot.name} plays {bot.game}; this tournament is {tournament.game}",
                code="game_mismatch",
            )
        if (
            not bot.is_active
            or bot.active_version is None
            or (bot.active_version.status != BotVersion.Status.VALID)
        ):
            raise Conflict(f"{bot.name} has no valid active version to enter", code="not_valid")
        return TournamentSignup.objects.get_or_create(tournament=tournament, bot=bot)


def tournament_withdraw(*, tournament_id: int, bot_id: int, user: Any) -> None:
    """Take a bot its owner signed up out again, before the deadline."""
    with transaction.atomic():
        tournament = _signup_open(tournament_id)
        bot = _own_bot(bot_id, user)
        deleted, _ = TournamentSignup.objects.filter(tournament=tournament, bot=bot).delete()
        if not deleted:
            raise NotFound(f"{bot.name} is not signed up for this tournament.")


def _signup_open(tournament_id: int) -> Tournament:
    """The tournament, locked, if it takes sign-ups now (else Conflict)."""
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(f"There is no tournament {tournament_id}.")
    if tournament.entry != Tournament.Entry.SIGNUP:
        raise Conflict("this tournament takes no sign-ups", code="no_signup")
    if tournament.status != Tournament.Status.PENDING or (
        tournament.signup_deadline is not None and tournament.signup_deadline <= timezone.now()
    ):
        raise Conflict("sign-up for this tournament is closed", code="signup_closed")
    return tournament


def _own_bot(bot_id: int, user: Any) -> Bot:
    bot = Bot.objects.select_related("active_version").filter(pk=bot_id).first()
    if bot is None:
        raise NotFound(f"There is no bot {bot_id}.")
    if not user.is_authenticated or bot.owner_id != user.pk:
        raise Forbidden("Only the bot's owner may enter it.")
    return bot


def tournament_start_due() -> dict[str, int]:
    """Start the sign-up tournaments whose deadline has passed (the sweeper, every minute);
    one with too few bots signed up is cancelled, with a log line."""
    due = Tournament.objects.filter(
        status=Tournament.Status.PENDING,
        entry=Tournament.Entry.SIGNUP,
        signup_deadline__lte=timezone.now(),
    ).values_list("pk", flat=True)
    counts = {"started": 0, "cancelled": 0}
    for tournament_id in list(due):
        try:
            tournament_start(tournament_id=tournament_id)
            counts["started"] += 1
        except Conflict as exc:
            if exc.code != "too_few_participants":
                continue  # started meanwhile
            tournament_cancel(tournament_id=tournament_id)
            log.warning("tournament=%s cancelled at its deadline: %s", tournament_id, exc.message)
            counts["cancelled"] += 1
    return counts


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
        if (
            bots is None
            and tournament.entry == Tournament.Entry.SIGNUP
            and tournament.signup_deadline is not None
            and tournament.signup_deadline > timezone.now()
        ):
            raise Conflict(
                f"sign-up is open until {tournament.signup_deadline:%Y-%m-%d %H:%M %Z}; it "
                "starts then",
                code="signup_open",
            )
        if bots is None:
            bots = tournament_participants(game=tournament.game, tournament=tournament)
        least = get_game(tournament.game).min_players
        if len(bots) < least:
            raise Conflict(
                f"a tournament needs at least {least} bots with a valid version; {len(bots)} found",
                code="too_few_participants",
            )
        seeds = _seeds(bots)
        TournamentEntry.objects.bulk_create(
            TournamentEntry(
                tournament=tournament, bot=bot, version=bot.active_version, seed=seeds[bot.pk]
            )
            for bot in bots
        )
        if tournament.format == Tournament.Format.ROUND_ROBIN:
            by_id = {bot.pk: bot for bot in bots}
            seats = ladder_seats(tournament.game, len(bots))
            tables = round_robin_tables(sorted(by_id), seats, seed=tournament.seed)
            built: list[Built] = []
            for number, table in enumerate(tables):
                # Seeds come from the tournament seed and the table, so a tournament replays.
                built += _table_build(
                    tournament,
                    [by_id[bot_id].active_version for bot_id in table],
                    seeds=[
                        derive_seed(tournament.seed, "match", number, *table),
                        *(
                            derive_seed(tournament.seed, "match", number, leg, *table)
                            for leg in range(1, tournament.games_per_match)
                        ),
                    ],
                )
            matches_save(built)
            created = len(tables)
        else:
            if tournament.format == Tournament.Format.SWISS and tournament.rounds is None:
                tournament.rounds = swiss_rounds_default(len(bots))
            created = _round_create(tournament)
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = timezone.now()
        tournament.save(update_fields=["status", "started_at", "rounds", "byes"])
    log.info("tournament=%s started bots=%d tables=%d", tournament.pk, len(bots), created)
    return tournament


def _seeds(bots: Sequence[Bot]) -> dict[int, int]:
    """Seed numbers (1 = best): the entered version's displayed rating, highest first, then
    bot id."""
    mus = dict(
        Rating.objects.filter(version_id__in=[bot.active_version_id for bot in bots]).values_list(
            "version_id", "rating"
        )
    )
    order = sorted(bots, key=lambda bot: (-mus.get(bot.active_version_id, 0.0), bot.pk))
    return {bot.pk: number for number, bot in enumerate(order, start=1)}


def _table_build(
    tournament: Tournament,
    versions: Sequence[BotVersion],
    *,
    seeds: Sequence[int],
    round_number: int | None = None,
    table_number: int | None = None,
) -> list[Built]:
    """The matches of one table, built for :func:`matches_save`: one per game of the match
    (``games_per_match``), each once per seat rotation with duplicate deals; numbered by
    ``leg`` within the table. The unique (tournament, round, table, leg) refuses a second
    copy of a round, whatever got past the tournament's row lock."""
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
    """A round is over: create the next one (Swiss, double elimination) or, when there is
    none, store the standings and mark the tournament finished.

    Safe to call any number of times (a redelivered "round finished"): it does nothing while
    matches are open or when the tournament is not running, and it decides under the
    tournament's row lock, reading the rounds already created from the database, so a round
    is created once.
    """
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.status != Tournament.Status.RUNNING:
            return tournament
        if tournament.matches.filter(status__in=OPEN_STATUSES).exists():
            return tournament
        if tournament.format != Tournament.Format.ROUND_ROBIN and _round_create(tournament):
            tournament.save(update_fields=["byes"])
            return tournament
        tournament.status = Tournament.Status.FINISHED
        tournament.finished_at = timezone.now()
        tournament.standings = _standings(tournament)
        tournament.save(update_fields=["status", "finished_at", "standings"])
    log.info("tournament=%s finished", tournament.pk)
    return tournament


# --- rounds (Swiss, double elimination) ------------------------------------------------------


@dataclass
class _Table:
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
class _History:
    """What the rounds so far say: their tables with results, byes and meetings."""

    tables: list[_Table]
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


def _history(tournament: Tournament) -> _History:
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
    tables: dict[tuple[int, int], _Table] = {}
    by_match: dict[int, list[tuple[int, int | None]]] = defaultdict(list)
    for match_id, round_number, table_number, leg, status, bot_id, placing in seats:
        table = tables.setdefault(
            (round_number, table_number), _Table(round_number, table_number, bots=[])
        )
        if leg == 0:
            table.bots.append(bot_id)
        if match_id not in table.matches:
            table.matches.append(match_id)
        table.open |= status in OPEN_STATUSES
        if status == Match.Status.DONE:
            by_match[match_id].append((bot_id, placing))
    for table in tables.values():
        table.points = dict.fromkeys(table.bots, 0.0)
        for match_id in table.matches:
            placed = by_match.get(match_id, [])
            if not placed or any(placing is None for _, placing in placed):
                continue
            placings = [placing for _, placing in placed]
            for bot_id, placing in placed:
                table.points[bot_id] += _seat_points(placing, placings)
    entries = tournament.entries.values_list("bot_id", "seed")
    history = _History(
        tables=sorted(tables.values(), key=lambda t: (t.round_number, t.table_number)),
        byes=[(r, bot, float(points)) for r, bot, points in tournament.byes],
        seeds={bot: seed or bot for bot, seed in entries},
    )
    history.rounds_played = max(
        [t.round_number for t in history.tables] + [r for r, _, _ in history.byes], default=0
    )
    history.points = dict.fromkeys(history.seeds, 0.0)
    for table in history.tables:
        history.met.update(formats.meetings([table.bots]))
        for position, bot in enumerate(table.bots):
            history.positions[(bot, position)] += 1
        for bot, points in table.points.items():
            history.points[bot] = history.points.get(bot, 0.0) + points
    for _, bot, points in history.byes:
        history.points[bot] = history.points.get(bot, 0.0) + points
    if tournament.format == Tournament.Format.DOUBLE_ELIMINATION:
        _replay_bracket(history)
    elif tournament.format == Tournament.Format.PROMOTION:
        _replay_promotion(history, *_table_size(tournament, len(history.seeds)))
    return history


def _table_size(tournament: Tournament, bots: int) -> tuple[int, int]:
    """(seats, fewest seats) of a table of the tournament's game, with ``bots`` to seat."""
    return ladder_seats(tournament.game, bots), get_game(tournament.game).min_players


def _replay_promotion(history: _History, seats: int, min_seats: int) -> None:
    """Walk the rounds of a promotion tournament: each table's finishing order (points over
    its matches, then seed), who went through, who went out where; the final's winner."""
    alive = _by_seed(history)
    by_round: dict[int, list[_Table]] = defaultdict(list)
    for table in history.tables:
        by_round[table.round_number].append(table)
    for round_number in sorted(by_round):
        plan = formats.promotion_round(alive, seats=seats, min_seats=min_seats)
        tables = by_round[round_number]
        for table in tables:
            table.bracket = "final" if plan.final else "round"
        if any(table.open for table in tables):
            break
        results = [
            sorted(t.bots, key=lambda bot, t=t: (-t.points.get(bot, 0.0), history.seeds[bot]))
            for t in tables
        ]
        through = set(formats.promoted(results, plan.byes, min_seats=min_seats))
        if plan.final:
            through = {results[0][0]}
        for table, order in zip(tables, results, strict=True):
            table.winner = order[0]
            table.through = [bot for bot in order if bot in through]
            for place, bot in enumerate(order):
                if bot not in through:
                    history.eliminated_in[bot] = round_number
                    history.exit_place[bot] = place
        alive = [bot for bot in alive if bot in through]
        if plan.final:
            history.champion = alive[0]
            alive = []
    history.alive = alive


def _by_seed(history: _History) -> list[int]:
    return sorted(history.seeds, key=lambda bot: (history.seeds[bot], bot))


def _replay_bracket(history: _History) -> None:
    """Walk the bracket round by round: label each table, find its winner (more points over
    its matches; level: the better seed advances) and count losses and eliminations."""
    seeds = _by_seed(history)
    losses: dict[int, int] = {}
    by_round: dict[int, list[_Table]] = defaultdict(list)
    for table in history.tables:
        by_round[table.round_number].append(table)
    for round_number in sorted(by_round):
        plan = formats.elimination_round(seeds, losses)
        for table, (bracket, _) in zip(by_round[round_number], plan.pairings, strict=False):
            table.bracket = bracket
            if table.open:
                continue
            a, b = sorted(table.bots, key=lambda bot: history.seeds[bot])
            table.winner = b if table.points.get(b, 0) > table.points.get(a, 0) else a
            loser = b if table.winner == a else a
            table.through = [table.winner]
            losses[loser] = losses.get(loser, 0) + 1
            if losses[loser] == 2:
                history.eliminated_in[loser] = round_number
    history.losses = losses
    history.champion = formats.elimination_round(seeds, losses).champion


def _swiss_order(history: _History) -> list[int]:
    """Best first: points (byes included), Buchholz, seed."""
    buchholz = _buchholz(history)
    return sorted(
        history.seeds,
        key=lambda bot: (-history.points.get(bot, 0.0), -buchholz[bot], history.seeds[bot]),
    )


def _buchholz(history: _History) -> dict[int, float]:
    """Each bot's opponents' points summed, once per table shared (a bye adds nothing)."""
    total = dict.fromkeys(history.seeds, 0.0)
    for table in history.tables:
        for bot in table.bots:
            total[bot] += sum(
                history.points.get(other, 0.0) for other in table.bots if other != bot
            )
    return total


def _round_create(tournament: Tournament) -> int:
    """Create the next round (its tables' matches, and its byes in ``tournament.byes``);
    the number of tables created, 0 when the tournament is over. The caller holds the
    tournament's row lock and saves ``byes``."""
    history = _history(tournament)
    number = history.rounds_played + 1
    if tournament.format == Tournament.Format.SWISS:
        if history.rounds_played >= (tournament.rounds or 0):
            return 0
        seats = ladder_seats(tournament.game, len(history.seeds))
        plan = formats.swiss_round(
            _swiss_order(history),
            seats=seats,
            min_seats=get_game(tournament.game).min_players,
            met=history.met,
            positions=history.positions,
            byes=Counter(bot for _, bot, _ in history.byes),
        )
        tables, byes = plan.tables, plan.byes
    elif tournament.format == Tournament.Format.PROMOTION:
        seats, least = _table_size(tournament, len(history.seeds))
        if history.champion is not None or len(history.alive) < 2:
            return 0
        step = formats.promotion_round(history.alive, seats=seats, min_seats=least)
        tables = [formats.seat_order(table, history.positions) for table in step.tables]
        byes = step.byes
    else:
        seats = 2
        plan = formats.elimination_round(_by_seed(history), history.losses, met=history.met)
        if plan.champion is not None or not plan.pairings:
            return 0
        tables = [formats.seat_order(pair, history.positions) for _, pair in plan.pairings]
        byes = plan.byes
    versions = dict(tournament.entries.values_list("bot_id", "version_id"))
    version_rows = BotVersion.objects.select_related("bot").in_bulk(list(versions.values()))
    built: list[Built] = []
    for table_number, table in enumerate(tables):
        built += _table_build(
            tournament,
            [version_rows[versions[bot]] for bot in table],
            seeds=[
                derive_seed(tournament.seed, "round", number, table_number, leg, *table)
                for leg in range(tournament.games_per_match)
            ],
            round_number=number,
            table_number=table_number,
        )
    matches_save(built)
    if tournament.format == Tournament.Format.SWISS:
        # A bye is worth a win at every match a full table plays in the round.
        worth = (seats - 1) * tournament.games_per_match * (seats if tournament.duplicate else 1)
        tournament.byes = [*tournament.byes, *([number, bot, worth] for bot in byes)]
    else:
        tournament.byes = [*tournament.byes, *([number, bot, 0] for bot in byes)]
    log.info(
        "tournament=%s round=%d tables=%d byes=%d", tournament.pk, number, len(tables), len(byes)
    )
    return len(tables)


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
    seed: int | None = None  # 1 = best, from the ratings at the start
    buchholz: float = 0.0  # Swiss: the opponents' points, summed
    byes: list[int] = field(default_factory=list)  # rounds it sat out
    eliminated_in: int | None = None  # eliminations: the round it went out in
    exit_place: int | None = None  # promotion: its place (0 = first) at the table it left

    @property
    def mean_placing(self) -> float | None:
        """Mean seats placed ahead of it (0 = always first): what ranks sort by."""
        return self.placing_sum / self.played if self.played else None

    @property
    def mean_place(self) -> float | None:
        """Its mean place as people count it, 1 = first (docs/api.md, "Places")."""
        return 1 + self.placing_sum / self.played if self.played else None


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


def _level_head_to_head(rows: Sequence[_Row], key: Any) -> dict[int, float]:
    """Each row's score against the rows level with it on ``key`` (a mini-league)."""
    groups: dict[Any, set[int]] = defaultdict(set)
    for row in rows:
        groups[key(row)].add(row.bot.pk)
    return {
        row.bot.pk: sum(s for other, s in row.result_vs.items() if other in groups[key(row)])
        for row in rows
    }


def _ranked(keyed: list[tuple[tuple[float, ...], _Row]]) -> list[tuple[int, _Row]]:
    keyed.sort(key=lambda item: (item[0], item[1].bot.name, item[1].bot.pk))
    ranked: list[tuple[int, _Row]] = []
    for position, (key, row) in enumerate(keyed, start=1):
        tied = ranked and keyed[position - 2][0] == key
        ranked.append((ranked[-1][0] if tied else position, row))
    return ranked


def rank_swiss(rows: Sequence[_Row]) -> list[tuple[int, _Row]]:
    """Swiss: points (byes included), then Buchholz (the opponents' points summed), then
    head-to-head among the bots level on both, then seed (the rating at the start)."""
    h2h = _level_head_to_head(rows, lambda row: (row.points, row.buchholz))
    return _ranked(
        [((-row.points, -row.buchholz, -h2h[row.bot.pk], row.seed or 0), row) for row in rows]
    )


def rank_elimination(rows: Sequence[_Row], *, champion: int | None) -> list[tuple[int, _Row]]:
    """Eliminations: the champion, then the bots still in, then by the round they went out
    in (latest first: the runner-up lost the final), then (promotion) their place at the
    table they went out from, then points, then seed."""

    def key(row: _Row) -> tuple[float, ...]:
        out = row.eliminated_in
        return (
            row.bot.pk != champion,
            out is not None,
            -(out or 0),
            row.exit_place or 0,
            -row.points,
            row.seed or 0,
        )

    return _ranked([(key(row), row) for row in rows])


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
    rows = {
        entry.bot_id: _Row(bot=entry.bot, version=entry.version.number, seed=entry.seed)
        for entry in entries
    }
    matches = list(
        tournament.matches.order_by("id").prefetch_related(
            Prefetch("seats", queryset=MatchSeat.objects.order_by("seat"))
        )
    )
    _tally(rows, matches)
    history = None
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        ranked = rank_rows(list(rows.values()))
    else:
        history = _history(tournament)
        for round_number, bot, points in history.byes:
            if bot in rows:
                rows[bot].points += points
                rows[bot].byes.append(round_number)
        if tournament.format == Tournament.Format.SWISS:
            for bot, value in _buchholz(history).items():
                if bot in rows:
                    rows[bot].buchholz = value
            ranked = rank_swiss(list(rows.values()))
        else:
            for bot, round_number in history.eliminated_in.items():
                if bot in rows:
                    rows[bot].eliminated_in = round_number
                    rows[bot].exit_place = history.exit_place.get(bot)
            ranked = rank_elimination(list(rows.values()), champion=history.champion)
    order = [row.bot.pk for _, row in ranked]
    superiority = [*_superiority(order, matches, tournament.seed), None]
    crosstable = _crosstable(order, matches)
    for cell in crosstable["cells"].values():
        cell["interval"] = _interval(cell)
    over = sum(match.status in (Match.Status.DONE, Match.Status.FAILED) for match in matches)
    standings: dict[str, Any] = {
        "tournament": tournament.pk,
        "game": tournament.game,
        "format": tournament.format,
        "seats": max((match.seat_count for match in matches), default=2),
        "status": tournament.status,
        "matches_total": len(matches),
        "matches_done": over,
        "rows": [
            {
                "rank": rank,
                "bot": {"id": row.bot.pk, "name": row.bot.name, "owner": row.bot.owner.username},
                "version": row.version,
                "seed": row.seed,
                "played": row.played,
                "points": row.points,
                "first_places": row.first_places,
                "wins": row.wins,
                "draws": row.draws,
                "losses": row.losses,
                "mean_place": round(row.mean_place, 3) if row.mean_place is not None else None,
                "match_points": row.match_points,
                "faults": row.faults,
                "superiority_over_next": superiority[index],
                **_format_columns(tournament, row),
            }
            for index, (rank, row) in enumerate(ranked)
        ],
        "crosstable": crosstable,
    }
    if history is not None:
        standings["rounds"] = _rounds(history)
        standings["rounds_planned"] = tournament.rounds
        standings["champion"] = history.champion
    return standings


def _format_columns(tournament: Tournament, row: _Row) -> dict[str, Any]:
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


def _rounds(history: _History) -> list[dict[str, Any]]:
    """Each round's tables (bots in seat order, their matches, each bot's points, the
    bracket and winner in an elimination) and byes, for the page, the API and the CSV."""
    rounds: dict[int, dict[str, Any]] = {}
    for table in history.tables:
        rounds.setdefault(
            table.round_number, {"round": table.round_number, "tables": [], "byes": []}
        )
        rounds[table.round_number]["tables"].append(
            {
                "table": table.table_number,
                "bracket": table.bracket,
                "bots": table.bots,
                "matches": table.matches,
                "points": [table.points.get(bot, 0.0) for bot in table.bots],
                "open": table.open,
                "winner": table.winner,
                "through": table.through,
            }
        )
    for round_number, bot, _ in history.byes:
        rounds.setdefault(round_number, {"round": round_number, "tables": [], "byes": []})
        rounds[round_number]["byes"].append(bot)
    return [rounds[number] for number in sorted(rounds)]


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
