"""Validating an uploaded bot version: complete matches in the sandbox, like real ones.

The version plays complete matches of its bot's game, at the smallest legal table, with the
game's built-in ``random`` bot in every other seat, until it has
played :data:`VALIDATION_MIN_GAMES` games, one match lasting at least
:data:`VALIDATION_LONG_MATCH_GAMES` (at most :data:`VALIDATION_MAX_MATCHES` matches; no new
match starts after :data:`VALIDATION_BUDGET_S`). Each is exactly what a real match
looks like to the bot: the default match rules, the arena's limits and a keyed seed
(``matches.match_engine_kwargs``), and a seat that alternates, so a bot cannot behave
only during validation. A bot that crashes from its third game on is therefore caught
unless none of its matches lasts three games (one that is always swept in two games: it
loses every ladder match anyway); the ladder's pause rule (``arena.services.ladder``)
catches what validation misses.

Whatever the bot does wrong (fails to import, has no ``act``, crashes, times out, plays an
illegal move) makes the version invalid, with a ``validation_log`` written by the platform
that says where and why, and the bot's own output and traceback in ``error_output`` (both
shown to its owner only). A valid version becomes its bot's active version and queues
ladder placement. Validation matches are not Matches: never stored, replayed or rated.

A version is never pending for long: :func:`version_sweep_pending` (run by the sweeper
every minute) queues a stuck validation again after ``ARENA_VALIDATION_REQUEUE_AFTER_S``,
at most ``ARENA_VALIDATION_REQUEUES`` times, then marks it invalid with a reason the owner
can read (see ``docs/workers.md`` for the bound).
"""

from __future__ import annotations

import logging
import tempfile
import time
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

import engine
from arena.models import Bot, BotVersion
from arena.services.dispatch import enqueue
from arena.services.matches import (
    PlatformError,
    match_engine_kwargs,
    match_limits,
    sandbox_config,
    seconds_setting,
    source_name,
    version_bytes,
)
from arena.services.ratings import rating_activate

__all__ = [
    "VALIDATION_MAX_MATCHES",
    "VALIDATION_MIN_GAMES",
    "version_sweep_pending",
    "version_validate",
]

log = logging.getLogger(__name__)

#: Validation goes on until the bot has played this many games (about three matches)
#: and at least one match of :data:`VALIDATION_LONG_MATCH_GAMES` games...
VALIDATION_MIN_GAMES = 8
VALIDATION_LONG_MATCH_GAMES = 3
#: ... but plays at most this many complete matches...
VALIDATION_MAX_MATCHES = 5
#: ... and starts no new match after this many seconds.
VALIDATION_BUDGET_S = 120.0
#: Cap on the bot's own output kept with the version.
OUTPUT_CAP = 64 * 1024

_KIND_TEXT = {
    "timeout": "timeout",
    "crash": "crash",
    "memory": "out of memory",
    "illegal_move": "illegal move",
    "bad_output": "bad output",
    "forbidden": "forbidden operation",
}


@dataclass(frozen=True, slots=True)
class _Verdict:
    valid: bool
    log: str
    output: str = ""


def _where(error: engine.MatchError) -> str:
    """'crash at import', 'timeout during game 1 hand 3 (answer)': where the bot failed."""
    kind = _KIND_TEXT.get(error.kind, error.kind)
    if error.game == 0:
        phase = "at match start" if "on_match_start" in error.detail else "at import"
        return f"{kind} {phase}"
    where = f"{kind} during game {error.game}"
    # The game's own words for where play stood (Lie 21: hand 3, answer phase).
    details = [f"{key} {value}" for key, value in error.location.items() if key != "phase"]
    play_phase = error.location.get("phase")
    where += "".join(f" {detail}" for detail in details)
    where += f" ({play_phase} phase)" if play_phase else ""
    return where + (f", step {error.step}" if error.step is not None else "")


