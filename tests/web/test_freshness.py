"""Conditional GET, cached pages and the early body-size refusal (issue 19: load, bodies)."""

from __future__ import annotations

import pytest
from django.test import Client

from arena.models import Match
from arena.services.ratings import match_rate_locked
from tests.arena.factories import MatchFactory, RatingFactory, ReplayFactory
from tests.web.data import bot_make, user_make

pytestmark = pytest.mark.django_db


@pytest.fixture
def ladder_bots():
    bots = [bot_make(name=f"bot{n}") for n in range(3)]
    for bot in bots:
        RatingFactory(version=bot.active_version)
    return bots


def test_the_ladder_answers_304_until_a_rating_changes(
    ladder_bots, django_capture_on_commit_callbacks
):
    client = Client()
    first = client.get("/games/lie21/")
    assert first.status_code == 200
    etag = first["ETag"]
    assert "no-cache" in first["Cache-Control"]

    again = client.get("/games/lie21/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""

    match = MatchFactory(versions=[bot.active_version for bot in ladder_bots[:2]], rated=False)
    with django_capture_on_commit_callbacks(execute=True):
        match_rate_locked(match=match)

    after = client.get("/games/lie21/", HTTP_IF_NONE_MATCH=etag)
    assert after.status_code == 200
    assert after["ETag"] != etag


def test_an_anonymous_ladder_page_is_rendered_once_per_ladder_version(
    ladder_bots, django_assert_max_num_queries
):
    client = Client()
    first = client.get("/games/lie21/?sort=-mu")
    with django_assert_max_num_queries(0):
        cached = client.get("/games/lie21/?sort=-mu")
    assert cached.status_code == 200
    assert cached.content == first.content


def test_a_logged_in_reader_gets_their_own_validator_and_page(ladder_bots):
    user = user_make("reader")
    client = Client()
    client.force_login(user)
    anonymous = Client().get("/games/lie21/")
    mine = client.get("/games/lie21/")
    assert mine["ETag"] != anonymous["ETag"]
    assert "private" in mine["Cache-Control"]
    assert b"reader" in mine.content
    assert b"reader" not in anonymous.content


def test_a_finished_match_page_is_validated_and_a_running_one_is_not():
    done = ReplayFactory().match
    client = Client()
    page = client.get(f"/matches/{done.pk}/")
    assert page.status_code == 200
    assert client.get(f"/matches/{done.pk}/", HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 304

    running = MatchFactory(status=Match.Status.RUNNING, finished_at=None)
    live = client.get(f"/matches/{running.pk}/")
    assert live.status_code == 200
    assert not live.has_header("ETag")


def test_a_replay_is_answered_304_without_reading_it(django_assert_max_num_queries):
    match = ReplayFactory().match
    client = Client()
    first = client.get(f"/api/matches/{match.pk}/replay/", HTTP_ACCEPT_ENCODING="gzip")
    assert first.status_code == 200
    with django_assert_max_num_queries(1):  # "does it exist", never the stored bytes
        again = client.get(
            f"/api/matches/{match.pk}/replay/",
            HTTP_ACCEPT_ENCODING="gzip",
            HTTP_IF_NONE_MATCH=first["ETag"],
        )
    assert again.status_code == 304
    missing = client.get("/api/matches/999999/replay/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert missing.status_code == 404


def test_anonymous_readers_share_a_match_list_rendering_for_a_few_seconds(
    django_assert_max_num_queries,
):
    MatchFactory()
    first = Client().get("/matches/?page=1")
    with django_assert_max_num_queries(0):
        again = Client().get("/matches/?page=1")
    assert again.content == first.content
    user = user_make("lister")
    mine = Client()
    mine.force_login(user)
    assert b"lister" in mine.get("/matches/?page=1").content  # never someone else's copy
