"""A kept database connection is checked without a round trip, and a dead one is still
replaced before a request uses it (arena/postgres/base.py).

Django's test client turns off the per-request connection handling, so the tests run its
two steps themselves: the end of a request (``close_if_unusable_or_obsolete``) and the
next request's first query, which runs the health check.
"""

from __future__ import annotations

import time

import psycopg
import pytest
from django.conf import settings
from django.db import connection, connections

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        settings.DATABASES["default"]["ENGINE"] != "arena.postgres",
        reason="the PostgreSQL backend's health check (DATABASE_URL names a PostgreSQL server)",
    ),
]


@pytest.fixture
def kept_connection():
    """The connection kept between requests and checked before each, as deployed."""
    saved = {key: connection.settings_dict[key] for key in ("CONN_MAX_AGE", "CONN_HEALTH_CHECKS")}
    connection.close()
    connection.settings_dict.update(CONN_MAX_AGE=60, CONN_HEALTH_CHECKS=True)
    request()
    yield connection.connection
    connection.settings_dict.update(saved)
    connection.close()


def request() -> int:
    """One request's worth of database use: its end, then the next one's first query."""
    connection.close_if_unusable_or_obsolete()
    with connection.cursor() as cursor:
        cursor.execute("SELECT 41 + 1")
        return cursor.fetchone()[0]


@pytest.fixture
def server_checks(monkeypatch) -> list[bool]:
    """Every ``SELECT 1`` health check Django runs against the server, with its verdict."""
    calls: list[bool] = []
    wrapper = type(connections["default"])
    original = wrapper.is_usable

    def is_usable(self):
        calls.append(original(self))
        return calls[-1]

    monkeypatch.setattr(wrapper, "is_usable", is_usable)
    return calls


def test_an_idle_kept_connection_costs_no_health_check_round_trip(kept_connection, server_checks):
    assert [request() for _ in range(3)] == [42] * 3
    assert connection.connection is kept_connection  # kept
    assert server_checks == []  # and the server was never asked SELECT 1


def test_a_connection_the_server_ended_is_replaced_before_the_request_uses_it(
    kept_connection, server_checks
):
    """What the health check is for: a restarted database (here, the server ending the
    connection) costs no failed request."""
    pid = kept_connection.info.backend_pid
    with psycopg.connect(**connection.get_connection_params(), autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
        deadline = time.monotonic() + 10
        while admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone():
            assert time.monotonic() < deadline, "the server did not end the connection"
            time.sleep(0.05)

    assert request() == 42

    assert server_checks == [False]  # the quiet check was unsure; the server's answer: gone
    assert connection.connection is not kept_connection