def _play_one(
    version: BotVersion, package: engine.BotPackage, seed: int, seat: int
) -> tuple[engine.MatchResult, str]:
    """One complete validation match with the candidate at ``seat`` and the game's random
    bot in every other seat of the smallest legal table; the result and its output."""
    from sandbox import SandboxedPlayer, SandboxError

    game = version.bot.game
    seats = engine.get_game(game).min_players
    limits = match_limits()
    config = sandbox_config()
    with tempfile.TemporaryDirectory(prefix=f"arena-version-{version.pk}-") as tmp:
        package.write_to(tmp)
        candidate = SandboxedPlayer(
            str(version.bot),
            Path(tmp),
            limits=limits,
            config=config,
            source_name=source_name(version),  # its traceback names the author's file
        )
        random_bot = engine.builtin_bot(game, "random")
        players: list[engine.Player] = [
            engine.InProcessPlayer(f"random{other}", random_bot) for other in range(seats)
        ]
        players[seat] = candidate
        try:
            result = engine.play_match(game, players, **match_engine_kwargs(seed, seats))
        except SandboxError as exc:
            raise PlatformError(f"the sandbox failed: {exc}") from None
        finally:
            for player in players:
                player.close()
        return result, candidate.output()


def _validation_matches(version: BotVersion) -> _Verdict:
    try:
        package = engine.read_bot(version.filename or f"bot.{version.kind}", version_bytes(version))
    except engine.BotFileError as exc:
        return _Verdict(False, f"invalid: the file was rejected: {exc.message}")
    base = int(version.sha256[:12] or "0", 16)
    seats = engine.get_game(version.bot.game).min_players
    first_seat = engine.derive_seed(base, "validation-seat") % seats
    started = time.monotonic()
    outputs: list[str] = []
    summaries: list[str] = []
    games = longest = 0
    for number in range(1, VALIDATION_MAX_MATCHES + 1):
        seat = (first_seat + number - 1) % seats
        seed = engine.derive_seed(base, "validation", number)
        result, output = _play_one(version, package, seed, seat)
        outputs.append(output)
        others = [fault for fault in result.faults if fault.seat != seat]
        if others:
            raise PlatformError(f"a reference bot failed a validation match: {others[0].detail}")
        error = result.error
        if error is not None:
            private = "".join(outputs)
            if error.private.strip() and error.private.strip() not in output:
                private = f"{private}\n{error.private}".strip()
            where = _where(error) + (f" of validation match {number}" if error.game else "")
            return _Verdict(False, f"invalid: {where}: {error.detail}", private[-OUTPUT_CAP:])
        games += result.games_played
        longest = max(longest, result.games_played)
        summaries.append(_summary(number, result, seat))
        enough = games >= VALIDATION_MIN_GAMES and longest >= VALIDATION_LONG_MATCH_GAMES
        if enough or time.monotonic() - started > VALIDATION_BUDGET_S:
            break
    limits = match_limits()
    text = (
        f"valid: {source_name(version)} imported in the sandbox and act() answered every move of "
        f"{len(summaries)} complete match(es), {games} game(s), against the built-in random "
        f"bot (limits: {limits.move_timeout_s:g} s per move, {limits.time_bank_s:g} s time "
        f"bank; {limits.move_wall_s:g} s of wall-clock time per move, "
        f"{limits.wall_bank_s:g} s wall-clock bank).\n" + "\n".join(summaries)
    )
    return _Verdict(True, text, "".join(outputs)[-OUTPUT_CAP:])


def _summary(number: int, result: engine.MatchResult, seat: int) -> str:
    placing = result.placings[seat]
    shared = list(result.placings).count(placing) > 1
    place = "first" if placing == 0 else f"place {placing + 1} of {len(result.placings)}"
    scores = "-".join(str(score) for score in result.scores)
    return (
        f"Validation match {number} (seat {seat}): {place}{' (shared)' if shared else ''} "
        f"({result.reason}, scores {scores}) over {result.games_played} game(s) in "
        f"{result.duration_s:.2f} s."
    )


