"""TrueSkill ratings: one per bot version, updated once per ranked match, for any table size.

A match's seats are rated together with ``trueskill.rate`` and the seats' placings as ranks
(ties allowed), in one ``trueskill.TrueSkill`` environment per game whose draw probability
is the game's measured tie rate (``Game.draw_probability``).

Several workers finish matches at once, and two of those matches may share a version. Each
update reads every seat's rating and writes them back, so it runs in a transaction holding
row locks: first the match (a second ``rate_match`` for it waits, then sees ``rated``),
then the ratings in id order (two matches sharing versions lock them in the same order and
cannot deadlock). The unique (match, version) constraint on RatingHistory is a second
guard: a match can never be applied twice.

The update itself (the game's environment, the new ratings of a table, the chance one
rating places ahead of another) is Django-free: ``arena.algorithms.live_ratings``.

A new version starts from its bot's previous version's mu with sigma reset to the
environment's default: the ladder learns a rewrite afresh, but starts it where its author
was. Its displayed rating (the whole-history fit, ``arena.services.rating_fit``) starts the
same way, from the previous version's displayed rating (``prior_mu``).

These live ratings are what pairing reads (``arena.services.ladder``) and what each match's
rating change shows; every rated match also asks for a refit of the displayed ratings
(:func:`arena.services.rating_fit.ratings_refit_soon`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from arena.algorithms.live_ratings import environment, rate_table
from arena.freshness import ladder_changed
from arena.models import BotVersion, Match, MatchSeat, Rating, RatingHistory
from arena.models.matches import SEAT_RATING_FIELDS
from arena.models.ratings import LIVE_RATING_FIELDS, RECORD_FIELDS
from arena.services import sql
from arena.services.rating_fit import ratings_refit_soon

__all__ = [
    "SEAT_RATING_FIELDS",
    "match_rate",
    "match_rate_locked",
    "rating_activate",
    "rating_for_version",
]

log = logging.getLogger(__name__)


def rating_for_version(*, version: BotVersion) -> Rating:
    """The version's rating, created on first use from its bot's previous version's mu."""
    rating = Rating.objects.filter(version=version).first()
    if rating is not None:
        return rating
    env = environment(version.bot.game)
    previous = (
        Rating.objects.filter(bot_id=version.bot_id, version__number__lt=version.number)
        .order_by("-version__number")
        .first()
    )
    mu = previous.mu if previous is not None else env.mu
    prior = previous.rating if previous is not None else env.mu
    rating, _ = Rating.objects.get_or_create(
        version=version,
        defaults={
            "bot_id": version.bot_id,
            "game": version.bot.game,
            "mu": mu,
            "sigma": env.sigma,
            "score": mu - 3 * env.sigma,
            "prior_mu": prior,
            "rating": prior,
            "rating_sigma": env.sigma,
        },
    )
    return rating


def rating_activate(*, version: BotVersion) -> Rating:
    """Make the version's rating its bot's ladder entry (and no other version's)."""
    with transaction.atomic():
        rating = rating_for_version(version=version)
        Rating.objects.filter(bot_id=version.bot_id, current=True).exclude(pk=rating.pk).update(
            current=False
        )
        if not rating.current:
            Rating.objects.filter(pk=rating.pk).update(current=True)
            rating.current = True
        game = version.bot.game
        transaction.on_commit(lambda: ladder_changed(game))
    return rating


#: What rating a match changes on a version's Rating row.
RATING_FIELDS = [*LIVE_RATING_FIELDS, *RECORD_FIELDS, "updated"]


def _count(rating: Rating, seat: MatchSeat, firsts: int) -> None:
    rating.matches += 1
    placing = seat.placing or 0
    rating.placing_sum += placing
    if placing == 0:
        rating.first_places += 1
        if firsts == 1:
            rating.wins += 1
        else:
            rating.draws += 1
    else:
        rating.losses += 1
    rating.faults += bool(seat.fault)


def _lock_ratings(seats: Sequence[MatchSeat]) -> dict[int, Rating]:
    """Every seat's version rating, locked in id order; created first where missing."""
    versions = [seat.version_id for seat in seats]
    by_version = _locked(versions)
    if len(by_version) < len(set(versions)):
        for seat in seats:
            if seat.version_id not in by_version:
                rating_for_version(version=seat.version)
        by_version = _locked(versions)
    return by_version


