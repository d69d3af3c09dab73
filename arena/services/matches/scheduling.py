"""Creating matches: tables of valid versions of one game, their seeds and their limits.

Every match a bot plays (ladder, tournament, challenge, validation) gets the same limits,
options and keyed bot seeds, so nothing in ``on_match_start`` tells a bot which kind of
match it is in.
"""

from __future__ import annotations

import hmac
import secrets
import uuid
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Required, TypedDict, Unpack

from django.conf import settings

from arena.config import seconds_setting
from arena.errors import InvalidInput
from arena.models import BotVersion, Match, MatchSeat, Tournament
from arena.services.dispatch import enqueue
from engine.registry import GAMES, get_game

if TYPE_CHECKING:
    from sandbox import Limits

__all__ = [
    "OPEN_STATUSES",
    "Built",
    "bot_seeds",
    "duplicate_build",
    "duplicate_create",
    "match_build",
    "match_create",
    "match_engine_kwargs",
    "match_limits",
    "match_limits_of",
    "matches_save",
    "new_seed",
    "seconds_setting",
]

#: Matches not yet finished: what a tournament waits for and the ladder counts.
OPEN_STATUSES = (Match.Status.QUEUED, Match.Status.RUNNING)


def match_limits(
    *, move_timeout_s: float | None = None, time_bank_s: float | None = None
) -> Limits:
    """The sandbox limits of a match: ``ARENA_MOVE_TIMEOUT_S``, ``ARENA_TIME_BANK_S`` (CPU),
    ``ARENA_MOVE_WALL_S``, ``ARENA_WALL_BANK_S``, ``ARENA_MATCH_WALL_S`` (wall clock).

    A tournament may set its own CPU time per move and CPU bank. The wall-clock time per
    move and wall-clock bank then follow them by the arena's own ratios (a bot given more
    CPU time needs more wall-clock time to use it), no higher than the match's wall-clock
    cap; that cap stays the arena's, because the match task's time limit is derived from it
    (``arena.config.match_time_limit``): whatever a tournament sets, a match ends, with a
    result, before its task's time limit.
    """
    from sandbox import Limits

    move_wall_s, wall_bank_s = settings.ARENA_MOVE_WALL_S, settings.ARENA_WALL_BANK_S
    cap = settings.ARENA_MATCH_WALL_S
    per_move = settings.ARENA_MOVE_WALL_S / settings.ARENA_MOVE_TIMEOUT_S
    if move_timeout_s is not None:
        move_wall_s = min(cap, move_timeout_s * per_move)
    if time_bank_s is not None:
        per_bank = (
            settings.ARENA_WALL_BANK_S / settings.ARENA_TIME_BANK_S
            if settings.ARENA_TIME_BANK_S
            else per_move
        )
        wall_bank_s = min(cap, time_bank_s * per_bank)
    return Limits(
        move_timeout_s=settings.ARENA_MOVE_TIMEOUT_S if move_timeout_s is None else move_timeout_s,
        time_bank_s=settings.ARENA_TIME_BANK_S if time_bank_s is None else time_bank_s,
        move_wall_s=move_wall_s,
        wall_bank_s=wall_bank_s,
        match_wall_s=cap,
    )


def match_limits_of(match: Match) -> Limits:
    """The limits a match is played under: its tournament's, where it set any, else the
    arena's (ladder, challenges and validation always play under the arena's)."""
    if match.tournament_id is None:
        return match_limits()
    tournament = match.tournament if Match.tournament.is_cached(match) else None
    if tournament is not None:  # loaded with the match: no query
        return match_limits(
            move_timeout_s=tournament.move_timeout_s, time_bank_s=tournament.time_bank_s
        )
    move, bank = (
        Tournament.objects.filter(pk=match.tournament_id)
        .values_list("move_timeout_s", "time_bank_s")
        .first()
    ) or (None, None)
    return match_limits(move_timeout_s=move, time_bank_s=bank)


def bot_seeds(match_seed: int, seats: int = 2) -> list[int]:
    """The seeds the bots of a match are given, keyed with the server's secret.

    A seed derived from the match seed alone could be searched back to the match seed (and
    every deal of the match) by a bot when the match seed is small or known, as tournament
    seeds are. Keyed with ``ARENA_SEED_KEY`` it tells the bot nothing; the replay records
    them once the match is over.
    """
    key = settings.ARENA_SEED_KEY.encode()
    seeds = []
    for seat in range(seats):
        digest = hmac.new(key, f"{match_seed}:bot:{seat}".encode(), "sha256").digest()
        seeds.append(int.from_bytes(digest[:8], "big") % (1 << 53))
    return seeds


def match_engine_kwargs(
    seed: int,
    seats: int = 2,
    options: Mapping[str, Any] | None = None,
    limits: Limits | None = None,
) -> dict[str, Any]:
    """What ``engine.play_match`` is given besides the game and the players.

    The same for every match a bot plays (ladder, tournament or validation), so what
    ``on_match_start`` receives (options, limits, a keyed seed) never tells a bot which
    kind of match it is in. ``options`` are the game's, for tournaments that set some;
    ``limits`` the tournament's own (``match_limits_of``), which bots are told and the
    replay records, as they are the ones the sandbox applies.
    """
    limits = limits or match_limits()
    return {
        "seed": seed,
        "bot_seeds": bot_seeds(seed, seats),
        "limits": limits.time_limits(),
        "options": dict(options or {}) or None,
    }


