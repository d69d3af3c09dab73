"""A tournament's life: created (pending), started (entries frozen, matches created), each
round created as the last one ends, finished (standings stored) or cancelled.

Starting freezes each participant's active version into a TournamentEntry, so a bot updated
mid-tournament keeps playing the version it entered with. A round robin creates all its
matches at once; Swiss, double elimination and promotion one round at a time
(:mod:`arena.services.tournaments.rounds`): the match recorded (or failed) last in a round
queues ``finish_tournament``, which creates the next round under the tournament's row lock,
or stores the standings when there is none. Each match is its own ``play_match`` task. A
failed match counts for nobody and does not hold the tournament up.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from arena.algorithms.formats import swiss_rounds_default
from arena.algorithms.round_robin import round_robin_tables
from arena.algorithms.tournament_options import TournamentOptions, table_size_default
from arena.errors import Conflict, InvalidInput
from arena.models import Bot, Match, Rating, Tournament, TournamentEntry
from arena.services.ladder import ladder_seats
from arena.services.matches import OPEN_STATUSES, Built, matches_save, new_seed
from arena.services.tournaments.options import seats_at, seats_of, tournament_options_check
from arena.services.tournaments.rounds import round_create, table_build
from arena.services.tournaments.signups import tournament_participants
from arena.services.tournaments.standings import standings_compute
from engine import derive_seed
from engine.registry import GAMES, get_game

__all__ = [
    "demo_tournament_start",
    "tournament_cancel",
    "tournament_create",
    "tournament_finish",
    "tournament_start",
    "tournament_start_due",
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
    **options: Any,
) -> Tournament:
    """A pending tournament; nothing is frozen or played until :func:`tournament_start`.

    ``options`` are ``arena.algorithms.tournament_options.TournamentOptions``' fields (the
    one place they and their defaults are written; an unknown one is a ``TypeError``):
    ``table_size``: seats at each table (null: the game's smallest table); ``rounds`` is
    for Swiss only (null: ceil(log2 N) + 1); double elimination is played at two seats.
    ``matches_per_pairing``: matches each pairing (each table of a round) plays, each a whole
    match of the game with its own deals; ``duplicate`` plays each of them once per seat
    rotation on the same deals. ``entry``: every bot of the game (``all``), the bots signed
    up by their owners before ``signup_deadline`` (``signup``; it starts then), or the top
    ``entry_limit`` of the ladder (``top``). ``move_timeout_s`` and ``time_bank_s``: its
    matches' CPU time per move and CPU bank (null: the arena's settings).
    """
    seats = seats_of(game)
    name = _checked_name(name)
    if seed is not None and not 0 <= seed < 2**63:
        raise InvalidInput("the seed must be a non-negative 63-bit integer", code="bad_seed")
    chosen = TournamentOptions(**options).as_dict()
    tournament_options_check(game=game, now=timezone.now(), **chosen)
    if chosen["table_size"] is None:
        chosen["table_size"] = table_size_default(seats)
    return Tournament.objects.create(
        name=name,
        game=game,
        seed=new_seed() if seed is None else seed,
        created_by=created_by,
        schedule=schedule,
        **chosen,
    )


def _checked_name(name: str | None) -> str:
    """The name stripped; InvalidInput ``bad_name`` (naming the field, for the forms) unless
    it is 1-100 characters, the column's size."""
    name = (name or "").strip()
    if not name or len(name) > 100:
        raise InvalidInput(
            "a tournament name is 1-100 characters",
            code="bad_name",
            extra={"fields": {"name": ["a tournament name is 1-100 characters"]}},
        )
    return name


def tournament_start_due() -> dict[str, int]:
    """Start the sign-up tournaments whose deadline has passed (every few seconds, on the
    control queue); one with too few bots signed up is cancelled, with a log line."""
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
    """Freeze the participants, create the matches (all of a round robin's, or the first
    round's) and queue them.

    Conflict if the tournament is not pending, its sign-up is still open, or fewer bots
    than the game's smallest table can take part.
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
            created = _round_robin_create(tournament, bots)
        else:
            if tournament.format == Tournament.Format.SWISS and tournament.rounds is None:
                tournament.rounds = swiss_rounds_default(len(bots))
            created = round_create(tournament)
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = timezone.now()
        tournament.save(update_fields=["status", "started_at", "rounds", "byes"])
    log.info("tournament=%s started bots=%d tables=%d", tournament.pk, len(bots), created)
    return tournament


def _round_robin_create(tournament: Tournament, bots: Sequence[Bot]) -> int:
    """Every table of the round robin, each playing ``matches_per_pairing`` matches; the
    number of tables. Seeds come from the tournament seed and the table, so it replays."""
    # Every entered bot has its active version (the entry's): a bot without one never enters.
    by_id = {bot.pk: bot.active_version for bot in bots if bot.active_version is not None}
    seats = seats_at(tournament.table_size or 2, len(bots), seats_of(tournament.game))
    tables = round_robin_tables(sorted(by_id), seats, seed=tournament.seed)
    built: list[Built] = []
    for number, table in enumerate(tables):
        built += table_build(
            tournament,
            [by_id[bot_id] for bot_id in table],
            seeds=[
                derive_seed(tournament.seed, "match", number, *table),
                *(
                    derive_seed(tournament.seed, "match", number, leg, *table)
                    for leg in range(1, tournament.matches_per_pairing)
                ),
            ],
        )
    matches_save(built)
    return len(tables)


def _seeds(bots: Sequence[Bot]) -> dict[int, int]:
    """Seed numbers (1 = best): the entered version's displayed rating, highest first, then
    bot id."""
    ratings: dict[int | None, float] = dict(  # looked up by a bot's active_version_id
        Rating.objects.filter(version_id__in=[bot.active_version_id for bot in bots]).values_list(
            "version_id", "rating"
        )
    )
    order = sorted(bots, key=lambda bot: (-ratings.get(bot.active_version_id, 0.0), bot.pk))
    return {bot.pk: number for number, bot in enumerate(order, start=1)}


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
    """A round is over: create the next one (Swiss, eliminations) or, when there is none,
    store the standings and mark the tournament finished.

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
        if tournament.format != Tournament.Format.ROUND_ROBIN and round_create(tournament):
            tournament.save(update_fields=["byes"])
            return tournament
        tournament.status = Tournament.Status.FINISHED
        tournament.finished_at = timezone.now()
        tournament.standings = standings_compute(tournament)
        tournament.save(update_fields=["status", "finished_at", "standings"])
    log.info("tournament=%s finished", tournament.pk)
    return tournament


# --- first run ----------------------------------------------------------------------------


def demo_tournament_start() -> list[Tournament]:
    """Start a tournament of the built-in bots of every game, if no tournament was ever run.

    Gives a new installation ladders, standings and replays within a minute of the first
    worker coming up, at the ladder's table size (several seats where the game has them).
    Does nothing when ``ARENA_DEMO_TOURNAMENT`` is off.
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
                name=f"{DEMO_NAME}: {get_game(game).title}",
                game=game,
                created_by=owner,
                seed=21,
                table_size=ladder_seats(game, len(ids)),
            )
            bots = list(Bot.objects.filter(pk__in=ids).select_related("active_version"))
            started.append(_start(tournament.pk, bots=bots))
    return started