_RATINGS = 'SELECT * FROM {rating} WHERE "version_id" IN ({marks}) ORDER BY "id"'


def _locked(versions: Sequence[int]) -> dict[int, Rating]:
    """The ratings of these versions, read and locked in id order (``FOR UPDATE`` where the
    database has row locks; SQLite's one writer at a time needs none): plain SQL, since
    every rated match runs it (``arena.services.sql``)."""
    marks = ", ".join(["%s"] * len(versions))
    query = _RATINGS.format(rating=sql.table(Rating), marks=marks)
    if connection.features.has_select_for_update:
        query += " FOR UPDATE"
    return {rating.version_id: rating for rating in Rating.objects.raw(query, versions)}


def match_rate(*, match_id: int) -> None:
    """Apply a recorded match to its seats' ratings, exactly once.

    Matches that are not ``done`` (queued, running, failed), not ranked, or without
    placings are not rated; a second call for the same match does nothing.
    """
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or match.rated or match.status != Match.Status.DONE:
            return
        match_rate_locked(match=match)


def match_rate_locked(
    *, match: Match, mark_rated: bool = True, seats: Sequence[MatchSeat] | None = None
) -> None:
    """Rate ``match``, whose row the caller has locked in its open transaction.

    ``match_play`` calls this inside the transaction that records the match (it holds the
    row through its claim and has set ``rated`` already), so a match is recorded and rated
    in one commit. It passes the ``seats`` it is recording, placings set: they are rated
    as they are and not written here (the recording writes each seat once, with its
    rating fields); without ``seats`` they are read and written here.
    """
    if not match.ranked:  # a challenge or a version comparison: nothing to rate
        if mark_rated:
            Match.objects.filter(pk=match.pk).update(rated=True)
        match.rated = True
        return
    write_seats = seats is None
    if seats is None:
        seats = list(MatchSeat.objects.filter(match=match).select_related("version__bot"))
    seats = sorted(seats, key=lambda seat: seat.seat)
    placings = [seat.placing for seat in seats if seat.placing is not None]
    if not seats or len(placings) < len(seats):
        return  # no result to rate
    by_version = _lock_ratings(seats)
    ratings = [by_version[seat.version_id] for seat in seats]
    history = _apply(match, seats, ratings, placings)
    now = timezone.now()
    for rating in ratings:
        rating.updated = now
    # Every rated match runs these: plain SQL (arena.services.sql).
    sql.update_rows(ratings, RATING_FIELDS)
    if write_seats:
        sql.update_rows(seats, SEAT_RATING_FIELDS)
    sql.insert(RatingHistory, [{**row, "created": now} for row in history])
    if mark_rated:
        Match.objects.filter(pk=match.pk).update(rated=True)
    match.rated = True
    # After the commit, so no reader can cache the old ladder under the new version.
    game = match.game
    transaction.on_commit(lambda: ladder_changed(game))
    ratings_refit_soon(game)
    scores = zip(seats, ratings, strict=True)
    log.info("match=%s rated %s", match.pk, " ".join(_score_note(*pair) for pair in scores))


def _apply(
    match: Match, seats: list[MatchSeat], ratings: list[Rating], placings: list[int]
) -> list[dict[str, Any]]:
    """Rate the table in memory: each seat's before and after, each rating's new estimate
    and record. Returns the history rows to insert, so the caller writes everything in a
    few statements (every rated match runs this)."""
    new = rate_table(match.game, [(r.mu, r.sigma) for r in ratings], placings)
    firsts = placings.count(0)
    history = []
    for seat, rating, (mu, sigma) in zip(seats, ratings, new, strict=True):
        seat.mu_before, seat.sigma_before = rating.mu, rating.sigma
        seat.mu_after, seat.sigma_after = mu, sigma
        rating.mu, rating.sigma, rating.score = mu, sigma, mu - 3 * sigma
        _count(rating, seat, firsts)
        history.append(
            {
                "version_id": seat.version_id,
                "bot_id": seat.bot_id,
                "game": match.game,
                "match_id": match.pk,
                "mu": mu,
                "sigma": sigma,
                "score": rating.score,
            }
        )
    return history


def _score_note(seat: MatchSeat, rating: Rating) -> str:
    """One seat's new score for the log line (``v<version>:<score>``)."""
    return f"v{seat.version_id}:{rating.score:.2f}"
