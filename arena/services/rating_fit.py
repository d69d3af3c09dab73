"""The displayed ratings: one whole-history fit per game, refitted as results arrive.

Every rated match of a game goes into one fit (``arena.algorithms.whole_history``: the
TrueSkill Through Time model, one skill per bot version that does not drift), and each
version's posterior mean and standard deviation are written to its ``Rating`` row
(``rating``, ``rating_sigma``), where the ladder, the pages and the API read them: nothing
is fitted per request. The history rows of the matches recorded since the last fit get the
new values too (what the rating charts draw). The live TrueSkill update
(``arena.services.ratings``) still runs inside each match's recording: each match's rating
change, and the new version's first tables before any fit has seen it.

**When.** Recording a rated match calls :func:`ratings_refit_soon`, which queues
``workers.tasks.refit_ratings`` for the game at most once per :data:`REFIT_DELAY_S` (a
burst of results costs one fit); the beat's ``refit_due_ratings`` refits any game whose fit
is behind its matches (a lost task, a new deployment), every minute.

**What.** A version's prior is ``N(prior_mu, 25/3)``: its bot's previous version's
displayed rating when it was created (25 for a first version). The performance noise is
TrueSkill's beta (25/6); the draw margin comes from the share of neighbouring places that
tied in the matches fitted (a game's measured ``draw_probability`` is a property of the
built-in bots, the matches are the ladder's own). A fit of 1,000 versions and 100,000
matches takes well under a second (``benchmarks/ranking_convergence.py --refit``).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime

import numpy as np
from django.core.cache import cache
from django.db import connection, transaction
from django.utils import timezone

from arena.algorithms import whole_history
from arena.freshness import ladder_changed
from arena.models import Match, MatchSeat, Rating, RatingFit, RatingHistory
from arena.models.ratings import DEFAULT_SIGMA
from arena.services import sql
from arena.services.dispatch import enqueue
from engine.registry import GAMES

__all__ = [
    "ESTIMATOR",
    "REFIT_DELAY_S",
    "RefitReport",
    "ratings_refit",
    "ratings_refit_due",
    "ratings_refit_pending_clear",
    "ratings_refit_soon",
]

log = logging.getLogger(__name__)

#: The one sentence every page and the API use to say what the displayed rating is.
ESTIMATOR = (
    "Ratings are a whole-history fit (TrueSkill Through Time) of every rated match of each "
    "bot version, refitted as results arrive; the range is the 95% interval."
)
#: A refit waits this long after the result that asked for it, so a burst costs one fit.
REFIT_DELAY_S = 2.0
_PENDING = "rating-refit-pending:{game}"


@dataclass(frozen=True)
class RefitReport:
    game: str
    matches: int
    versions: int
    iterations: int
    converged: bool
    read_ms: float
    fit_ms: float
    write_ms: float

    @property
    def total_ms(self) -> float:
        return self.read_ms + self.fit_ms + self.write_ms


_SEATS = (
    "SELECT {columns} FROM {seat} s JOIN {match} m ON m.id = s.match_id"
    " WHERE m.game = %s AND m.ranked AND m.rated AND m.status = %s AND s.placing IS NOT NULL"
)
_ROWS = "s.match_id, s.version_id, s.placing"
#: On PostgreSQL the seats come back as three arrays in one row: half the time of a row
#: per seat at 400,000 seats.
_ARRAYS = "array_agg(s.match_id), array_agg(s.version_id), array_agg(s.placing)"


def _read(game: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every rated seat of the game: (match id, version id, placing), one query, as arrays."""
    arrays = connection.vendor == "postgresql"
    query = _SEATS.format(
        columns=_ARRAYS if arrays else _ROWS, seat=sql.table(MatchSeat), match=sql.table(Match)
    )
    with connection.cursor() as cursor:
        cursor.execute(query, [game, Match.Status.DONE])
        if arrays:
            found = cursor.fetchone()
            if found is None or found[0] is None:
                empty = np.zeros(0, dtype=np.int64)
                return empty, empty, empty
            matches, versions, placings = (np.array(c, dtype=np.int64) for c in found)
            return matches, versions, placings
        rows = cursor.fetchall()
    if not rows:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    data = np.array(rows, dtype=np.int64)
    return data[:, 0], data[:, 1], data[:, 2]


