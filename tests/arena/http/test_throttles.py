"""The rate limit on uploads answers 429 in the error shape (passwords: test_logins.py)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.arena.factories import BotFactory
from tests.arena.helpers import assert_error


@pytest.fixture
def low_rates(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"uploads": "2/minute"},
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
