"""Versions: public summaries for all, logs, file names and source for the owner only."""

from __future__ import annotations

import pytest

from arena.models import BotVersion
from tests.arena.factories import BOT_SOURCE, BotFactory, BotVersionFactory
from tests.arena.helpers import assert_error

PRIVATE = ("filename", "sha256")
PRIVATE_DETAIL = (*PRIVATE, "validation_log", "error_output")


@pytest.fixture
def version(owner) -> BotVersion:
    return BotVersionFactory(
        bot=BotFactory(owner=owner, name="alpha"),
        filename="alpha_v1.py",
        status=BotVersion.Status.INVALID,
        validation_log="act() raised KeyError on move 3",
        error_output="SECRET debug print",
    )


def detail_url(version: BotVersion, suffix: str = "") -> str:
    return f"/api/bots/{version.bot_id}/versions/{version.number}/{suffix}"


def test_the_owner_sees_the_logs_and_private_fields(owner_client, version):
    body = owner_client.get(detail_url(version)).json()

    assert body["validation_log"] == "act() raised KeyError on move 3"
    assert body["error_output"] == "SECRET debug print"
    assert body["filename"] == "alpha_v1.py"
    assert body["sha256"] == version.sha256
    assert body["status"] == "invalid"


@pytest.mark.parametrize("client_name", ["anon_client", "other_client", "staff_client"])
def test_everyone_else_sees_the_public_view(request, version, client_name):
    client = request.getfixturevalue(client_name)

    detail = client.get(detail_url(version))
    listing = client.get(f"/api/bots/{version.bot_id}/versions/")

    assert detail.status_code == listing.status_code == 200
    assert {name: detail.json()[name] for name in PRIVATE_DETAIL} == dict.fromkeys(PRIVATE_DETAIL)
    assert (detail.json()["number"], detail.json()["status"]) == (1, "invalid")
    (row,) = listing.json()["results"]
    assert {name: row[name] for name in PRIVATE} == dict.fromkeys(PRIVATE)
    for response in (detail, listing):
        assert "SECRET" not in response.content.decode()
        assert "KeyError" not in response.content.decode()


def test_the_list_never_carries_logs_even_for_the_owner(owner_client, version):
    (row,) = owner_client.get(f"/api/bots/{version.bot_id}/versions/").json()["results"]

    assert "validation_log" not in row and "error_output" not in row
    assert row["filename"] == "alpha_v1.py"


def test_it_marks_the_active_version(anon_client, owner):
    bot = BotFactory(owner=owner)
    BotVersionFactory(bot=bot, source=b"def act(o): return 1\n")
    BotVersionFactory(bot=bot, status=BotVersion.Status.PENDING)

    rows = anon_client.get(f"/api/bots/{bot.pk}/versions/").json()["results"]

    assert [(row["number"], row["is_active"]) for row in rows] == [(2, False), (1, True)]


def test_the_owner_downloads_the_original_file(owner_client, version):
    response = owner_client.get(detail_url(version, "source/"))

    assert response.status_code == 200
    assert response.content == BOT_SOURCE
    assert response["Content-Type"].startswith("text/x-python")
    assert response["Content-Disposition"] == 'attachment; filename="alpha_v1.py"'


def test_a_zip_downloads_as_a_zip_whatever_the_client_accepts(owner_client, owner):
    version = BotVersionFactory(
        bot=BotFactory(owner=owner), kind="zip", filename="pack.zip", source=b"PK zip bytes"
    )

    response = owner_client.get(detail_url(version, "source/"), HTTP_ACCEPT="application/zip")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response.content == b"PK zip bytes"


def test_a_hostile_file_name_cannot_break_the_header(owner_client, owner):
    version = BotVersionFactory(bot=BotFactory(owner=owner), filename='a"\r\nX-Evil: 1.py')

    response = owner_client.get(detail_url(version, "source/"))

    assert response.status_code == 200
    assert "X-Evil" not in response
    assert "\n" not in response["Content-Disposition"]


@pytest.mark.parametrize(
    ("client_name", "status"),
    [("anon_client", 401), ("other_client", 403), ("staff_client", 403)],
)
def test_nobody_else_downloads_the_source(request, version, client_name, status):
    response = request.getfixturevalue(client_name).get(detail_url(version, "source/"))

    assert_error(response, status)
    assert BOT_SOURCE not in response.content


def test_a_missing_file_is_a_clear_404(owner_client, version):
    version.file.delete(save=False)

    assert_error(owner_client.get(detail_url(version, "source/")), 404, "source_missing")


def test_it_answers_404_for_a_missing_version(anon_client, version):
    assert_error(anon_client.get(f"/api/bots/{version.bot_id}/versions/7/"), 404, "not_found")