def ratings_refit(*, game: str) -> RefitReport:
    """Fit every rated match of ``game`` and write each version's displayed rating.

    Runs in one transaction holding the game's ``RatingFit`` row, so two refits of a game
    take turns; the live TrueSkill columns are not touched, so recording goes on meanwhile.
    """
    started = time.perf_counter()
    with transaction.atomic():
        RatingFit.objects.get_or_create(game=game, defaults={"fitted": timezone.now()})
        RatingFit.objects.select_for_update().get(game=game)
        # History rows first: every match they belong to is then among the seats read next.
        pending = list(
            RatingHistory.objects.filter(game=game, rating__isnull=True).values_list(
                "pk", "version_id"
            )
        )
        matches, versions, placings = _read(game)
        ratings = list(
            # In id order: the writes below lock the rows in the order every rated match
            # locks them (arena.services.ratings), so a refit and a recording never deadlock.
            Rating.objects.filter(game=game)
            .order_by("pk")
            .values_list("pk", "version_id", "prior_mu", "rating", "rating_sigma")
        )
        read_ms = (time.perf_counter() - started) * 1000
        fit_started = time.perf_counter()
        index = {version: k for k, (_, version, *_rest) in enumerate(ratings)}
        results, fit = _fit(ratings, index, matches, versions, placings)
        fit_ms = (time.perf_counter() - fit_started) * 1000
        write_started = time.perf_counter()
        now = timezone.now()
        _write(ratings, fit, now)
        _write_history(pending, index, fit)
        count = len(np.unique(results.match))
        write_ms = (time.perf_counter() - write_started) * 1000
        RatingFit.objects.filter(game=game).update(
            fitted=now,
            matches=count,
            versions=len(ratings),
            iterations=fit.iterations,
            converged=fit.converged,
            duration_ms=read_ms + fit_ms + write_ms,
        )
        transaction.on_commit(lambda: ladder_changed(game))
    report = RefitReport(
        game, count, len(ratings), fit.iterations, fit.converged, read_ms, fit_ms, write_ms
    )
    log.info(
        "ratings refit game=%s matches=%d versions=%d iterations=%d ms=%.0f",
        game,
        count,
        len(ratings),
        fit.iterations,
        report.total_ms,
    )
    return report


def _fit(
    ratings: list[tuple],
    index: dict[int, int],
    matches: np.ndarray,
    versions: np.ndarray,
    placings: np.ndarray,
) -> tuple[whole_history.Results, whole_history.Fit]:
    """The seats of versions that have a rating, as the fit's results, and their fit."""
    known = np.array([version in index for version in versions.tolist()], dtype=bool)
    results = whole_history.Results(
        matches[known],
        np.array([index[v] for v in versions[known].tolist()], dtype=np.int64),
        placings[known],
    )
    fit = whole_history.fit_results(
        len(ratings),
        results,
        prior_mu=[row[2] for row in ratings],
        prior_sigma=[DEFAULT_SIGMA] * len(ratings),
        draw_probability=whole_history.tie_rate(results),
        # From the last fit (a version never fitted shows its prior): a few sweeps.
        start_mu=[row[3] for row in ratings],
        start_sigma=[row[4] for row in ratings],
    )
    return results, fit


def _write(ratings: list[tuple], fit: whole_history.Fit, now: datetime) -> None:
    """Every version's displayed rating, in one statement run for all rows."""
    rows = [
        Rating(pk=row[0], rating=float(mu), rating_sigma=float(sigma), fitted=now)
        for row, mu, sigma in zip(ratings, fit.mu, fit.sigma, strict=True)
    ]
    sql.update_rows(rows, ["rating", "rating_sigma", "fitted"])


def _write_history(
    pending: list[tuple[int, int]], index: dict[int, int], fit: whole_history.Fit
) -> None:
    """The displayed rating after each match recorded since the last fit, on its history
    rows (what the charts draw)."""
    rows = [
        RatingHistory(
            pk=pk,
            rating=float(fit.mu[index[version]]),
            rating_sigma=float(fit.sigma[index[version]]),
        )
        for pk, version in sorted(pending)
        if version in index
    ]
    sql.update_rows(rows, ["rating", "rating_sigma"])


def ratings_refit_soon(game: str) -> None:
    """Ask for a refit of ``game`` in :data:`REFIT_DELAY_S`, once the current transaction
    commits, unless one is already asked for: the first result of a burst queues it, the
    rest find it pending. The task clears the mark before it reads
    (:func:`ratings_refit_pending_clear`), so a result recorded while it fits asks for the
    next one; a mark whose task was lost expires, and the beat's due check refits anyway."""
    transaction.on_commit(lambda: _ask(game))


def _ask(game: str) -> None:
    if cache.add(_PENDING.format(game=game), 1, timeout=int(REFIT_DELAY_S) + 60):
        enqueue("refit_ratings", game, countdown=REFIT_DELAY_S)


def ratings_refit_pending_clear(game: str) -> None:
    """The refit asked for is starting: the next result asks for another."""
    cache.delete(_PENDING.format(game=game))


def ratings_refit_due() -> list[RefitReport]:
    """Refit every game whose last fit is behind its rated matches, or has a version the
    fit has not seen (a new upload shows its prior until then)."""
    reports = []
    fits = {fit.game: fit for fit in RatingFit.objects.all()}
    for game in GAMES:
        rated = (
            Match.objects.filter(game=game, ranked=True, rated=True, status=Match.Status.DONE)
            .values("pk")
            .count()
        )
        fitted = fits[game].matches if game in fits else 0
        unfitted = Rating.objects.filter(game=game, fitted__isnull=True).exists()
        if fitted != rated or unfitted:
            reports.append(ratings_refit(game=game))
    return reports
