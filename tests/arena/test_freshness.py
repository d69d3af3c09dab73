"""arena.freshness.LocalCopies: a process's copies of what never changes (final match pages,
replays), in front of the shared cache."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from arena import freshness
from arena.freshness import LocalCopies, local_copies_clear
from arena.selectors.matches import replay_bytes
from tests.arena.web.data import bot_make, match_record, user_make


def test_a_copy_is_kept_for_its_time_then_forgotten(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(freshness.time, "monotonic", lambda: now[0])
    copies = LocalCopies(size=3, ttl_s=60)
    copies.set("a", b"1")
    assert copies.get("a") == b"1"
    now[0] += 59
    assert copies.get("a") == b"1"
    now[0] += 2
    assert copies.get("a") is None


def test_the_least_recently_used_goes_first():
    copies = LocalCopies(size=2, ttl_s=60)
    copies.set("a", 1)
    copies.set("b", 2)
    copies.get("a")  # used: b is now the oldest
    copies.set("c", 3)
    assert (copies.get("a"), copies.get("b"), copies.get("c")) == (1, None, 3)


def test_local_copies_clear_forgets_every_copy():
    first, second = LocalCopies(size=2, ttl_s=60), LocalCopies(size=2, ttl_s=60)
    first.set("a", 1)
    second.set("b", 2)
    local_copies_clear()
    assert first.get("a") is None and second.get("b") is None


@pytest.fixture
def counted_cache_reads(monkeypatch):
    reads = []
    real = cache.get

    def get(key, *args, **kwargs):
        reads.append(key)
        return real(key, *args, **kwargs)

    monkeypatch.setattr(cache, "get", get)
    return reads


@pytest.mark.django_db
def test_a_final_match_page_and_its_replay_are_read_from_the_process_copy(counted_cache_reads):
    match = match_record(bot_make(user_make("alice")), bot_make(user_make("bob")))
    first = Client().get(f"/matches/{match.pk}/")
    assert first.status_code == 200
    stored = replay_bytes(match_id=match.pk)
    counted_cache_reads.clear()
    again = Client().get(f"/matches/{match.pk}/")
    assert again.status_code == 200 and again.content == first.content
    assert again["ETag"] == first["ETag"]
    assert replay_bytes(match_id=match.pk) == stored
    assert not [key for key in counted_cache_reads if "match-final" in key or "replay:" in key]
    # Another process (no copies of its own) reads the shared cache, and keeps a copy.
    local_copies_clear()
    assert Client().get(f"/matches/{match.pk}/").content == first.content
    assert any("match-final" in key for key in counted_cache_reads)
