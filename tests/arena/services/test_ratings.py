"""TrueSkill ratings: the package's published numbers, any table size, ties, and each match
applied exactly once to the versions that played it."""

from __future__ import annotations

import pytest
import trueskill

from arena.algorithms.live_ratings import environment, rate_ranks, win_probability
from arena.models import Match, MatchSeat, Rating, RatingHistory
from arena.services.ratings import match_rate, rating_activate, rating_for_version
from tests.arena.recorded import match_queued
from tests.workers.fixtures import version_add

DEFAULT = (25.0, 25.0 / 3)
PACKAGE = trueskill.TrueSkill()  # the package's default environment (10 % draws)


def test_a_win_from_default_ratings_gives_the_published_numbers():
    # trueskill.org: rate_1vs1(Rating(), Rating()) -> (29.396, 7.171), (20.604, 7.171)
    (mu_a, sigma_a), (mu_b, sigma_b) = rate_ranks(PACKAGE, [DEFAULT, DEFAULT], [0, 1])
    assert (mu_a, mu_b) == pytest.approx((29.396, 20.604), abs=1e-3)
    assert (sigma_a, sigma_b) == pytest.approx((7.171, 7.171), abs=1e-3)


def test_a_win_by_seat_1_mirrors_a_win_by_seat_0():
    (mu_a, _), (mu_b, _) = rate_ranks(PACKAGE, [DEFAULT, DEFAULT], [1, 0])
    assert (mu_a, mu_b) == pytest.approx((20.604, 29.396), abs=1e-3)


def test_a_draw_from_default_ratings_gives_the_published_numbers():
    # trueskill.org: rate_1vs1(Rating(), Rating(), drawn=True) -> (25.000, 6.458) each
    (mu_a, sigma_a), (mu_b, sigma_b) = rate_ranks(PACKAGE, [DEFAULT, DEFAULT], [0, 0])
    assert (mu_a, mu_b) == pytest.approx((25.0, 25.0), abs=1e-3)
    assert (sigma_a, sigma_b) == pytest.approx((6.458, 6.458), abs=1e-3)


def test_an_upset_win_gives_the_published_numbers():
    # pypi.org/project/trueskill: rate_1vs1(Rating(25, 8.333), Rating(30, 8.333))
    # -> (30.768, 7.030), (24.232, 7.030)
    (mu_a, sigma_a), (mu_b, sigma_b) = rate_ranks(PACKAGE, [(25, 8.333), (30, 8.333)], [0, 1])
    assert (mu_a, mu_b) == pytest.approx((30.768, 24.232), abs=1e-3)
    assert (sigma_a, sigma_b) == pytest.approx((7.030, 7.030), abs=1e-3)


def test_a_four_seat_table_with_a_tie_matches_the_package_free_for_all():
    ratings = [DEFAULT] * 4
    ours = rate_ranks(PACKAGE, ratings, [0, 1, 1, 3])
    groups = [(PACKAGE.create_rating(*r),) for r in ratings]
    theirs = [(g[0].mu, g[0].sigma) for g in PACKAGE.rate(groups, ranks=[0, 1, 1, 3])]
    assert [x for pair in ours for x in pair] == pytest.approx([x for p in theirs for x in p])
    assert ours[0][0] > ours[1][0] > ours[3][0] and ours[0][0] > ours[2][0] > ours[3][0]
    assert ours[1][0] == pytest.approx(ours[2][0], abs=0.05), "tied seats move alike"


def test_each_game_has_its_own_environment_and_win_probabilities_are_symmetric():
    env = environment("lie21")
    assert env is environment("lie21") and env.mu == 25.0
    assert win_probability("lie21", (30, 2), (25, 2)) > 0.5
    assert win_probability("lie21", (30, 2), (25, 2)) + win_probability(
        "lie21", (25, 2), (30, 2)
    ) == pytest.approx(1.0)


@pytest.fixture
def done_match(make_bot) -> Match:
    a, b = make_bot("alpha"), make_bot("beta")
    match = match_queued([a.active_version, b.active_version], status="done", reason="x")
    MatchSeat.objects.filter(match=match, seat=0).update(placing=0, score=4)
    MatchSeat.objects.filter(match=match, seat=1).update(placing=1, score=1)
    return match