def version_validate(*, version_id: int) -> BotVersion:
    """Validate a pending version (a no-op for one already valid or invalid).

    Raises :class:`PlatformError` when the platform could not judge the bot (the version
    stays pending and the task retries).
    """
    version = BotVersion.objects.select_related("bot__owner").get(pk=version_id)
    if version.status != BotVersion.Status.PENDING:
        return version
    verdict = _validation_matches(version)
    status = BotVersion.Status.VALID if verdict.valid else BotVersion.Status.INVALID
    with transaction.atomic():
        # Two deliveries of the same task may both get here: the first to write wins.
        changed = BotVersion.objects.filter(pk=version.pk, status=BotVersion.Status.PENDING).update(
            status=status,
            validation_log=verdict.log,
            error_output=verdict.output,
            validated_at=timezone.now(),
        )
        if changed == 1 and verdict.valid:
            _activate(version)
    version.refresh_from_db()
    log.info("version=%s bot=%s status=%s", version.pk, version.bot_id, version.status)
    return version


def _activate(version: BotVersion) -> None:
    """Make the version its bot's active one (unless a newer one already is)."""
    bot = (
        Bot.objects.select_for_update(of=("self",))
        .select_related("active_version")
        .get(pk=version.bot_id)
    )
    current = bot.active_version
    if current is not None and current.number > version.number:
        return  # an older upload validated late: the newer version keeps playing
    Bot.objects.filter(pk=bot.pk).update(active_version=version)
    version.bot = bot
    rating_activate(version=version)
    enqueue("ladder_placement", bot.pk)
    if current is not None and current.status == BotVersion.Status.VALID:
        enqueue("compare_versions", version.pk)  # "v5 vs v4", unrated


def requeue_after_s() -> float:
    """A pending version is queued again when untouched this long (above the validation
    task's hard time limit, so a live validation is never doubled)."""
    return seconds_setting("ARENA_VALIDATION_REQUEUE_AFTER_S", 720.0)


def max_requeues() -> int:
    return max(0, int(seconds_setting("ARENA_VALIDATION_REQUEUES", 2)))


def pending_bound_s() -> float:
    """The longest a version stays pending (without counting the sweeper's own period)."""
    return requeue_after_s() * (max_requeues() + 1)


def version_sweep_pending(*, limit: int = 100) -> dict[str, int]:
    """Queue stuck validations again, a bounded number of times; then fail them.

    A version pending (since its upload, or since the sweeper last queued it) for more than
    :func:`requeue_after_s` is queued again, at most :func:`max_requeues` times; the next
    time it is found stuck it is marked invalid, with a log saying the platform (not the
    bot) failed and how to try again. So no version is pending longer than
    :func:`pending_bound_s` plus one sweeper period.
    """
    now = timezone.now()
    cutoff = now - timedelta(seconds=requeue_after_s())
    untouched = Q(validation_queued_at__lt=cutoff) | Q(
        validation_queued_at__isnull=True, created__lt=cutoff
    )
    stuck = BotVersion.objects.filter(untouched, status=BotVersion.Status.PENDING).order_by("id")
    counts = {"requeued": 0, "failed": 0}
    for version in stuck.only("id", "created", "validation_requeues")[:limit]:
        if version.validation_requeues >= max_requeues():
            minutes = (now - version.created).total_seconds() / 60
            reason = (
                f"invalid: the platform could not validate this version: it stayed pending for "
                f"{minutes:.0f} minutes through {version.validation_requeues + 1} tries "
                f"(the arena's workers or sandbox failed, not necessarily your bot). Upload it "
                f"again to retry (a changed file: an identical one is refused as a duplicate)."
            )
            counts["failed"] += BotVersion.objects.filter(
                pk=version.pk, status=BotVersion.Status.PENDING
            ).update(status=BotVersion.Status.INVALID, validation_log=reason, validated_at=now)
            log.error(
                "version=%s status=invalid reason=stuck requeues=%s",
                version.pk,
                version.validation_requeues,
            )
            continue
        changed = BotVersion.objects.filter(
            pk=version.pk,
            status=BotVersion.Status.PENDING,
            validation_requeues=version.validation_requeues,
        ).update(validation_requeues=F("validation_requeues") + 1, validation_queued_at=now)
        if changed:
            enqueue("validate_version", version.pk)
            counts["requeued"] += 1
    return counts
