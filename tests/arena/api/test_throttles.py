"""Rate limits on uploads and token requests answer 429 in the error shape."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.arena.factories import BotFactory
from tests.arena.helpers import assert_error


@pytest.fixture
def low_rates(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"uploads": "2/minute", "tokens": "2/minute"},
    }


def test_uploads_are_throttled_per_user(low_rates, owner_client, owner, other_client, other_user):
    bot = BotFactory(owner=owner)

    def upload(client, n: int):
        file = SimpleUploadedFile("bot.py", f"def act(o):\n    return {n}\n".encode())
        return client.post(f"/api/bots/{bot.pk}/versions/", {"file": file}, format="multipart")

    assert [upload(owner_client, n).status_code for n in range(2)] == [201, 201]
    response = upload(owner_client, 3)

    body = assert_error(response, 429, "throttled")
    assert "available in" in body["detail"]
    assert int(response["Retry-After"]) > 0
    assert bot.versions.count() == 2
    assert upload(other_client, 4).status_code == 403  # bob has his own budget
    assert owner_client.get(f"/api/bots/{bot.pk}/versions/").status_code == 200  # reads are free


def test_token_requests_are_throttled(low_rates, anon_client, owner):
    credentials = {"username": "alice", "password": "wrong"}
    for _ in range(2):
        assert anon_client.post("/api/auth/token/", credentials, format="json").status_code == 400

    response = anon_client.post(
        "/api/auth/token/", {"username": "alice", "password": "alice-pass-123"}, format="json"
    )

    assert_error(response, 429, "throttled")
    assert "Retry-After" in response


def test_no_throttling_when_the_rate_is_none(anon_client, owner):
    credentials = {"username": "alice", "password": "alice-pass-123"}

    statuses = {
        anon_client.post("/api/auth/token/", credentials, format="json").status_code
        for _ in range(30)
    }

    assert statuses == {200}


def _rates(settings, **rates) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"uploads": None, "tokens": None, **rates},
    }


def test_a_forged_forwarded_for_gets_no_fresh_tries(settings, anon_client, owner):
    _rates(settings, tokens="20/hour")

    statuses = [
        anon_client.post(
            "/api/auth/token/",
            {"username": "alice", "password": f"guess{i}"},
            format="json",
            HTTP_X_FORWARDED_FOR=f"203.0.113.{i}",
        ).status_code
        for i in range(25)
    ]

    assert statuses == [400] * 20 + [429] * 5


def test_behind_a_trusted_proxy_the_address_it_adds_is_the_client(settings, anon_client, owner):
    _rates(settings, tokens="2/hour")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}

    def attempt(forwarded: str) -> int:
        return anon_client.post(
            "/api/auth/token/",
            {"username": "alice", "password": "wrong"},
            format="json",
            HTTP_X_FORWARDED_FOR=forwarded,
        ).status_code

    # The client's own claim (first entry) is ignored; the proxy's entry (last) counts.
    assert [attempt(f"10.0.0.{i}, 198.51.100.7") for i in range(3)] == [400, 400, 429]
    assert attempt("198.51.100.8") == 400


def test_an_account_is_locked_after_failures_from_many_addresses(settings, anon_client, owner):
    _rates(settings, tokens="20/hour", logins_account="5/hour")

    def attempt(username: str, password: str, address: str):
        return anon_client.post(
            "/api/auth/token/",
            {"username": username, "password": password},
            format="json",
            REMOTE_ADDR=address,
        )

    wrong = [attempt("alice", f"guess{i}", f"192.0.2.{i}").status_code for i in range(5)]
    assert wrong == [400] * 5
    locked = attempt("ALICE", "alice-pass-123", "192.0.2.200")
    assert_error(locked, 429, "throttled")
    assert int(locked["Retry-After"]) > 0


def test_one_clients_guessing_does_not_lock_out_other_accounts(
    settings, anon_client, owner, other_user
):
    _rates(settings, tokens="3/hour", logins_account="3/hour")
    for i in range(3):
        anon_client.post(
            "/api/auth/token/",
            {"username": "alice", "password": f"guess{i}"},
            format="json",
            REMOTE_ADDR="192.0.2.1",
        )

    bob = anon_client.post(
        "/api/auth/token/",
        {"username": "bob", "password": "bob-pass-123"},
        format="json",
        REMOTE_ADDR="192.0.2.2",
    )
    # Right passwords cost nothing: many users behind one address may log in all day.
    many = [
        anon_client.post(
            "/api/auth/token/",
            {"username": "bob", "password": "bob-pass-123"},
            format="json",
            REMOTE_ADDR="192.0.2.3",
        ).status_code
        for _ in range(5)
    ]

    assert bob.status_code == 200
    assert many == [200] * 5
