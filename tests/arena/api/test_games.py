"""The games: every hosted game described as the engine's registry declares it."""

from __future__ import annotations

import pytest

from engine import MATCH_HOOKS
from engine.registry import GAMES, get_game
from tests.arena.helpers import assert_error

FIELDS = {
    "name",
    "title",
    "summary",
    "min_players",
    "max_players",
    "rules_version",
    "options",
    "lists_legal_actions",
    "late_moves_allowed",
    "supports_duplicate",
    "hooks",
    "action_schema",
    "rules_url",
    "ladder_url",
}


def test_it_lists_every_hosted_game_in_display_order(anon_client):
    body = anon_client.get("/api/games/").json()

    assert body["count"] == len(GAMES)
    assert [game["name"] for game in body["results"]] == list(GAMES)
    assert body["results"][0]["name"] == "lie21"
    assert "highcard" in [game["name"] for game in body["results"]]  # the test game
    assert all(set(game) == FIELDS for game in body["results"])


@pytest.mark.parametrize("name", list(GAMES))
def test_each_game_says_what_its_game_object_declares(anon_client, name):
    game = get_game(name)

    body = anon_client.get(f"/api/games/{name}/").json()

    assert (body["name"], body["title"], body["summary"]) == (name, game.title, game.summary)
    assert (body["min_players"], body["max_players"]) == (game.min_players, game.max_players)
    assert body["options"] == game.match_rules(None).options()
    assert body["lists_legal_actions"] is game.lists_legal_actions
    assert body["hooks"] == [*MATCH_HOOKS, *game.hooks]
    assert body["action_schema"] == game.action_schema()
    assert body["rules_url"] == f"http://testserver/games/{name}/rules/"
    assert body["ladder_url"] == f"http://testserver/api/ladder/{name}/"


def test_the_test_game_seats_two_to_four(anon_client):
    body = anon_client.get("/api/games/highcard/").json()

    assert (body["min_players"], body["max_players"]) == (2, 4)
    assert body["options"] == {"games": 3}
    assert body["hooks"] == ["on_match_start", "on_game_end"]
    assert body["action_schema"]["required"] == ["swap"]


def test_lie21_lists_its_own_hook(anon_client):
    assert anon_client.get("/api/games/lie21/").json()["hooks"] == [
        "on_match_start",
        "on_game_end",
        "on_hand_end",
    ]


def test_the_ladder_link_leads_to_the_game_s_ladder(anon_client):
    link = anon_client.get("/api/games/highcard/").json()["ladder_url"]

    assert anon_client.get(link).status_code == 200


def test_an_unknown_game_is_a_json_404_naming_the_hosted_ones(anon_client):
    body = assert_error(anon_client.get("/api/games/chess/"), 404, "unknown_game")

    assert "'chess'" in body["detail"] and "lie21" in body["detail"]


def test_the_games_cost_no_query(anon_client, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert anon_client.get("/api/games/").status_code == 200
        assert anon_client.get("/api/games/lie21/").status_code == 200
