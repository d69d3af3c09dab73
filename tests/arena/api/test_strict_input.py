"""Input the schema does not allow is refused with 400, not coerced or replaced by a default."""

from __future__ import annotations

import pytest

from tests.arena.factories import BotFactory
from tests.arena.helpers import assert_error


@pytest.mark.parametrize("value", ["abc", "null", "0", "-1", "201", "1.5", ""])
@pytest.mark.parametrize(
    "path",
    ["/api/bots/", "/api/matches/", "/api/tournaments/", "/api/games/", "/api/ladder/lie21/"],
)
def test_a_bad_page_size_is_a_400(anon_client, path, value):
    body = assert_error(anon_client.get(path, {"page_size": value}), 400, "invalid")

    assert "page_size" in body["fields"]


@pytest.mark.parametrize(
    "path",
    [
        "/api/tournaments/?status=",
        "/api/tournaments/?game=",
        "/api/matches/?bot=",
        "/api/matches/?kind=",
        "/api/matches/?game=",
        "/api/matches/?version=",
        "/api/bots/?game=",
    ],
)
def test_an_empty_typed_filter_is_a_400(anon_client, path):
    assert_error(anon_client.get(path), 400, "invalid")


def test_a_huge_page_number_is_past_the_last_page(anon_client):
    assert_error(anon_client.get("/api/matches/", {"page": "1" + "0" * 30}), 404)


@pytest.mark.parametrize("value", ["", "abc", "0", "-1", "1.0"])
def test_a_bad_page_number_is_a_400(anon_client, value):
    body = assert_error(anon_client.get("/api/tournaments/", {"page": value}), 400, "invalid")

    assert "page" in body["fields"]


def test_a_page_past_the_last_is_a_404(anon_client):
    assert_error(anon_client.get("/api/tournaments/", {"page": "7"}), 404)
    assert anon_client.get("/api/tournaments/", {"page": "1"}).status_code == 200


def test_a_good_page_size_is_used(anon_client, owner):
    for n in range(3):
        BotFactory(owner=owner, name=f"b{n}")

    body = anon_client.get("/api/bots/", {"page_size": "2"}).json()

    assert len(body["results"]) == 2


@pytest.mark.parametrize("description", [0, 1.5, True, ["x"], {"a": 1}])
def test_a_bots_description_must_be_a_string(owner_client, owner, description):
    bot = BotFactory(owner=owner)

    patched = owner_client.patch(
        f"/api/bots/{bot.pk}/", {"description": description}, format="json"
    )
    created = owner_client.post(
        "/api/bots/", {"name": "strict", "game": "lie21", "description": description}, format="json"
    )

    assert_error(patched, 400, "invalid")
    assert_error(created, 400, "invalid")


@pytest.mark.parametrize("padding", [" ", "\x1f", "\n"])
def test_a_description_over_the_limit_as_sent_is_a_400(owner_client, owner, padding):
    # DRF trims before it measures; the schema's maxLength is for the string as sent.
    bot = BotFactory(owner=owner, description="kept")
    description = padding + "d" * 2000

    patched = owner_client.patch(
        f"/api/bots/{bot.pk}/", {"description": description}, format="json"
    )

    assert "description" in assert_error(patched, 400, "max_length")["fields"]
    bot.refresh_from_db()
    assert bot.description == "kept"


@pytest.mark.parametrize("name", [0, 12, False, ["Cup"]])
def test_a_tournaments_name_must_be_a_string(staff_client, name):
    body = {"name": name, "game": "lie21"}

    assert_error(staff_client.post("/api/tournaments/", body, format="json"), 400)


@pytest.mark.parametrize("seed", ["12", 1.0, True])
def test_a_tournaments_seed_must_be_an_integer(staff_client, seed):
    response = staff_client.post(
        "/api/tournaments/", {"name": "Cup", "game": "lie21", "seed": seed}, format="json"
    )

    assert_error(response, 400, "invalid")


def test_a_schedules_fields_are_strict(staff_client):
    base = {"name": "Nightly", "game": "lie21", "crontab": "0 3 * * *"}
    for bad in ({"name": 5}, {"crontab": 3}, {"enabled": "yes"}, {"enabled": 1}):
        response = staff_client.post("/api/schedules/", {**base, **bad}, format="json")
        assert_error(response, 400, "invalid")


def test_form_bodies_still_read_text(staff_client):
    response = staff_client.post(
        "/api/tournaments/", {"name": "Form cup", "game": "highcard", "seed": "7"}
    )

    assert response.status_code == 201, response.content
    assert response.json()["game"] == "highcard"


def test_a_token_request_needs_strings(anon_client, owner):
    response = anon_client.post(
        "/api/auth/token/", {"username": 0, "password": "alice-pass-123"}, format="json"
    )
    assert_error(response, 400, "invalid")


def test_an_empty_patch_of_a_bot_changes_nothing(owner_client, owner, other_client):
    bot = BotFactory(owner=owner, description="kept")

    response = owner_client.patch(f"/api/bots/{bot.pk}/", {}, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["description"] == "kept"
    assert other_client.patch(f"/api/bots/{bot.pk}/", {}, format="json").status_code == 403


@pytest.mark.parametrize("value", ["null", "unknown", "1", "yes", ""])
def test_a_boolean_filter_takes_true_or_false_only(anon_client, value):
    body = assert_error(anon_client.get("/api/bots/", {"is_active": value}), 400, "invalid")

    assert "is_active" in body["fields"]
    assert anon_client.get("/api/bots/", {"is_active": "false"}).status_code == 200


def test_a_patch_takes_json_only(owner_client, owner, staff_client):
    from tests.arena.factories import TournamentScheduleFactory

    bot = BotFactory(owner=owner, description="kept")
    schedule = TournamentScheduleFactory()
    body = "--b\r\n\xf1|--b--\r\n"

    for client, path in (
        (owner_client, f"/api/bots/{bot.pk}/"),
        (staff_client, f"/api/schedules/{schedule.pk}/"),
    ):
        response = client.patch(path, body, content_type="multipart/form-data; boundary=b")
        assert_error(response, 415, "unsupported_media_type")
        assert_error(client.patch(path, '"text"', content_type="application/json"), 400)
