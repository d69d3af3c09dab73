"""The pages draw on the API's rate limits: uploads per user, log-in attempts per address."""

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile

from arena.models import BotVersion
from tests.arena.factories import BotFactory

pytestmark = pytest.mark.django_db

BOT = b"def act(observation):\n    return {}\n"


@pytest.fixture(autouse=True)
def low_rates(settings):
    cache.clear()
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"uploads": "2/hour", "tokens": "2/hour"},
    }
    yield
    cache.clear()


def test_uploads_through_the_page_and_the_api_share_one_budget(client, owner):
    bot = BotFactory(owner=owner, name="alpha")
    client.force_login(owner)
    api = client.post(
        f"/api/bots/{bot.pk}/versions/", {"file": SimpleUploadedFile("a.py", BOT + b"#1\n")}
    )
    assert api.status_code == 201
    page = client.post(
        f"/bots/{bot.pk}/upload/", {"file": SimpleUploadedFile("b.py", BOT + b"#2\n")}
    )
    assert page.status_code == 302
    refused = client.post(
        f"/bots/{bot.pk}/upload/", {"file": SimpleUploadedFile("c.py", BOT + b"#3\n")}
    )
    assert refused.status_code == 429
    assert "Too many uploads" in refused.content.decode()
    assert BotVersion.objects.filter(bot=bot).count() == 2, "the refused file was not stored"


def test_log_in_attempts_are_limited_per_address(client, owner):
    for _ in range(2):
        wrong = client.post("/accounts/login/", {"username": "alice", "password": "nope"})
        assert wrong.status_code == 200
    refused = client.post("/accounts/login/", {"username": "alice", "password": "alice-pass-123"})
    assert refused.status_code == 429
    assert "Too many log-in attempts" in refused.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_login_form_ignores_a_forged_forwarded_for(client, owner):
    statuses = [
        client.post(
            "/accounts/login/",
            {"username": "alice", "password": f"guess{i}"},
            HTTP_X_FORWARDED_FOR=f"203.0.113.{i}",
        ).status_code
        for i in range(4)
    ]
    assert statuses == [200, 200, 429, 429]


def test_the_login_form_locks_an_account_guessed_from_many_addresses(client, owner, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"uploads": None, "tokens": None, "logins_account": "2/hour"},
    }
    for i in range(2):
        client.post(
            "/accounts/login/", {"username": "alice", "password": "x"}, REMOTE_ADDR=f"192.0.2.{i}"
        )
    locked = client.post(
        "/accounts/login/",
        {"username": "alice", "password": "alice-pass-123"},
        REMOTE_ADDR="192.0.2.99",
    )
    assert locked.status_code == 429
    assert "_auth_user_id" not in client.session
