"""TrueSkill ratings: one per bot and game, updated once per finished match.

Several workers finish matches at once, and two of those matches may share a bot. Each
update reads both ratings and writes both back, so it runs in a transaction holding row
locks: first the match (a second ``rate_match`` for it waits, then sees ``rated``), then
both Rating rows in id order (two matches sharing bots lock them in the same order and
cannot deadlock). The unique (match, bot) constraint on RatingHistory is a second guard: a
match can never be applied twice.
"""

from __future__ import annotations

import logging

import trueskill
from django.db import transaction

from arena.models import Match, Rating, RatingHistory
from arena.services.freshness import ladder_changed

__all__ = ["match_rate", "match_rate_locked", "rating_apply", "rating_get_or_create"]

log = logging.getLogger(__name__)

# The package's default environment: mu 25, sigma 25/3, beta 25/6, tau 25/300, draws 10 %.
_ENV = trueskill.TrueSkill()


def rating_get_or_create(*, bot_id: int, game: str) -> Rating:
    rating, created = Rating.objects.get_or_create(bot_id=bot_id, game=game)
    if created:
        transaction.on_commit(lambda: ladder_changed(game))
    return rating


def rating_apply(
    a: tuple[float, float], b: tuple[float, float], outcome: str
) -> tuple[tuple[float, float], tuple[float, float]]:
    """New (mu, sigma) of seat A and seat B after a match with ``outcome`` a / b / draw.

    >>> (mu_a, sigma_a), (mu_b, sigma_b) = rating_apply((25, 25 / 3), (25, 25 / 3), "a")
    >>> round(mu_a, 3), round(mu_b, 3), round(sigma_a, 3)
    (29.396, 20.604, 7.171)
    """
    ra, rb = _ENV.create_rating(*a), _ENV.create_rating(*b)
    if outcome == Match.Outcome.B:
        new_b, new_a = trueskill.rate_1vs1(rb, ra, env=_ENV)
    else:
        drawn = outcome == Match.Outcome.DRAW
        new_a, new_b = trueskill.rate_1vs1(ra, rb, drawn=drawn, env=_ENV)
    return (new_a.mu, new_a.sigma), (new_b.mu, new_b.sigma)


def _count(rating: Rating, outcome: str, seat: str) -> None:
    rating.matches += 1
    if outcome == Match.Outcome.DRAW:
        rating.draws += 1
    elif outcome == seat:
        rating.wins += 1
    else:
        rating.losses += 1


#: What rating a match changes on a bot's Rating row.
RATING_FIELDS = ["mu", "sigma", "score", "matches", "wins", "draws", "losses", "updated"]


def _lock_ratings(match: Match) -> dict[int, Rating]:
    """Both bots' ratings, locked in id order; created first if a bot has none yet."""
    bots = (match.bot_a_id, match.bot_b_id)
    locked = Rating.objects.select_for_update().filter(bot_id__in=bots, game=match.game)
    by_bot = {rating.bot_id: rating for rating in locked.order_by("id")}
    if len(by_bot) < 2:
        for bot_id in bots:
            rating_get_or_create(bot_id=bot_id, game=match.game)
        by_bot = {rating.bot_id: rating for rating in locked.order_by("id")}
    return by_bot


def match_rate(*, match_id: int) -> None:
    """Apply a recorded match to both bots' ratings, exactly once.

    Matches that are not ``done`` (queued, running, failed) or carry no outcome are not
    rated; a second call for the same match does nothing.
    """
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or match.rated or match.status != Match.Status.DONE:
            return
        match_rate_locked(match=match)


def match_rate_locked(*, match: Match, mark_rated: bool = True) -> None:
    """Rate ``match``, whose row the caller has locked in its open transaction.

    ``match_play`` calls this inside the transaction that records the match (it holds the
    row through its claim and has set ``rated`` already), so a match is recorded and rated
    in one commit.
    """
    if match.outcome not in Match.Outcome.values:
        return
    by_bot = _lock_ratings(match)
    ra, rb = by_bot[match.bot_a_id], by_bot[match.bot_b_id]
    new_a, new_b = rating_apply((ra.mu, ra.sigma), (rb.mu, rb.sigma), match.outcome)
    history = []
    for rating, (mu, sigma), seat in ((ra, new_a, "a"), (rb, new_b, "b")):
        rating.mu, rating.sigma = mu, sigma
        rating.score = mu - 3 * sigma
        _count(rating, match.outcome, seat)
        history.append(
            RatingHistory(
                bot_id=rating.bot_id,
                game=match.game,
                match_id=match.pk,
                mu=mu,
                sigma=sigma,
                score=rating.score,
            )
        )
    # Two plain UPDATEs: bulk_update's CASE expressions cost several times more to build.
    for rating in (ra, rb):
        rating.save(update_fields=RATING_FIELDS)
    RatingHistory.objects.bulk_create(history)
    if mark_rated:
        Match.objects.filter(pk=match.pk).update(rated=True)
    match.rated = True
    # After the commit, so no reader can cache the old ladder under the new version.
    transaction.on_commit(lambda: ladder_changed(match.game))
    log.info(
        "match=%s rated a=%s:%.2f b=%s:%.2f",
        match.pk,
        match.bot_a_id,
        new_a[0] - 3 * new_a[1],
        match.bot_b_id,
        new_b[0] - 3 * new_b[1],
    )
