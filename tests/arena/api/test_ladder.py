"""The ladder: each active bot's active version, ranked by its displayed rating (the
whole-history fit), paginated, cheap to read; one ladder per game, of any table size."""

from __future__ import annotations

import pytest

from arena.models import Rating
from arena.services.rating_fit import ratings_refit
from tests.arena.factories import BotFactory, BotVersionFactory, RatingFactory
from tests.arena.helpers import TEN_MATCHES, assert_error
from tests.arena.recorded import match_played


def rate(name: str, mu: float, sigma: float = 1.0, game: str = "lie21", **fields) -> Rating:
    bot = BotFactory(name=name, game=game, **{k: v for k, v in fields.items() if k == "is_active"})
    stats = {k: v for k, v in fields.items() if k != "is_active"}
    return RatingFactory(
        version=BotVersionFactory(bot=bot), mu=mu, sigma=sigma, score=mu - 3 * sigma, **stats
    )


def test_it_ranks_by_the_displayed_rating_not_by_the_live_one(anon_client):
    rate("steady", mu=30, sigma=1, rating=27, rating_sigma=1)
    rate("lucky", mu=35, sigma=4, rating=26, rating_sigma=3)  # the live mu got lucky
    rate("weak", mu=20, sigma=1, rating=20, rating_sigma=1)

    rows = anon_client.get("/api/ladder/lie21/").json()["results"]

    assert [(row["rank"], row["bot"]["name"]) for row in rows] == [
        (1, "steady"),
        (2, "lucky"),
        (3, "weak"),
    ]


def test_it_shows_each_row_s_version_rating_and_record(anon_client):
    rating = rate(
        "solo",
        mu=28,
        sigma=2,
        rating=27.5,
        rating_sigma=1.5,
        matches=10,
        wins=6,
        draws=1,
        losses=3,
        first_places=7,
        placing_sum=3,
        faults=1,
    )

    (row,) = anon_client.get("/api/ladder/lie21/").json()["results"]

    assert row == {
        "rank": 1,
        "bot": {"id": rating.bot_id, "name": "solo", "owner": rating.bot.owner.username},
        "version": 1,
        "paused": False,
        "rating": 27.5,
        "rating_sigma": 1.5,
        "rating_low": pytest.approx(27.5 - 1.96 * 1.5, abs=1e-3),
        "rating_high": pytest.approx(27.5 + 1.96 * 1.5, abs=1e-3),
        "provisional": False,
        "mu": 28.0,
        "sigma": 2.0,
        **TEN_MATCHES,
        "faults": 1,
        "fault_rate": 0.1,
    }


def test_a_bot_without_matches_has_no_rates(anon_client):
    rate("newcomer", mu=25, matches=0, wins=0, draws=0, losses=0, first_places=0, placing_sum=0)

    (row,) = anon_client.get("/api/ladder/lie21/").json()["results"]

    assert (row["win_rate"], row["mean_place"], row["fault_rate"]) == (None, None, None)


def test_it_shows_the_active_version_only(anon_client):
    """Ratings are per version: the ladder entry is the one of the version the bot plays."""
    old = rate("evolving", mu=40)
    new_version = BotVersionFactory(bot=old.bot, source=b"def act(o):\n    return 2\n")
    Rating.objects.filter(pk=old.pk).update(current=False)
    RatingFactory(version=new_version, mu=30, sigma=1, rating=29)

    rows = anon_client.get("/api/ladder/lie21/").json()["results"]

    assert [(row["bot"]["name"], row["version"], row["rating"]) for row in rows] == [
        ("evolving", 2, 29.0)
    ]


def test_it_leaves_out_deactivated_bots(anon_client):
    rate("retired", mu=40, is_active=False)
    rate("playing", mu=20)

    rows = anon_client.get("/api/ladder/lie21/").json()["results"]

    assert [(row["rank"], row["bot"]["name"]) for row in rows] == [(1, "playing")]


def test_each_game_has_its_own_ladder(anon_client):
    rate("bluffer", mu=30)
    rate("high", mu=20, game="highcard")

    lie21 = anon_client.get("/api/ladder/lie21/").json()["results"]
    highcard = anon_client.get("/api/ladder/highcard/").json()["results"]

    assert [row["bot"]["name"] for row in lie21] == ["bluffer"]
    assert [row["bot"]["name"] for row in highcard] == ["high"]


