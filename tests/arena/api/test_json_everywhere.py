"""Under /api/ every answer is JSON in the one error shape, whatever the path or method."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.arena.factories import BotFactory
from tests.arena.helpers import assert_error


@pytest.fixture
def browser(db) -> Client:
    # A client that enforces CSRF, as a real browser session would meet it.
    return Client(enforce_csrf_checks=True)


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
@pytest.mark.parametrize("path", ["/api/bots/abc/", "/api/matches/1x/logs/", "/api/nothing/"])
def test_writes_to_unknown_paths_are_a_json_404(browser, method, path):
    response = getattr(browser, method)(path, data="{}", content_type="application/json")

    assert_error(response, 404, "not_found")


@pytest.mark.parametrize("path", ["/api/bots/%0A/", "/api/bots/1%0A/", "/api/%0A", "/api/x%0Ay"])
def test_a_newline_in_the_path_is_a_json_404(browser, path):
    for method in ("get", "post"):
        assert_error(getattr(browser, method)(path), 404, "not_found")


def test_a_post_without_the_trailing_slash_is_served(owner_client):
    response = owner_client.post("/api/bots", {"name": "noslash", "game": "lie21"}, format="json")

    assert response.status_code == 201, response.content
    assert response.json()["name"] == "noslash"


def test_a_patch_without_the_trailing_slash_is_served(owner_client, owner):
    bot = BotFactory(owner=owner)

    response = owner_client.patch(f"/api/bots/{bot.pk}", {"description": "changed"}, format="json")

    assert response.status_code == 200, response.content
    bot.refresh_from_db()
    assert bot.description == "changed"


def test_an_unknown_path_without_the_slash_is_a_json_404(anon_client):
    assert_error(anon_client.post("/api/nothing", {}, format="json"), 404, "not_found")
    assert_error(anon_client.get("/api/nothing"), 404, "not_found")


def test_a_get_without_the_slash_is_still_redirected_with_its_query(anon_client):
    response = anon_client.get("/api/bots?page=2")

    assert response.status_code == 301
    assert response["Location"] == "/api/bots/?page=2"


def test_method_not_allowed_and_unsupported_media_are_json(owner_client):
    assert_error(owner_client.put("/api/matches/", {}, format="json"), 405, "method_not_allowed")
    response = owner_client.post("/api/bots/", data="x", content_type="text/plain")
    assert_error(response, 415, "unsupported_media_type")
    response = owner_client.get("/api/bots/", HTTP_ACCEPT="text/csv")
    assert_error(response, 406, "not_acceptable")
