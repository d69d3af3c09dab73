"""Playing one playground match: claimed by one attempt, played in the sandbox with the
arena's limits, recorded on its PlaygroundMatch only (no Match, rating or statistic)."""

from __future__ import annotations

import logging
import tempfile
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

import engine
from arena.models import BotVersion, PlaygroundMatch
from arena.services.matches import (
    WORKDIR_PREFIX,
    PlatformError,
    match_engine_kwargs,
    match_limits,
    sandbox_config,
    version_materialize,
)
from arena.services.matches.recording import STEP_LOG_ENTRIES
from engine import replay as replay_io
from engine.registry import get_game

__all__ = [
    "DRAFT_NAME",
    "MAX_ATTEMPTS",
    "playground_match_play",
    "stale_after_s",
]

log = logging.getLogger("arena.services.playground")

#: Attempts at one playground match before it is marked failed (a platform problem).
MAX_ATTEMPTS = 3
#: The draft's name in its replays and logs.
DRAFT_NAME = "your draft"


# --- playing --------------------------------------------------------------------------------


def stale_after_s() -> float:
    """A running playground match older than its task's hard time limit has lost its worker."""
    return float(settings.CELERY_TASK_TIME_LIMIT) + 30.0


def _claim(match_id: int) -> str | None:
    """Take the match for this attempt (one conditional UPDATE); its token, or None."""
    token = uuid.uuid4().hex
    now = timezone.now()
    stale = now - timedelta(seconds=stale_after_s())
    open_ = Q(status=PlaygroundMatch.Status.QUEUED) | Q(
        status=PlaygroundMatch.Status.RUNNING, started_at__lt=stale
    )
    changed = PlaygroundMatch.objects.filter(open_, pk=match_id, attempts__lt=MAX_ATTEMPTS).update(
        status=PlaygroundMatch.Status.RUNNING,
        claim_token=token,
        started_at=now,
        attempts=F("attempts") + 1,
    )
    return token if changed == 1 else None


def playground_match_play(*, match_id: int, worker: str = "") -> PlaygroundMatch | None:
    """Claim, play and record one playground match; None when there was nothing to do.

    Raises :class:`PlatformError` when the platform failed (the match goes back to the
    queue, and the task retries); the last attempt marks the match failed instead.
    """
    token = _claim(match_id)
    if token is None:
        return None
    match = PlaygroundMatch.objects.select_related("run").get(pk=match_id)
    try:
        result, output = _play(match)
    except Exception as exc:  # whatever it was, it was not the draft's fault
        reason = str(exc) if isinstance(exc, PlatformError) else f"{type(exc).__name__}: {exc}"
        if not isinstance(exc, PlatformError):
            log.exception("playground match=%s failed on the platform", match_id)
        last = match.attempts >= MAX_ATTEMPTS
        PlaygroundMatch.objects.filter(pk=match_id, claim_token=token).update(
            status=PlaygroundMatch.Status.FAILED if last else PlaygroundMatch.Status.QUEUED,
            claim_token="",
            failure_reason=reason[:1000],
            finished_at=timezone.now() if last else None,
        )
        if last:
            match.refresh_from_db()
            return match
        raise PlatformError(reason) from None
    _record(match, token, result, output)
    match.refresh_from_db()
    return match


def _play(match: PlaygroundMatch) -> tuple[engine.MatchResult, str]:
    """The match in the sandbox: the draft at its seat, the opponents round it."""
    from sandbox import SandboxedPlayer

    run = match.run
    limits = match_limits()
    config = sandbox_config()
    others = list(run.opponents)
    order: list[dict[str, Any] | None] = []
    for seat in range(match.seat_count):
        order.append(None if seat == match.draft_seat else others.pop(0))
    versions: dict[int | None, BotVersion] = {  # looked up by an opponent's version_id, if any
        version.pk: version
        for version in BotVersion.objects.select_related("bot__owner").filter(
            pk__in=[who["version_id"] for who in order if who and who.get("version_id")]
        )
    }
    with tempfile.TemporaryDirectory(prefix=f"{WORKDIR_PREFIX}playground-{match.pk}-") as tmp:
        players: list[engine.Player] = []
        seat_info: list[dict[str, Any]] = []
        for seat, who in enumerate(order):
            folder = Path(tmp) / f"seat{seat}"
            folder.mkdir(mode=0o700)
            info: dict[str, Any]
            if who is None:
                (folder / "bot.py").write_text(run.source, encoding="utf-8")
                name, info = DRAFT_NAME, {"playground": "draft"}
            elif who.get("builtin"):
                path = get_game(run.game).builtin_bots().get(who["builtin"])
                if path is None:
                    raise PlatformError(f"the built-in bot {who['builtin']!r} is gone")
                (folder / "bot.py").write_bytes(path.read_bytes())
                name, info = who["builtin"], {"builtin": who["builtin"]}
            else:
                version = versions.get(who.get("version_id"))
                if version is None:
                    raise PlatformError(f"version {who.get('version_id')} is gone")
                version_materialize(version, folder)
                name = str(version.bot)
                info = {
                    "bot_id": version.bot_id,
                    "owner": version.bot.owner.username,
                    "version": version.number,
                    "version_id": version.pk,
                }
            players.append(SandboxedPlayer(name, folder, limits=limits, config=config))
            seat_info.append(info)
        try:
            result = engine.play_match(
                run.game,
                players,
                **match_engine_kwargs(match.seed, len(players), None, limits),
                seat_info=seat_info,
                collect_logs=True,
            )
            output = players[match.draft_seat].output()
        finally:
            for player in players:
                player.close()
    return result, output


def _record(match: PlaygroundMatch, token: str, result: engine.MatchResult, output: str) -> None:
    """Write the result once, and only while this attempt holds the claim."""
    seat = match.draft_seat
    fault = next((f for f in result.faults if f.seat == seat), None)
    updated = PlaygroundMatch.objects.filter(
        pk=match.pk, status=PlaygroundMatch.Status.RUNNING, claim_token=token
    ).update(
        status=PlaygroundMatch.Status.DONE,
        claim_token="",
        finished_at=timezone.now(),
        duration_s=round(result.duration_s, 3),
        reason=result.reason[:16],
        games_played=result.games_played,
        placings=list(result.placings),
        scores=list(result.scores),
        fault=fault.kind[:16] if fault else "",
        fault_detail=fault.detail[:500] if fault else "",
        fault_link=_fault_link(result.replay, fault) if fault else "",
        replay=replay_io.dumps(result.replay),
        output=output,
        traceback=fault.private if fault else "",
        steps=list(result.logs[seat][:STEP_LOG_ENTRIES]) if result.logs else [],
        failure_reason="",
    )
    if updated != 1:
        log.warning("playground match=%s attempt superseded; result discarded", match.pk)


def _fault_link(replay: dict[str, Any], fault: engine.MatchError) -> str:
    """The viewer position of a fault (``game=G&step=S``): its game with the steps it let be
    played, as the match pages link it; "" for a fault before the first game."""
    games = replay.get("games") or []
    if not 1 <= fault.game <= len(games):
        return ""
    played = len(games[fault.game - 1].get("steps") or [])
    step = played if fault.step is None else min(fault.step, played)
    return f"game={fault.game}&step={step}"
