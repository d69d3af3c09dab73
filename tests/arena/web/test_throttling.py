"""The upload page draws on the API's upload budget (log-ins: tests/arena/http/test_logins.py)."""

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile

from arena.models import Bot, BotVersion
from tests.arena.factories import BotFactory

pytestmark = pytest.mark.django_db

BOT = b"def act(observation):\n    return {}\n"


@pytest.fixture(autouse=True)
def low_rates(settings):
    cache.clear()
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"uploads": "2/hour"},
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


def test_the_playground_upload_draws_on_the_same_budget(client, owner):
    """Issue 33: "Upload as new version" skipped the upload rate limit."""
    bot = BotFactory(owner=owner, name="beta")
    client.force_login(owner)
    for n in (1, 2):
        done = client.post(
            "/games/lie21/play/upload/",
            {"bot": str(bot.pk), "source": (BOT + b"#%d\n" % n).decode()},
        )
        assert done["Location"] == f"/bots/{bot.pk}/versions/{n}/"
    refused = client.post(
        "/games/lie21/play/upload/",
        {"bot": "new", "name": "gamma", "source": (BOT + b"#3\n").decode()},
        follow=True,
    )
    assert "Not uploaded: Too many uploads" in refused.content.decode()
    assert BotVersion.objects.filter(bot__owner=owner).count() == 2
    assert not Bot.objects.filter(name="gamma").exists(), "no bot for a refused upload"
    api = client.post(
        f"/api/bots/{bot.pk}/versions/", {"file": SimpleUploadedFile("d.py", BOT + b"#4\n")}
    )
    assert api.status_code == 429, "one budget for the page, the playground and the API"
