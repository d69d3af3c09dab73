"""Validating an uploaded bot version: import it in the sandbox and play a smoke match.

The version plays a two-game match (a second or so) against the built-in ``random`` bot,
with the arena's per-move limit and a small time bank. Whatever the bot does wrong (fails
to import, has no ``act``, crashes, times out, plays an illegal move) makes the version
invalid, with a ``validation_log`` written by the platform that says where and why, and
the bot's own output and traceback in ``error_output`` (both shown to its owner only).
A valid version becomes its bot's active version and queues ladder placement. The smoke
match is not a Match: it is never stored, replayed or rated.
"""

from __future__ import annotations

import logging
import tempfile
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction
from django.utils import timezone

import engine
from arena.models import Bot, BotVersion
from arena.services.dispatch import enqueue
from arena.services.matches import PlatformError, sandbox_config, version_bytes
from arena.services.ratings import rating_get_or_create

if TYPE_CHECKING:
    from sandbox import Limits

__all__ = ["SMOKE_OPTIONS", "version_sweep_pending", "version_validate"]

log = logging.getLogger(__name__)

#: Two games (one if the first is a sweep): both deal roles and every decision type.
SMOKE_OPTIONS = {"game_cap": 2}
#: The smoke match's time bank is the arena's, capped so a slow bot fails in seconds.
SMOKE_BANK_CAP_S = 2.0
#: Wall-clock cap of the candidate's decisions in the smoke match: with it the smoke match
#: ends, with a verdict, well inside the validation task's 60 s soft time limit
#: (``Limits.seat_wall_bound_s``), so a sleeping bot is invalid instead of pending.
SMOKE_MATCH_WALL_S = 15.0
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


def _limits() -> Limits:
    from sandbox import Limits

    return Limits(
        move_timeout_s=settings.ARENA_MOVE_TIMEOUT_S,
        time_bank_s=min(settings.ARENA_TIME_BANK_S, SMOKE_BANK_CAP_S),
        move_wall_s=settings.ARENA_MOVE_WALL_S,
        wall_bank_s=min(settings.ARENA_WALL_BANK_S, SMOKE_BANK_CAP_S),
        match_wall_s=min(settings.ARENA_MATCH_WALL_S, SMOKE_MATCH_WALL_S),
    )


def _where(error: engine.MatchError) -> str:
    """'crash at import', 'timeout during game 1 hand 3 (answer)': where the bot failed."""
    kind = _KIND_TEXT.get(error.kind, error.kind)
    if error.game == 0:
        phase = "at match start" if "on_match_start" in error.detail else "at import"
        return f"{kind} {phase}"
    hand = error.location.get("hand")
    phase = error.location.get("phase")
    where = f"{kind} during game {error.game}" + (f" hand {hand}" if hand else "")
    return where + (f" ({phase} phase)" if phase else "")


def _smoke_test(version: BotVersion) -> _Verdict:
    from sandbox import SandboxedPlayer, SandboxError

    try:
        package = engine.read_bot(version.filename or f"bot.{version.kind}", version_bytes(version))
    except engine.BotFileError as exc:
        return _Verdict(False, f"invalid: the file was rejected: {exc.message}")
    limits = _limits()
    config = sandbox_config()
    seed = engine.derive_seed(int(version.sha256[:12] or "0", 16), "smoke")
    with tempfile.TemporaryDirectory(prefix=f"arena-version-{version.pk}-") as tmp:
        package.write_to(tmp)
        candidate = SandboxedPlayer(str(version.bot), Path(tmp), limits=limits, config=config)
        reference = engine.InProcessPlayer("random", engine.builtin_bot(version.bot.game, "random"))
        try:
            result = engine.play_match(
                version.bot.game,
                [candidate, reference],
                seed=seed,
                options=SMOKE_OPTIONS,
                limits=limits.time_limits(),
            )
        except SandboxError as exc:
            raise PlatformError(f"the sandbox failed: {exc}") from None
        finally:
            candidate.close()
            reference.close()
        output = candidate.output()
    return _verdict(result, output, limits)


def _verdict(result: engine.MatchResult, output: str, limits: Limits) -> _Verdict:
    error = result.error
    if error is not None and error.seat != 0:
        raise PlatformError(f"the reference bot failed the smoke match: {error.detail}")
    if error is not None:
        private = output
        if error.private.strip() and error.private.strip() not in output:
            private = f"{output}\n{error.private}".strip()
        return _Verdict(False, f"invalid: {_where(error)}: {error.detail}", private[-OUTPUT_CAP:])
    outcome = {0: "won", 1: "lost"}.get(result.winner, "drew")
    how = "by a sweep" if result.reason == "sweep" else "on match points"
    summary = (
        f"valid: bot.py imported in the sandbox and act() answered every move.\n"
        f"Smoke match against the built-in random bot: {outcome} {how} "
        f"({result.match_points[0]}-{result.match_points[1]}) over "
        f"{result.games_played} game(s) in {result.duration_s:.2f} s "
        f"(limits: {limits.move_timeout_s:g} s per move, {limits.time_bank_s:g} s time bank)."
    )
    return _Verdict(True, summary, output[-OUTPUT_CAP:])


def version_validate(*, version_id: int) -> BotVersion:
    """Validate a pending version (a no-op for one already valid or invalid).

    Raises :class:`PlatformError` when the platform could not judge the bot (the version
    stays pending and the task retries).
    """
    version = BotVersion.objects.select_related("bot__owner").get(pk=version_id)
    if version.status != BotVersion.Status.PENDING:
        return version
    verdict = _smoke_test(version)
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
    rating_get_or_create(bot_id=bot.pk, game=bot.game)
    enqueue("ladder_placement", bot.pk)


def version_sweep_pending(*, older_than_s: float = 600.0, limit: int = 100) -> int:
    """Queue validation again for versions pending longer than ``older_than_s``."""
    cutoff = timezone.now() - timedelta(seconds=older_than_s)
    pending = BotVersion.objects.filter(status=BotVersion.Status.PENDING, created__lt=cutoff)
    ids = list(pending.order_by("id").values_list("id", flat=True)[:limit])
    for version_id in ids:
        enqueue("validate_version", version_id)
    return len(ids)