def test_a_three_seat_game_s_ladder_ranks_what_its_matches_rated(anon_client):
    """Real High Card matches of three bots: the ladder is what the placings made of it."""
    versions = [BotVersionFactory(bot=BotFactory(game="highcard")) for _ in range(3)]
    for version in versions:
        RatingFactory(version=version, mu=25.0, sigma=25 / 3, score=0.0, **dict.fromkeys(RECORD, 0))
    matches = [match_played(versions, seed=seed) for seed in (1, 2, 3)]
    ratings_refit(game="highcard")  # what the task queued after the recording does

    rows = anon_client.get("/api/ladder/highcard/").json()["results"]

    ratings = {r.bot_id: r for r in Rating.objects.filter(game="highcard", current=True)}
    assert [row["rank"] for row in rows] == [1, 2, 3]
    assert [row["rating"] for row in rows] == sorted(
        (rating.rating for rating in ratings.values()), reverse=True
    )
    assert len({row["rating"] for row in rows}) == 3, "the fit told them apart"
    assert all(row["matches"] == len(matches) for row in rows)
    assert sum(row["first_places"] for row in rows) >= len(matches)
    for row in rows:
        rating = ratings[row["bot"]["id"]]
        assert row["mean_place"] == pytest.approx(1 + rating.placing_sum / len(matches))
        assert row["wins"] + row["draws"] + row["losses"] == len(matches)


RECORD = ("matches", "wins", "draws", "losses", "first_places", "placing_sum")


def test_ranks_continue_across_pages(anon_client):
    for n in range(5):
        rate(f"bot{n}", mu=30 - n)

    page = anon_client.get("/api/ladder/lie21/?page=2&page_size=2").json()

    assert page["count"] == 5
    assert [(row["rank"], row["bot"]["name"]) for row in page["results"]] == [
        (3, "bot2"),
        (4, "bot3"),
    ]
    assert "page=3" in page["next"]


@pytest.mark.slow
def test_page_size_is_at_most_200(anon_client):
    for n in range(201):
        rate(f"b{n}", mu=n)

    assert len(anon_client.get("/api/ladder/lie21/?page_size=200").json()["results"]) == 200
    # Over the documented maximum is refused, not silently capped.
    assert_error(anon_client.get("/api/ladder/lie21/?page_size=1000"), 400, "invalid")


def test_it_answers_404_for_an_unknown_game(anon_client):
    body = assert_error(anon_client.get("/api/ladder/chess/"), 404, "unknown_game")

    assert "chess" in body["detail"]


def test_it_answers_404_past_the_last_page(anon_client):
    assert_error(anon_client.get("/api/ladder/lie21/?page=9"), 404, "not_found")


@pytest.mark.parametrize("rows", [5, 50])
def test_the_ladder_costs_the_same_queries_for_any_page_size(
    anon_client, django_assert_max_num_queries, rows
):
    for n in range(rows):
        rate(f"bot{n}", mu=n)

    with django_assert_max_num_queries(3):  # the count, the page's ranks, its rows
        response = anon_client.get(f"/api/ladder/lie21/?page_size={rows}")

    assert len(response.json()["results"]) == rows


@pytest.mark.parametrize("matches", [0, 10])
def test_the_written_out_row_is_the_declared_one(db, matches):
    from rest_framework import serializers

    from arena.api.ladder import LadderRowSerializer
    from arena.selectors.ladder import ladder_for_game, ladder_rows

    rate("other", mu=40)
    rating = rate("solo", mu=28, sigma=2, matches=matches, faults=min(matches, 2))
    BotVersionFactory._meta.model.objects.filter(pk=rating.version_id).update(
        paused_at="2026-01-01T00:00:00Z"
    )
    (row,) = [row for row in ladder_rows(game="lie21", offset=0, limit=5) if row["id"] == rating.pk]
    (model,) = [entry for entry in ladder_for_game(game="lie21") if entry.pk == rating.pk]
    serializer = LadderRowSerializer()

    written = serializer.to_representation(row)
    assert written == serializers.Serializer.to_representation(serializer, model)
    assert (written["rank"], written["paused"]) == (2, True)


def test_the_ladder_s_size_follows_its_changes(
    anon_client, owner, owner_client, django_capture_on_commit_callbacks
):
    """The count is kept under the ladder's version: a bot leaving it is counted at once."""
    mine = rate("mine", mu=30)
    mine.bot.owner = owner
    mine.bot.save()
    rate("theirs", mu=20)
    assert anon_client.get("/api/ladder/lie21/").json()["count"] == 2

    with django_capture_on_commit_callbacks(execute=True):  # the ladder changes on commit
        owner_client.post(f"/api/bots/{mine.bot_id}/deactivate/")

    body = anon_client.get("/api/ladder/lie21/").json()
    assert (body["count"], [row["bot"]["name"] for row in body["results"]]) == (1, ["theirs"])
