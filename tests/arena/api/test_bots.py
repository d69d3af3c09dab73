"""Bots: create, list and filter, describe, deactivate."""

from __future__ import annotations

import pytest

from arena.models import Bot
from tests.arena.factories import BotFactory, BotVersionFactory, RatingFactory, UserFactory
from tests.arena.helpers import TEN_MATCHES, assert_error

PUBLIC_FIELDS = {
    "id",
    "name",
    "owner",
    "game",
    "description",
    "is_active",
    "is_builtin",
    "active_version",
    "paused",
    "pause_reason",
    "created",
}


@pytest.mark.parametrize("game", ["lie21", "highcard"])
def test_it_creates_a_bot_of_the_chosen_game_for_the_caller(owner_client, owner, game):
    response = owner_client.post(
        "/api/bots/",
        {"name": "bluffer", "game": game, "description": "Lies a lot."},
        format="json",
    )

    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["name"], body["owner"], body["game"]) == ("bluffer", "alice", game)
    assert body["active_version"] is None
    assert body["ratings"] == []
    assert Bot.objects.get(pk=body["id"]).owner == owner


def test_a_bot_needs_its_game_named(owner_client):
    """No game is a default: the author chooses one."""
    body = assert_error(owner_client.post("/api/bots/", {"name": "x"}, format="json"), 400)

    assert body["fields"] == {"game": ["This field is required."]}


@pytest.mark.parametrize("game", ["chess", "LIE21", 21, ["lie21"]])
def test_an_unknown_game_is_refused_naming_the_hosted_ones(owner_client, game):
    response = owner_client.post("/api/bots/", {"name": "x", "game": game}, format="json")

    body = assert_error(response, 400, "unknown_game")
    assert list(body["fields"]) == ["game"]
    assert "hosted games: lie21" in body["detail"] and "highcard" in body["detail"]


def test_it_refuses_a_second_bot_of_the_same_name(owner_client, owner):
    BotFactory(owner=owner, name="bluffer")

    body = assert_error(
        owner_client.post("/api/bots/", {"name": "bluffer", "game": "lie21"}, format="json"),
        409,
        "name_taken",
    )

    assert "bluffer" in body["detail"]


def test_two_owners_may_use_the_same_name(owner_client):
    BotFactory(owner=UserFactory(username="carol"), name="bluffer")

    response = owner_client.post("/api/bots/", {"name": "bluffer", "game": "lie21"}, format="json")

    assert response.status_code == 201


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "lie21"}, "name"),
        ({"name": "has space", "game": "lie21"}, "name"),
        ({"name": "x" * 49, "game": "lie21"}, "name"),
        ({"name": "ok", "game": "chess"}, "game"),
        ({"name": "ok", "game": "lie21", "description": "d" * 2001}, "description"),
    ],
)
def test_it_refuses_invalid_fields_naming_them(owner_client, body, field):
    response = owner_client.post("/api/bots/", body, format="json")

    error = assert_error(response, 400)
    assert field in error["fields"]
    assert error["detail"].startswith(f"{field}: ")


def test_it_refuses_malformed_json(owner_client):
    response = owner_client.post("/api/bots/", "{nope", content_type="application/json")

    assert_error(response, 400, "parse_error")


def test_it_lists_public_fields_only(anon_client):
    BotVersionFactory(bot=BotFactory(name="alpha"))

    (row,) = anon_client.get("/api/bots/").json()["results"]

    assert set(row) == PUBLIC_FIELDS
    assert row["active_version"] == 1


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("owner=alice", ["alpha", "beta"]),
        ("search=ALP", ["alpha"]),
        ("is_active=false", ["beta"]),
        ("game=lie21&owner=carol", ["gamma"]),
        ("game=highcard", ["delta"]),
        ("game=lie21", ["alpha", "beta", "gamma"]),
        ("owner=nobody", []),
    ],
)
def test_it_filters_bots(anon_client, owner, query, names):
    BotFactory(owner=owner, name="alpha")
    BotFactory(owner=owner, name="beta", is_active=False)
    BotFactory(owner=UserFactory(username="carol"), name="gamma")
    BotFactory(owner=UserFactory(username="dave"), name="delta", game="highcard")

    rows = anon_client.get(f"/api/bots/?{query}").json()["results"]

    assert [row["name"] for row in rows] == names


