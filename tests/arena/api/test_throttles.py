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
