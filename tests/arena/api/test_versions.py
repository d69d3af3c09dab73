"""Versions: public summaries and ratings for all; logs, file names and source for the
owner only; a new version is rated afresh."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from arena.models import BotVersion, Rating
from arena.services.rating_fit import ratings_refit
from arena.services.ratings import rating_activate
from arena.services.validation import version_validate
from tests.arena.factories import BOT_SOURCE, BotFactory, BotVersionFactory, RatingFactory
from tests.arena.helpers import assert_error
from tests.arena.recorded import match_played

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


def test_what_the_owner_alone_reads_is_marked_private(owner_client, anon_client, version):
    """No shared cache between the arena and its users may keep a bot's source or logs."""
    for path in (detail_url(version, "source/"), detail_url(version, "")):
        response = owner_client.get(path)
        assert response.status_code == 200
        assert set(response["Cache-Control"].split(", ")) == {"private", "no-cache"}
        assert {"Authorization", "Cookie"} <= set(response["Vary"].split(", "))
    assert not anon_client.get(detail_url(version, "")).has_header("Cache-Control")


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


# --- ratings per version ------------------------------------------------------------------


def test_a_version_shows_its_id_rating_and_history(anon_client, owner):
    """Versions of High Card bots play real three-seat matches; each has its own record."""
    versions = [BotVersionFactory(bot=BotFactory(game="highcard")) for _ in range(3)]
    for version in versions:
        rating_activate(version=version)
    played = [match_played(versions, seed=seed) for seed in (11, 12)]
    ratings_refit(game="highcard")
    mine = versions[0]

    body = anon_client.get(detail_url(mine)).json()

    rating = Rating.objects.get(version=mine)
    assert body["id"] == mine.pk
    assert body["rating"]["current"] is True
    assert (body["rating"]["rating"], body["rating"]["rating_sigma"]) == (
        rating.rating,
        rating.rating_sigma,
    )
    assert body["rating"]["rating_sigma"] < 25 / 3, "two matches narrowed the interval"
    assert (body["rating"]["mu"], body["rating"]["sigma"]) == (rating.mu, rating.sigma)
    assert body["rating"]["matches"] == 2
    history = body["rating_history"]
    assert [point["match"] for point in history] == [match.pk for match in played]
    assert history[-1]["rating"] == pytest.approx(rating.rating)
    assert history[-1]["mu"] == pytest.approx(rating.mu)
    assert set(history[0]) == {"match", "rating", "rating_sigma", "mu", "sigma", "created"}
    (row,) = anon_client.get(f"/api/bots/{mine.bot_id}/versions/").json()["results"]
    assert row["rating"] == body["rating"]
    assert "rating_history" not in row


def test_a_version_not_yet_rated_has_no_rating(anon_client, version):
    body = anon_client.get(detail_url(version)).json()

    assert (body["rating"], body["rating_history"]) == (None, [])


def test_a_new_upload_is_rated_afresh_and_the_old_version_keeps_its_record(
    owner_client, anon_client, owner, monkeypatch
):
    """Ratings are per version: the old version's record stays as it was; the new version
    starts from the old one's rating with the widest interval (and its live mu), and becomes
    the bot's ladder entry."""
    monkeypatch.setattr("arena.services.bots.enqueue", lambda *args: None)
    monkeypatch.setattr("arena.services.validation.enqueue", lambda *args: None)
    monkeypatch.setattr(
        "arena.services.validation._validation_matches",  # the sandboxed matches: passed
        lambda version: SimpleNamespace(valid=True, log="ok", output=""),
    )
    old = BotVersionFactory(bot=BotFactory(owner=owner, game="highcard", name="mine"))
    others = [BotVersionFactory(bot=BotFactory(game="highcard")) for _ in range(2)]
    for version in (old, *others):
        rating_activate(version=version)
    for seed in (1, 2, 3):
        match_played([old, *others], seed=seed)
    ratings_refit(game="highcard")
    before = anon_client.get(detail_url(old)).json()["rating"]

    upload = SimpleUploadedFile("bot.py", b"def act(observation):\n    return {'swap': True}\n")
    response = owner_client.post(
        f"/api/bots/{old.bot_id}/versions/", {"file": upload}, format="multipart"
    )
    assert response.status_code == 201, response.content
    assert (response.json()["rating"], response.json()["rating_history"]) == (None, [])
    version_validate(version_id=response.json()["id"])

    after = anon_client.get(detail_url(old)).json()["rating"]
    new = anon_client.get(f"/api/bots/{old.bot_id}/versions/2/").json()["rating"]
    assert {**after, "current": True} == before  # the record of version 1, unchanged
    assert after["current"] is False
    assert before["matches"] == 3
    assert new["current"] is True
    assert new["rating"] == pytest.approx(before["rating"])
    assert new["rating_sigma"] == pytest.approx(25 / 3)
    assert new["provisional"] is True
    assert new["mu"] == pytest.approx(before["mu"])
    assert new["sigma"] == pytest.approx(25 / 3)
    assert (new["matches"], new["wins"], new["faults"]) == (0, 0, 0)
    bot = anon_client.get(f"/api/bots/{old.bot_id}/").json()
    assert bot["active_version"] == 2
    assert [(r["version"], r["current"]) for r in bot["ratings"]] == [(2, True), (1, False)]
    ladder = anon_client.get("/api/ladder/highcard/").json()["results"]
    (entry,) = [row for row in ladder if row["bot"]["id"] == old.bot_id]
    assert (entry["version"], entry["matches"]) == (2, 0)
    assert entry["rating"] == pytest.approx(before["rating"])


@pytest.mark.parametrize("versions", [2, 12])
def test_the_version_list_and_the_bot_cost_the_same_queries_for_any_number_of_versions(
    anon_client, owner, django_assert_max_num_queries, versions
):
    bot = BotFactory(owner=owner)
    for number in range(versions):
        version = BotVersionFactory(bot=bot, source=f"def act(o):\n    return {number}\n".encode())
        RatingFactory(version=version, current=number == versions - 1)

    with django_assert_max_num_queries(4):  # the bot and its ratings, the count, the page
        listed = anon_client.get(f"/api/bots/{bot.pk}/versions/").json()
    # the bot, its versions' ratings, its active version's comparison with the previous one
    with django_assert_max_num_queries(3):
        detail = anon_client.get(f"/api/bots/{bot.pk}/").json()

    assert all(row["rating"] is not None for row in listed["results"])
    assert len(detail["ratings"]) == versions
