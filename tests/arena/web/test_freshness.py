"""Conditional GET, cached pages and the early body-size refusal (issue 19: load, bodies)."""

from __future__ import annotations

import gzip

import pytest
from django.core.cache import cache
from django.http import HttpResponse
from django.test import Client, RequestFactory

from arena.http.compression import compress
from arena.models import Match
from arena.services.ratings import match_rate_locked
from arena.web.freshness import shared_page
from tests.arena.factories import MatchFactory, RatingFactory, ReplayFactory
from tests.arena.web.data import bot_make, user_make

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
    with django_assert_max_num_queries(1):  # "does it exist", never the stored bytes
        unread = client.get(
            f"/api/matches/{match.pk}/replay/", HTTP_IF_NONE_MATCH=f'W/"replay-{match.pk}"'
        )
    assert unread.status_code == 304
    first = client.get(f"/api/matches/{match.pk}/replay/", HTTP_ACCEPT_ENCODING="gzip")
    assert first.status_code == 200
    with django_assert_max_num_queries(0):  # once read, it is in the shared cache
        again = client.get(
            f"/api/matches/{match.pk}/replay/",
            HTTP_ACCEPT_ENCODING="gzip",
            HTTP_IF_NONE_MATCH=first["ETag"],
        )
        second = Client().get(f"/api/matches/{match.pk}/replay/", HTTP_ACCEPT_ENCODING="gzip")
    assert again.status_code == 304
    assert second.status_code == 200
    assert second.content == first.content
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


def test_an_anonymous_finished_match_page_costs_no_database_read(django_assert_num_queries):
    done = ReplayFactory().match
    first = Client().get(f"/matches/{done.pk}/")  # rendered once, shared
    with django_assert_num_queries(0):  # it read its state each time (twice, before that)
        again = Client().get(f"/matches/{done.pk}/", HTTP_ACCEPT_ENCODING="gzip")
        unchanged = Client().get(f"/matches/{done.pk}/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    assert again["Content-Encoding"] == "gzip"
    assert gzip.decompress(again.content) == first.content
    assert again["ETag"] == first["ETag"]
    assert unchanged.status_code == 304
    assert unchanged["ETag"] == first["ETag"]
    assert "no-cache" in unchanged["Cache-Control"]


def test_a_match_played_but_not_rated_yet_is_not_kept_as_final(
    django_capture_on_commit_callbacks,
):
    """Its page shows the rating changes once it is rated: until then it is read afresh."""
    match = MatchFactory(rated=False)
    client = Client()
    before = client.get(f"/matches/{match.pk}/")
    assert b"live \xce\xbc" not in before.content  # no rating change shown yet
    with django_capture_on_commit_callbacks(execute=True):
        match_rate_locked(match=match)
    after = client.get(f"/matches/{match.pk}/", HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert b"live \xce\xbc" in after.content


def test_a_logged_in_reader_of_a_kept_match_page_gets_their_own(owner):
    done = ReplayFactory().match
    Client().get(f"/matches/{done.pk}/")  # kept for anonymous readers
    client = Client()
    client.force_login(owner)
    mine = client.get(f"/matches/{done.pk}/")
    assert mine.status_code == 200
    assert b"alice" in mine.content  # their own page, naming who is logged in


class TestSharedPage:
    """One rendering shared by anonymous readers, renewed by one request at a time."""

    @pytest.fixture(autouse=True)
    def clock(self, monkeypatch):
        from arena.web import freshness

        now = [1_000_000.0]
        monkeypatch.setattr(freshness.time, "time", lambda: now[0])
        cache.clear()
        return now

    request = RequestFactory().get("/matches/")  # asks for no gzip: plain bodies

    @staticmethod
    def renderer(bodies, status=200):
        def render():
            bodies.append(f"page {len(bodies) + 1}")
            return HttpResponse(bodies[-1], status=status)

        return render

    def test_a_fresh_rendering_is_served_without_rendering(self, clock):
        bodies = []
        first = shared_page(self.request, "k", self.renderer(bodies), fresh_s=5, keep_s=60)
        clock[0] += 4
        again = shared_page(self.request, "k", self.renderer(bodies), fresh_s=5, keep_s=60)
        assert first.content == again.content == b"page 1"
        assert bodies == ["page 1"]

    def test_a_stale_rendering_is_renewed_by_one_request_while_others_get_the_old(self, clock):
        bodies = []
        shared_page(self.request, "k", self.renderer(bodies), fresh_s=5, keep_s=60)
        clock[0] += 6
        cache.add("k:renewing", 1, 10)  # another request is rendering it right now
        meanwhile = shared_page(self.request, "k", self.renderer(bodies), fresh_s=5, keep_s=60)
        assert meanwhile.content == b"page 1" and bodies == ["page 1"]
        cache.delete("k:renewing")
        renewed = shared_page(self.request, "k", self.renderer(bodies), fresh_s=5, keep_s=60)
        assert renewed.content == b"page 2"
        assert cache.get("k:renewing") is None  # the next renewal may start on time
        assert (
            shared_page(self.request, "k", self.renderer(bodies), fresh_s=5, keep_s=60).content
            == b"page 2"
        )

    def test_only_good_answers_are_shared(self):
        bodies = []
        assert (
            shared_page(
                self.request, "k", self.renderer(bodies, 404), fresh_s=5, keep_s=60
            ).status_code
            == 404
        )
        shared_page(self.request, "k", self.renderer(bodies, 404), fresh_s=5, keep_s=60)
        assert len(bodies) == 2

    def test_a_fresh_rendering_is_served_from_the_process_copy(self, clock, monkeypatch):
        bodies = []
        shared_page(self.request, "k", self.renderer(bodies), fresh_s=5, keep_s=60)
        reads = []
        real_get = cache.get
        monkeypatch.setattr(cache, "get", lambda key, *a, **kw: reads.append(key) or real_get(key))
        clock[0] += 4
        again = shared_page(self.request, "k", self.renderer(bodies), fresh_s=5, keep_s=60)
        assert again.content == b"page 1" and bodies == ["page 1"]
        assert reads == []  # no round trip to the shared cache
        clock[0] += 2  # stale: the shared cache is asked, and the page renewed
        renewed = shared_page(self.request, "k", self.renderer(bodies), fresh_s=5, keep_s=60)
        assert renewed.content == b"page 2" and "k" in reads

    def test_another_processs_renewal_is_served_once_the_copy_is_stale(self, clock):
        bodies = []
        shared_page(self.request, "k", self.renderer(bodies), fresh_s=5, keep_s=60)
        clock[0] += 6
        cache.set("k", (clock[0], compress(b"page from another process")), 60)
        served = shared_page(self.request, "k", self.renderer(bodies), fresh_s=5, keep_s=60)
        assert served.content == b"page from another process" and bodies == ["page 1"]


def test_a_shared_page_goes_out_gzip_compressed_to_clients_that_accept_it():
    MatchFactory()
    plain = Client().get("/matches/")
    packed = Client().get("/matches/", HTTP_ACCEPT_ENCODING="gzip, br")
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content) / 2
    assert not plain.has_header("Content-Encoding")