@pytest.mark.django_db
def test_it_rates_a_match_once_and_counts_it_for_each_version(done_match):
    match_rate(match_id=done_match.pk)
    match_rate(match_id=done_match.pk)  # a redelivered rate_match
    first, second = done_match.seats.order_by("seat")
    winner = Rating.objects.get(version=first.version)
    loser = Rating.objects.get(version=second.version)
    env = environment("lie21")
    expected = rate_ranks(env, [DEFAULT, DEFAULT], [0, 1])
    assert (winner.mu, winner.sigma) == pytest.approx(expected[0])
    assert (winner.matches, winner.wins, winner.draws, winner.losses) == (1, 1, 0, 0)
    assert (loser.matches, loser.wins, loser.draws, loser.losses) == (1, 0, 0, 1)
    assert (winner.first_places, loser.placing_sum) == (1, 1)
    assert winner.score == pytest.approx(winner.mu - 3 * winner.sigma)
    assert RatingHistory.objects.filter(match=done_match).count() == 2
    history = RatingHistory.objects.get(match=done_match, version=second.version)
    assert (history.mu, history.sigma, history.score) == (loser.mu, loser.sigma, loser.score)
    first.refresh_from_db()
    assert (first.mu_before, first.sigma_before) == pytest.approx(DEFAULT)
    assert (first.mu_after, first.sigma_after) == (winner.mu, winner.sigma)
    assert first.score_delta == pytest.approx(winner.score - (25 - 25))
    done_match.refresh_from_db()
    assert done_match.rated


@pytest.mark.django_db
def test_a_shared_first_place_counts_as_a_draw_for_both(done_match):
    MatchSeat.objects.filter(match=done_match).update(placing=0)
    match_rate(match_id=done_match.pk)
    for rating in Rating.objects.filter(version__seats__match=done_match):
        assert (rating.matches, rating.draws, rating.first_places) == (1, 1, 1)
        assert rating.mu == pytest.approx(25.0, abs=1e-3)


@pytest.mark.django_db
def test_a_fault_is_counted_against_the_version_that_made_it(done_match):
    MatchSeat.objects.filter(match=done_match, seat=1).update(fault="crash")
    match_rate(match_id=done_match.pk)
    faulted = Rating.objects.get(version__seats__match=done_match, version__seats__seat=1)
    assert (faulted.faults, faulted.losses) == (1, 1)


@pytest.mark.django_db
@pytest.mark.parametrize("status", ["failed", "queued", "running"])
def test_matches_without_a_result_are_not_rated(done_match, status):
    Match.objects.filter(pk=done_match.pk).update(status=status)
    match_rate(match_id=done_match.pk)
    assert not RatingHistory.objects.exists()
    assert set(Rating.objects.values_list("matches", flat=True)) == {0}
    done_match.refresh_from_db()
    assert not done_match.rated


@pytest.mark.django_db
def test_unranked_matches_change_no_rating(done_match):
    Match.objects.filter(pk=done_match.pk).update(ranked=False)
    match_rate(match_id=done_match.pk)
    assert not RatingHistory.objects.exists()
    done_match.refresh_from_db()
    assert done_match.rated, "nothing left to rate"


@pytest.mark.django_db
def test_a_version_without_a_rating_row_gets_one(done_match):
    Rating.objects.all().delete()
    match_rate(match_id=done_match.pk)
    assert Rating.objects.count() == 2


@pytest.mark.django_db
def test_a_new_version_starts_from_the_old_mu_with_sigma_reset_and_keeps_the_old_record(
    make_bot, done_match
):
    match_rate(match_id=done_match.pk)
    seat = done_match.seats.get(seat=0)
    old = Rating.objects.get(version=seat.version)
    bot = seat.bot
    newer = version_add(bot, "def act(o):\n    return o['legal_actions'][0]\n", status="valid")
    fresh = rating_for_version(version=newer)
    assert fresh.mu == pytest.approx(old.mu) and fresh.sigma == pytest.approx(25 / 3)
    assert (fresh.matches, fresh.current) == (0, True)
    old.refresh_from_db()
    assert (old.matches, old.wins, old.current) == (1, 1, False), "the old record stays"
    rating_activate(version=seat.version)
    assert list(Rating.objects.filter(bot=bot, current=True)) == [old]
