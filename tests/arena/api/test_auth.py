"""Authentication: tokens for scripts, sessions for the browser; writes need either."""

from __future__ import annotations

from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.arena.helpers import assert_error


def test_it_trades_a_password_for_a_token(anon_client, owner):
    response = anon_client.post(
        "/api/auth/token/", {"username": "alice", "password": "alice-pass-123"}, format="json"
    )

    assert response.status_code == 200
    assert response.json() == {"token": Token.objects.get(user=owner).key}


def test_it_gives_the_same_token_each_time(anon_client, owner):
    credentials = {"username": "alice", "password": "alice-pass-123"}

    first = anon_client.post("/api/auth/token/", credentials, format="json").json()
    second = anon_client.post("/api/auth/token/", credentials, format="json").json()

    assert first == second


def test_it_refuses_a_wrong_password(anon_client, owner):
    response = anon_client.post(
        "/api/auth/token/", {"username": "alice", "password": "guess"}, format="json"
    )

    body = assert_error(response, 400, "authorization")
    assert body["detail"] == "Unable to log in with provided credentials."
    assert not Token.objects.exists()


def test_the_token_authenticates_writes(anon_client, owner):
    token = anon_client.post(
        "/api/auth/token/", {"username": "alice", "password": "alice-pass-123"}, format="json"
    ).json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    assert (
        client.post("/api/bots/", {"name": "viatoken", "game": "lie21"}, format="json").status_code
        == 201
    )


def test_a_bad_token_is_a_401(db):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")

    body = assert_error(client.get("/api/bots/"), 401, "authentication_failed")
    assert body["detail"] == "Invalid token."


def test_a_browser_session_works_with_csrf(owner):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(owner)

    without_csrf = client.post("/api/bots/", {"name": "viasession", "game": "lie21"}, format="json")

    assert_error(without_csrf, 403, "permission_denied")
    assert "CSRF" in without_csrf.json()["detail"]


def test_writes_without_credentials_are_401_with_a_challenge(anon_client):
    response = anon_client.post("/api/bots/", {"name": "x", "game": "lie21"}, format="json")

    assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Token"