def test_it_refuses_an_unknown_game_filter(anon_client):
    refused = assert_error(anon_client.get("/api/bots/?game=chess"), 400, "unknown_game")
    assert "game" in refused["fields"]


def test_it_shows_a_bot_with_each_version_s_rating(anon_client):
    old = RatingFactory(mu=30, sigma=2, score=24, rating=29, rating_sigma=2, current=False)
    bot = old.bot
    BotVersionFactory(bot=bot, status="invalid", source=b"oops")  # never rated: not listed
    new = RatingFactory(
        version=BotVersionFactory(bot=bot, source=b"def act(o):\n    return 3\n"),
        mu=30,
        sigma=25 / 3,
        score=5,
        rating=29,
        rating_sigma=25 / 3,
        **dict.fromkeys(("matches", "wins", "draws", "losses", "first_places", "placing_sum"), 0),
    )

    body = anon_client.get(f"/api/bots/{bot.pk}/").json()

    assert body["active_version"] == new.version.number == 3
    assert body["ratings"] == [
        {
            "version": 3,
            "current": True,
            "rating": 29.0,
            "rating_sigma": pytest.approx(25 / 3),
            "rating_low": pytest.approx(29 - 1.96 * 25 / 3, abs=1e-3),
            "rating_high": pytest.approx(29 + 1.96 * 25 / 3, abs=1e-3),
            "provisional": True,
            "mu": 30.0,
            "sigma": pytest.approx(25 / 3),
            "matches": 0,
            "wins": 0,
            "draws": 0,
            "losses": 0,
            "first_places": 0,
            "mean_place": None,
            "faults": 0,
            "fault_rate": None,
            "win_rate": None,
        },
        {
            "version": 1,
            "current": False,
            "rating": 29.0,
            "rating_sigma": 2.0,
            "rating_low": pytest.approx(29 - 1.96 * 2, abs=1e-3),
            "rating_high": pytest.approx(29 + 1.96 * 2, abs=1e-3),
            "provisional": False,
            "mu": 30.0,
            "sigma": 2.0,
            **TEN_MATCHES,
            "faults": 0,
            "fault_rate": 0.0,
        },
    ]


def test_the_owner_edits_the_description(owner_client, owner):
    bot = BotFactory(owner=owner)

    response = owner_client.patch(f"/api/bots/{bot.pk}/", {"description": "New."}, format="json")

    assert response.json()["description"] == "New."
    bot.refresh_from_db()
    assert bot.description == "New."


def test_others_cannot_edit_the_description(other_client, owner):
    bot = BotFactory(owner=owner, description="Mine.")

    assert_error(
        other_client.patch(f"/api/bots/{bot.pk}/", {"description": "Hacked."}, format="json"),
        403,
        "permission_denied",
    )
    bot.refresh_from_db()
    assert bot.description == "Mine."


def test_the_owner_deactivates_a_bot_and_it_leaves_the_ladder(owner_client, anon_client, owner):
    rating = RatingFactory(version__bot=BotFactory(owner=owner))

    first = owner_client.post(f"/api/bots/{rating.bot_id}/deactivate/")
    again = owner_client.post(f"/api/bots/{rating.bot_id}/deactivate/")

    assert first.status_code == again.status_code == 200
    assert again.json()["is_active"] is False
    assert anon_client.get("/api/ladder/lie21/").json()["results"] == []


def test_others_cannot_deactivate_a_bot(other_client, owner):
    bot = BotFactory(owner=owner)

    assert_error(other_client.post(f"/api/bots/{bot.pk}/deactivate/"), 403)
    bot.refresh_from_db()
    assert bot.is_active


def test_it_answers_404_for_a_missing_bot(anon_client):
    assert_error(anon_client.get("/api/bots/31337/"), 404, "not_found")


@pytest.mark.parametrize("rows", [5, 50])
def test_the_bot_list_costs_the_same_queries_for_any_page_size(
    anon_client, django_assert_max_num_queries, rows
):
    for _ in range(rows):
        BotVersionFactory()

    with django_assert_max_num_queries(2):
        response = anon_client.get(f"/api/bots/?page_size={rows}")

    assert len(response.json()["results"]) == rows
