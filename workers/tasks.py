"""Celery tasks. Each one is a thin wrapper that calls ``arena.services``.

Tasks take ids, are idempotent (so ``acks_late`` redelivery is harmless) and are queued on
commit through ``arena.services.dispatch.enqueue``. The task names are a contract: other
code queues them by name. Each task logs one line of ``key=value`` pairs when it ends.

Failures: a :class:`PlatformError` (sandbox, storage) or a database outage is retried with
exponential backoff; a match counts its own attempts in the database and is marked failed
after the third (see ``arena.services.matches``). A bot's fault is never a task failure.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from celery import Task
from django.db import InterfaceError, OperationalError

from arena.errors import Conflict
from arena.services import challenges, ladder, playground, rating_fit, schedules
from arena.services.matches import MatchBusy, PlatformError, match_play, match_sweep_stuck
from arena.services.ratings import match_rate
from arena.services.tournaments import tournament_finish, tournament_start, tournament_start_due
from arena.services.validation import version_sweep_pending, version_validate
from workers.celery import app

log = logging.getLogger("arena.tasks")

#: Errors worth another try later: the platform's, and a database that went away.
TRANSIENT = (PlatformError, OperationalError, InterfaceError)
#: Backoff of retries: 5 s, 10 s, 20 s ... up to 5 minutes, with jitter.
RETRY = {
    "autoretry_for": TRANSIENT,
    "retry_backoff": 5,
    "retry_backoff_max": 300,
    "retry_jitter": True,
    "max_retries": 8,
}


def _format(value: Any) -> str:
    text = str(value)
    return repr(text) if (" " in text or "=" in text or not text) else text


@contextmanager
def _logged(task: str, **fields: Any) -> Iterator[dict[str, Any]]:
    """Log one ``task=... duration_s=... outcome=...`` line when the block ends."""
    started = time.perf_counter()
    fields = {"task": task, **fields}
    try:
        yield fields
    except MatchBusy:
        fields.setdefault("outcome", "busy")
        raise
    except Exception as exc:
        fields["outcome"] = "retry" if isinstance(exc, TRANSIENT) else "error"
        fields["error"] = f"{type(exc).__name__}: {exc}"[:300]
        raise
    finally:
        fields["duration_s"] = f"{time.perf_counter() - started:.3f}"
        fields.setdefault("outcome", "ok")
        level = logging.WARNING if fields["outcome"] in {"retry", "error"} else logging.INFO
        log.log(level, " ".join(f"{key}={_format(value)}" for key, value in fields.items()))


def _worker(task: Task) -> str:
    host = task.request.hostname or socket.gethostname()
    return f"{host}:{os.getpid()}"


# --- bots ---------------------------------------------------------------------------------


@app.task(name="workers.tasks.validate_version", **RETRY)
def validate_version(version_id: int) -> None:
    """Validate a version: complete matches, so the match time limits apply (the settings')."""
    with _logged("validate_version", version=version_id) as line:
        version = version_validate(version_id=version_id)
        line.update(bot=version.bot_id, outcome=version.status)


# --- matches ------------------------------------------------------------------------------


@app.task(bind=True, name="workers.tasks.play_match", **{**RETRY, "max_retries": 20})
def play_match(self: Task, match_id: int) -> None:
    """Play one match. Time limits: the settings' (ARENA_MATCH_TIME_LIMIT_S, + 60 s hard)."""
    try:
        with _logged("play_match", match=match_id) as line:
            match = match_play(match_id=match_id, worker=_worker(self))
            if match is None:
                line["outcome"] = "skipped"  # already played, or held by another attempt
                return
            seats = [(seat.bot_id, seat.placing) for seat in match.seats.all()]  # as recorded
            line.update(
                bots="-".join(str(bot) for bot, _ in seats),
                status=match.status,
                outcome="-".join("" if p is None else str(p) for _, p in seats)
                if match.status == match.Status.DONE
                else match.status,
                reason=match.reason or match.failure_reason[:120],
                attempt=match.attempts,
                games=match.games_played,
                match_s=match.duration_s,
            )
    except MatchBusy as busy:
        if self.request.is_eager:
            return  # eager mode cannot wait: nothing would ever run in between
        raise self.retry(countdown=busy.retry_in_s, max_retries=None) from None


@app.task(bind=True, name="workers.tasks.play_playground_match", **{**RETRY, "max_retries": 5})
def play_playground_match(self: Task, match_id: int) -> None:
    """One unrated playground match (its own queue, read before any other). Time limits:
    the settings' (ARENA_MATCH_TIME_LIMIT_S, + 60 s hard), like every match."""
    with _logged("play_playground_match", match=match_id) as line:
        match = playground.playground_match_play(match_id=match_id, worker=_worker(self))
        if match is None:
            line["outcome"] = "skipped"  # already played, or held by another attempt
            return
        line.update(
            run=match.run_id,
            status=match.status,
            outcome=match.fault or match.status,
            games=match.games_played,
            match_s=match.duration_s,
        )


@app.task(name="workers.tasks.rate_match", soft_time_limit=30, time_limit=60, **RETRY)
def rate_match(match_id: int) -> None:
    with _logged("rate_match", match=match_id):
        match_rate(match_id=match_id)


@app.task(name="workers.tasks.sweep_stuck_matches", soft_time_limit=60, time_limit=90)
def sweep_stuck_matches() -> None:
    """Periodic: re-queue matches left by lost messages or dead workers, and validations
    stuck pending (a bounded number of times, then failed with a reason)."""
    with _logged("sweep_stuck_matches") as line:
        line.update(match_sweep_stuck())
        swept = version_sweep_pending()  # stuck validations: queued again, then failed
        line.update(validations_requeued=swept["requeued"], validations_failed=swept["failed"])
        line.update(playground.playground_sweep())  # lost messages, dead workers


@app.task(name="workers.tasks.clean_up_playground", soft_time_limit=300, time_limit=360)
def clean_up_playground() -> None:
    """Periodic (hourly): delete the playground runs their authors no longer keep
    (``ARENA_PLAYGROUND_KEEP_RUNS``, ``ARENA_PLAYGROUND_KEEP_DAYS``)."""
    with _logged("clean_up_playground") as line:
        line.update(playground.playground_cleanup())


# --- tournaments --------------------------------------------------------------------------


@app.task(name="workers.tasks.start_due_tournaments", soft_time_limit=60, time_limit=90)
def start_due_tournaments() -> None:
    """Periodic (every few seconds, control queue): start the sign-up tournaments whose
    deadline has passed; cancel those with too few bots signed up."""
    due = tournament_start_due()
    if due["started"] or due["cancelled"]:
        with _logged("start_due_tournaments") as line:
            line.update(tournaments_started=due["started"], tournaments_cancelled=due["cancelled"])


@app.task(name="workers.tasks.start_tournament", soft_time_limit=120, time_limit=180, **RETRY)
def start_tournament(tournament_id: int) -> None:
    with _logged("start_tournament", tournament=tournament_id) as line:
        try:
            tournament = tournament_start(tournament_id=tournament_id)
        except Conflict as exc:  # already started (a redelivery), or too few bots
            line.update(outcome="skipped", reason=exc.message)
            return
        line["matches"] = tournament.matches.count()


@app.task(name="workers.tasks.finish_tournament", soft_time_limit=120, time_limit=180, **RETRY)
def finish_tournament(tournament_id: int) -> None:
    with _logged("finish_tournament", tournament=tournament_id) as line:
        line["outcome"] = tournament_finish(tournament_id=tournament_id).status


@app.task(
    name="workers.tasks.run_scheduled_tournament", soft_time_limit=120, time_limit=180, **RETRY
)
def run_scheduled_tournament(schedule_id: int, sent_at: str | None = None) -> None:
    """A schedule's tick; ``sent_at`` (added by ``workers.beat.ArenaScheduler``) says which
    due time it is for."""
    with _logged("run_scheduled_tournament", schedule=schedule_id, sent_at=sent_at) as line:
        tournament = schedules.schedule_run(schedule_id=schedule_id, sent_at=sent_at)
        line.update(
            tournament=tournament.pk if tournament else None,
            outcome="started" if tournament else "skipped",
        )


# --- ladder -------------------------------------------------------------------------------


@app.task(name="workers.tasks.ladder_placement", soft_time_limit=60, time_limit=90, **RETRY)
def ladder_placement(bot_id: int) -> None:
    with _logged("ladder_placement", bot=bot_id) as line:
        line["matches"] = len(ladder.ladder_placement(bot_id=bot_id))


@app.task(name="workers.tasks.compare_versions", soft_time_limit=60, time_limit=90, **RETRY)
def compare_versions(version_id: int) -> None:
    """A new active version against its bot's previous one (unrated matches)."""
    with _logged("compare_versions", version=version_id) as line:
        challenge = challenges.comparison_start(version_id=version_id)
        line["outcome"] = f"challenge {challenge.pk}" if challenge else "skipped"


@app.task(name="workers.tasks.refit_ratings", soft_time_limit=60, time_limit=90, **RETRY)
def refit_ratings(game: str) -> None:
    """The game's displayed ratings, refitted over every rated match (debounced by
    ``rating_fit.ratings_refit_soon``)."""
    rating_fit.ratings_refit_pending_clear(game)
    with _logged("refit_ratings", game=game) as line:
        report = rating_fit.ratings_refit(game=game)
        line.update(matches=report.matches, versions=report.versions, ms=round(report.total_ms))


@app.task(name="workers.tasks.refit_due_ratings", soft_time_limit=120, time_limit=180)
def refit_due_ratings() -> None:
    """Periodic: refit any game whose displayed ratings are behind its rated matches."""
    with _logged("refit_due_ratings") as line:
        line["games"] = ",".join(report.game for report in rating_fit.ratings_refit_due())


@app.task(name="workers.tasks.ladder_tick", soft_time_limit=60, time_limit=90)
def ladder_tick() -> None:
    """Periodic: more ladder matches for bots whose rating is still uncertain."""
    with _logged("ladder_tick") as line:
        line["matches"] = len(ladder.ladder_tick())
