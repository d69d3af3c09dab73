"""TrueSkill ratings: the package's published numbers, and each match applied exactly once."""

from __future__ import annotations

import pytest

from arena.models import Match, Rating, RatingHistory
from arena.services.ratings import match_rate, rating_apply

DEFAULT = (25.0, 25.0 / 3)


def test_a_win_from_default_ratings_gives_the_published_numbers():
    # trueskill.org: rate_1vs1(Rating(), Rating()) -> (29.396, 7.171), (20.604, 7.171)
    (mu_a, sigma_a), (mu_b, sigma_b) = rating_apply(DEFAULT, DEFAULT, "a")
    assert mu_a == pytest.approx(29.396, abs=1e-3)
    assert mu_b == pytest.approx(20.604, abs=1e-3)
    assert sigma_a == pytest.approx(7.171, abs=1e-3)
    assert sigma_b == pytest.approx(7.171, abs=1e-3)


def test_a_win_by_seat_b_mirrors_a_win_by_seat_a():
    (mu_a, _), (mu_b, _) = rating_apply(DEFAULT, DEFAULT, "b")
    assert (mu_a, mu_b) == pytest.approx((20.604, 29.396), abs=1e-3)


def test_a_draw_from_default_ratings_gives_the_published_numbers():
    # trueskill.org: rate_1vs1(Rating(), Rating(), drawn=True) -> (25.000, 6.458) each
    (mu_a, sigma_a), (mu_b, sigma_b) = rating_apply(DEFAULT, DEFAULT, "draw")
    assert (mu_a, mu_b) == pytest.approx((25.0, 25.0), abs=1e-3)
    assert (sigma_a, sigma_b) == pytest.approx((6.458, 6.458), abs=1e-3)


def test_an_upset_win_gives_the_published_numbers():
    # pypi.org/project/trueskill: rate_1vs1(Rating(25, 8.333), Rating(30, 8.333))
    # -> (30.768, 7.030), (24.232, 7.030)
    (mu_a, sigma_a), (mu_b, sigma_b) = rating_apply((25, 8.333), (30, 8.333), "a")
    assert (mu_a, mu_b) == pytest.approx((30.768, 24.232), abs=1e-3)
    assert (sigma_a, sigma_b) == pytest.approx((7.030, 7.030), abs=1e-3)


@pytest.fixture
def done_match(make_bot) -> Match:
    a, b = make_bot("alpha"), make_bot("beta")
    return Match.objects.create(
        version_a=a.active_version,
        version_b=b.active_version,
        bot_a=a,
        bot_b=b,
        seed=1,
        status="done",
        outcome="a",
        reason="match_points",
    )


@pytest.mark.django_db
def test_it_rates_a_match_once_and_counts_it(done_match):
    match_rate(match_id=done_match.pk)
    match_rate(match_id=done_match.pk)  # a redelivered rate_match
    winner = Rating.objects.get(bot=done_match.bot_a)
    loser = Rating.objects.get(bot=done_match.bot_b)
    assert winner.mu == pytest.approx(29.396, abs=1e-3)
    assert (winner.matches, winner.wins, winner.draws, winner.losses) == (1, 1, 0, 0)
    assert (loser.matches, loser.wins, loser.draws, loser.losses) == (1, 0, 0, 1)
    assert winner.score == pytest.approx(winner.mu - 3 * winner.sigma)
    assert RatingHistory.objects.filter(match=done_match).count() == 2
    history = RatingHistory.objects.get(match=done_match, bot=done_match.bot_b)
    assert (history.mu, history.sigma, history.score) == (loser.mu, loser.sigma, loser.score)
    done_match.refresh_from_db()
    assert done_match.rated


@pytest.mark.django_db
def test_a_draw_counts_as_a_draw_for_both(done_match):
    Match.objects.filter(pk=done_match.pk).update(outcome="draw")
    match_rate(match_id=done_match.pk)
    for rating in Rating.objects.filter(bot__in=[done_match.bot_a, done_match.bot_b]):
        assert (rating.matches, rating.draws) == (1, 1)
        assert rating.mu == pytest.approx(25.0, abs=1e-3)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("status", "outcome"),
    [("failed", ""), ("queued", ""), ("running", ""), ("done", "")],
)
def test_matches_without_a_result_are_not_rated(done_match, status, outcome):
    Match.objects.filter(pk=done_match.pk).update(status=status, outcome=outcome)
    match_rate(match_id=done_match.pk)
    assert not RatingHistory.objects.exists()
    assert set(Rating.objects.values_list("matches", flat=True)) == {0}
    done_match.refresh_from_db()
    assert not done_match.rated


@pytest.mark.django_db
def test_a_bot_without_a_rating_row_gets_one(done_match):
    Rating.objects.all().delete()
    match_rate(match_id=done_match.pk)
    assert Rating.objects.count() == 2
