"""``/healthz`` answers within its deadline whatever its dependencies do, and names the one
that failed (503): a paused Redis, a database that accepts connections but never answers."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest

from arena.web import health
from tests.workers.faults import require_postgresql
from tests.workers.processes import use_broker

pytestmark = pytest.mark.slow


@pytest.fixture
def black_hole() -> Iterator[int]:
    """A port that accepts TCP connections (the kernel's backlog) and never says a word."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(16)
        yield sock.getsockname()[1]


def timed_get(client) -> tuple[float, int, dict]:
    started = time.monotonic()
    response = client.get("/healthz")
    return time.monotonic() - started, response.status_code, response.json()


def test_it_says_ok_when_everything_answers(transactional_db, client, private_redis):
    with use_broker(private_redis.url):
        _elapsed, status, body = timed_get(client)
    assert status == 200, body
    assert body == {"status": "ok", "database": "ok", "broker": "ok", "failed": []}


def test_a_paused_redis_is_reported_within_the_deadline(transactional_db, client, private_redis):
    with use_broker(private_redis.url):
        private_redis.pause(8000)  # our own server: nobody else waits
        elapsed, status, body = timed_get(client)
    assert elapsed < health.DEADLINE_S + 0.5, f"/healthz took {elapsed:.1f} s"
    assert status == 503, body
    assert body["status"] == "unhealthy"
    assert body["database"] == "ok"
    assert "broker" in body["failed"]
    assert body["broker"].startswith("cannot reach the broker"), body


def test_a_database_that_never_answers_is_reported_within_the_deadline(
    transactional_db, client, private_redis, settings, black_hole
):
    require_postgresql()  # SQLite is a file: there is no server to be silent
    settings.DATABASES = {
        "default": {**settings.DATABASES["default"], "HOST": "127.0.0.1", "PORT": black_hole}
    }
    with use_broker(private_redis.url):
        elapsed, status, body = timed_get(client)
    assert elapsed < health.DEADLINE_S + 0.5, f"/healthz took {elapsed:.1f} s"
    assert status == 503, body
    assert body["failed"] == ["database"]
    assert body["database"].startswith("cannot reach the database"), body
    assert body["broker"] == "ok"
