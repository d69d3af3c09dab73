"""The ladder: active bots ranked by conservative score, paginated, cheap to read."""

from __future__ import annotations

import pytest

from tests.arena.factories import BotFactory, RatingFactory
from tests.arena.helpers import assert_error


def rate(name: str, mu: float, sigma: float = 1.0, **fields):
    bot = BotFactory(name=name, **{k: v for k, v in fields.items() if k == "is_active"})
    stats = {k: v for k, v in fields.items() if k != "is_active"}
    return RatingFactory(bot=bot, mu=mu, sigma=sigma, score=mu - 3 * sigma, **stats)


def test_it_ranks_by_conservative_score_not_by_mu(anon_client):
    rate("steady", mu=30, sigma=1)  # score 27
    rate("lucky", mu=35, sigma=4)  # score 23: higher mu, less certain
    rate("weak", mu=20, sigma=1)  # score 17

    rows = anon_client.get("/api/ladder/lie21/").json()["results"]

    assert [(row["rank"], row["bot"]["name"]) for row in rows] == [
        (1, "steady"),
        (2, "lucky"),
        (3, "weak"),
    ]


def test_it_shows_each_row_s_rating_and_record(anon_client):
    rating = rate("solo", mu=28, sigma=2, matches=10, wins=6, draws=1, losses=3)

    (row,) = anon_client.get("/api/ladder/lie21/").json()["results"]

    assert row == {
        "rank": 1,
        "bot": {"id": rating.bot_id, "name": "solo", "owner": rating.bot.owner.username},
        "mu": 28.0,
        "sigma": 2.0,
        "score": 22.0,
        "matches": 10,
        "wins": 6,
        "draws": 1,
        "losses": 3,
        "win_rate": 0.6,
    }


def test_a_bot_without_matches_has_no_win_rate(anon_client):
    rate("newcomer", mu=25, matches=0, wins=0, draws=0, losses=0)

    assert anon_client.get("/api/ladder/lie21/").json()["results"][0]["win_rate"] is None


def test_it_leaves_out_deactivated_bots(anon_client):
    rate("retired", mu=40, is_active=False)
    rate("playing", mu=20)

    rows = anon_client.get("/api/ladder/lie21/").json()["results"]

    assert [(row["rank"], row["bot"]["name"]) for row in rows] == [(1, "playing")]


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

    with django_assert_max_num_queries(2):  # the count and the page
        response = anon_client.get(f"/api/ladder/lie21/?page_size={rows}")

    assert len(response.json()["results"]) == rows
