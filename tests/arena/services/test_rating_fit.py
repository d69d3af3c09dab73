"""The displayed ratings: refitted over every rated match off the request path, stored on the
rows the pages read, and asked for (once per burst) by every rated match."""

from __future__ import annotations

import numpy as np
import pytest
from django.core.cache import cache

from arena.algorithms import whole_history as wh
from arena.models import Rating, RatingFit, RatingHistory
from arena.services import rating_fit
from arena.services.rating_fit import ratings_refit, ratings_refit_due, ratings_refit_soon
from arena.services.ratings import rating_activate, rating_for_version
from tests.arena.factories import BotFactory, BotVersionFactory
from tests.arena.recorded import match_played, match_queued
from tests.workers.fixtures import version_add

pytestmark = pytest.mark.django_db


@pytest.fixture
def field():
    """Three High Card versions on the ladder (a three-seat game: tables of any size)."""
    versions = [BotVersionFactory(bot=BotFactory(game="highcard")) for _ in range(3)]
    for version in versions:
        rating_activate(version=version)
    return versions


def test_a_refit_stores_the_fit_of_every_rated_match(field):
    played = [match_played(field, seed=seed) for seed in range(1, 7)]
    report = ratings_refit(game="highcard")

    rows = {r.version_id: r for r in Rating.objects.filter(game="highcard")}
    # The same numbers as the algorithm on the same matches, in seat order.
    tables = [list(m.seats.order_by("seat").values_list("version_id", flat=True)) for m in played]
    placings = [list(m.seats.order_by("seat").values_list("placing", flat=True)) for m in played]
    ids = [version.pk for version in field]
    fit = wh.fit_history(
        3,
        [[ids.index(v) for v in table] for table in tables],
        placings,
        prior_mu=[wh.MU] * 3,
        prior_sigma=[wh.SIGMA] * 3,
        draw_probability=wh.tie_rate(wh.Results.from_tables(tables, placings)),
        tolerance=1e-6,
    )
    for k, version_id in enumerate(ids):
        assert rows[version_id].rating == pytest.approx(fit.mu[k], abs=2e-3)
        assert rows[version_id].rating_sigma == pytest.approx(fit.sigma[k], abs=2e-3)
        assert rows[version_id].fitted is not None
    assert (report.matches, report.versions) == (6, 3)
    saved = RatingFit.objects.get(game="highcard")
    assert (saved.matches, saved.versions, saved.converged) == (6, 3, True)
    # Every history row has the displayed rating now: what the charts draw.
    assert not RatingHistory.objects.filter(rating__isnull=True).exists()


def test_unrated_and_unfinished_matches_are_left_out(field):
    match_played(field, seed=1)
    match_played(field, seed=2, ranked=False)  # a challenge or a comparison
    match_queued(field, seed=3)  # not played yet
    assert ratings_refit(game="highcard").matches == 1


def test_without_matches_every_version_shows_its_prior(field):
    ratings_refit(game="highcard")
    for rating in Rating.objects.filter(game="highcard"):
        assert (rating.rating, rating.rating_sigma) == pytest.approx((25.0, 25 / 3))
        assert rating.provisional


def test_a_new_version_starts_from_the_previous_displayed_rating(owner):
    bot = BotFactory(owner=owner, game="highcard")
    first = BotVersionFactory(bot=bot)
    Rating.objects.filter(pk=rating_for_version(version=first).pk).update(rating=31.5, mu=29.0)
    second = version_add(bot, "def act(o):\n    return {}\n")
    rating = rating_for_version(version=second)
    assert (rating.prior_mu, rating.rating, rating.rating_sigma) == (31.5, 31.5, 25 / 3)
    assert rating.mu == 29.0, "the live rating starts from the live one"


def test_a_rated_match_asks_for_one_refit_per_burst(
    field, monkeypatch, django_capture_on_commit_callbacks
):
    asked = []
    monkeypatch.setattr(rating_fit, "enqueue", lambda *args, **kw: asked.append((args, kw)))
    cache.delete("rating-refit-pending:highcard")
    with django_capture_on_commit_callbacks(execute=True):
        match_played(field, seed=1)
        match_played(field, seed=2)
    assert asked == [(("refit_ratings", "highcard"), {"countdown": rating_fit.REFIT_DELAY_S})]
    rating_fit.ratings_refit_pending_clear("highcard")  # the task starts: the next one asks
    with django_capture_on_commit_callbacks(execute=True):
        ratings_refit_soon("highcard")
    assert len(asked) == 2


def test_the_refit_task_runs_after_the_recording(field, run_on_commit):
    """End to end (tasks eager): recording a match leads to the displayed rating moving."""
    cache.delete("rating-refit-pending:highcard")
    with run_on_commit():
        match = match_played(field, seed=3)
    winner = match.seats.get(placing=0).version_id
    loser = match.seats.order_by("-placing").first().version_id
    rows = {r.version_id: r for r in Rating.objects.filter(game="highcard")}
    assert rows[winner].rating > 25 > rows[loser].rating
    assert RatingFit.objects.get(game="highcard").matches == 1


def test_the_periodic_check_refits_only_games_that_are_behind(field):
    match_played(field, seed=1)
    assert [report.game for report in ratings_refit_due()] == ["highcard"]  # no other has any
    assert [r.game for r in ratings_refit_due()] == []  # nothing new since
    match_played(field, seed=2)
    assert [r.game for r in ratings_refit_due()] == ["highcard"]


def test_the_ladder_ranks_by_the_fit_and_not_by_the_live_rating(field):
    """The live update is order-dependent; the fit is not. A version can lead one and not
    the other: the ladder follows the fit."""
    for seed in range(1, 9):
        match_played(field, seed=seed)
    ratings_refit(game="highcard")
    from arena.selectors.ladder import ladder_for_game

    order = [r.version_id for r in ladder_for_game(game="highcard")]
    by_fit = sorted(Rating.objects.filter(game="highcard"), key=lambda r: (-r.rating, r.pk))
    assert order == [r.version_id for r in by_fit]
    assert np.all(np.diff([r.rating for r in by_fit]) <= 0)