def new_seed() -> int:
    """A fresh match seed, exact as a JSON number (53 bits, like engine.derive_seed)."""
    return secrets.randbits(53)


def _check_table(versions: Sequence[BotVersion], game: str, *, same_bot: bool) -> None:
    rules = get_game(game)
    if not rules.min_players <= len(versions) <= rules.max_players:
        raise InvalidInput(
            f"{rules.title} is played by {rules.min_players}-{rules.max_players} bots, "
            f"not {len(versions)}",
            code="bad_table",
        )
    # Two versions of one bot may meet (a version comparison); a version never meets itself.
    who = [version.pk if same_bot else version.bot_id for version in versions]
    if len(set(who)) != len(who):
        raise InvalidInput("a bot cannot play against itself", code="same_bot")
    if any(version.bot.game != game for version in versions):
        raise InvalidInput("every bot of a match must play the same game", code="game_mismatch")
    if any(version.status != BotVersion.Status.VALID for version in versions):
        raise InvalidInput("every version must be valid to play", code="version_not_valid")


#: A match built but not yet saved: the unsaved row and the versions of its seats, in order.
Built = tuple[Match, Sequence[BotVersion]]


def match_build(
    *,
    versions: Sequence[BotVersion],
    kind: str,
    tournament: Any = None,
    challenge: Any = None,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    ranked: bool = True,
    duplicate_key: str = "",
    same_bot: bool = False,
) -> Built:
    """A match of valid versions (seat ``i`` is ``versions[i]``), checked but not saved:
    :func:`matches_save` writes many at once. ``same_bot`` allows two versions of one bot
    (a version comparison)."""
    if not versions:
        raise InvalidInput("a match needs bots", code="bad_table")
    game = versions[0].bot.game
    if game not in GAMES:
        raise InvalidInput(f"unknown game {game!r}", code="unknown_game")
    if kind not in Match.Kind.values:
        raise InvalidInput(f"unknown match kind {kind!r}", code="bad_kind")
    _check_table(versions, game, same_bot=same_bot)
    if options:
        try:
            get_game(game).match_rules(options)
        except ValueError as exc:
            raise InvalidInput(str(exc), code="bad_options") from None
    match = Match(
        game=game,
        kind=kind,
        tournament=tournament,
        challenge=challenge,
        seed=new_seed() if seed is None else seed,
        options=dict(options or {}),
        seat_count=len(versions),
        ranked=ranked,
        duplicate_key=duplicate_key,
    )
    return match, list(versions)


def matches_save(built: Sequence[Built]) -> list[Match]:
    """Save built matches and their seats (two INSERTs, however many), each queued once
    committed. A tournament of 2,016 matches starts with 2 queries, not 4,032."""
    matches = Match.objects.bulk_create([match for match, _ in built])
    MatchSeat.objects.bulk_create(
        MatchSeat(match=match, seat=seat, version=version, bot_id=version.bot_id)
        for match, versions in built
        for seat, version in enumerate(versions)
    )
    for match in matches:
        enqueue("play_match", match.pk)
    return matches


def match_create(**kwargs: Any) -> Match:
    """Create one queued match (the arguments of :func:`match_build`), queued once committed."""
    return matches_save([match_build(**kwargs)])[0]


def rotations(seats: int) -> list[list[int]]:
    """For duplicate play: seat orders so that each deal is played once per rotation.

    >>> rotations(2), rotations(3)
    ([[0, 1], [1, 0]], [[0, 1, 2], [2, 0, 1], [1, 2, 0]])
    """
    return [[(seat - shift) % seats for seat in range(seats)] for shift in range(seats)]


class SetSettings(TypedDict, total=False):
    """What every match of a duplicate set shares besides its seed: :func:`match_build`'s
    keywords (and defaults) but the seats and the key."""

    kind: Required[str]
    tournament: Any
    challenge: Any
    options: Mapping[str, Any] | None
    ranked: bool
    same_bot: bool


def duplicate_build(
    *, versions: Sequence[BotVersion], seed: int | None = None, **settings: Unpack[SetSettings]
) -> list[Built]:
    """The same deals once per seat rotation (two seats: twice, swapped), as ACPC plays
    poker: each bot plays every hand, so the luck of the deal cancels out of the sum.

    Every match of the set shares the seed (the engine derives each game's deal from the
    match seed and the game number, never from who sits where) and a ``duplicate_key``.
    """
    seed = new_seed() if seed is None else seed
    key = uuid.uuid4().hex
    return [
        match_build(
            versions=[versions[index] for index in order],
            seed=seed,
            duplicate_key=key,
            **settings,
        )
        for order in rotations(len(versions))
    ]


def duplicate_create(**kwargs: Any) -> list[Match]:
    """Create a duplicate set (the arguments of :func:`duplicate_build`), queued once
    committed."""
    return matches_save(duplicate_build(**kwargs))
