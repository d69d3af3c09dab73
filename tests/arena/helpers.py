"""Helpers the arena tests share: clients for the cast, the error shape, stored files,
the database at an earlier migration, the keys of a standings row, a valid schedule form."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

#: A rating's record of 10 matches (6 won, 1 drawn, 3 lost, a place sum of 3) as the API
#: shows it.
TEN_MATCHES = {
    "matches": 10,
    "wins": 6,
    "draws": 1,
    "losses": 3,
    "first_places": 7,
    "mean_place": 1.3,
    "win_rate": 0.6,
}
#: The keys of a tournament's standings (the API's and the services' alike).
STANDINGS_FIELDS = {
    "version",
    "tournament",
    "game",
    "format",
    "seats",
    "matches_per_pairing",
    "status",
    "matches_total",
    "matches_done",
    "matches_planned",
    "how_to_read",
    "rows",
    "crosstable",
}
#: The keys of a row of a tournament's standings (the API's and the services' alike).
STANDINGS_ROW_FIELDS = {
    "rank",
    "bot",
    "version",
    "seed",
    "played",
    "points",
    "points_interval",
    "first_places",
    "wins",
    "draws",
    "losses",
    "mean_place",
    "match_points",
    "faults",
    "superiority_over_next",
}


def client_for(user=None) -> APIClient:
    """An API client that authenticates with the user's token (anonymous without one)."""
    client = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def stored_files(root: Path) -> list[Path]:
    return [path for path in root.rglob("*") if path.is_file()]


def assert_error(response, status: int, code: str | None = None) -> dict:
    """The response is an API error of ``status`` in the one shape, and returns its body."""
    assert response.status_code == status, (response.status_code, response.content[:500])
    body = response.json()
    assert isinstance(body.get("detail"), str) and body["detail"]
    assert isinstance(body.get("code"), str) and body["code"]
    assert set(body) <= {"detail", "code", "fields", "line"}
    if code is not None:
        assert body["code"] == code, body
    return body


def migrate_to(target: list[tuple[str, str]]):
    """Migrate the test database to ``target`` (forward or back); the models as they were
    there, for writing data in that shape."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


@contextmanager
def migrated_back(target: list[tuple[str, str]]) -> Iterator:
    """The models at ``target``, the database migrated there; back to the latest after,
    as the other tests expect it."""
    apps = migrate_to(target)
    try:
        yield apps
    finally:
        call_command("migrate", verbosity=0)


def schedule_admin_form(**fields: object) -> dict[str, object]:
    """The admin's change form of a tournament schedule, every field valid (the nightly
    round robin of Lie 21), with ``fields`` over it."""
    return {
        "name": "Nightly",
        "game": "lie21",
        "crontab": "0 3 * * *",
        "enabled": "on",
        "due_after_0": "2026-01-01",
        "due_after_1": "00:00:00",
        "format": "round_robin",
        "matches_per_pairing": "1",
        "rated": "on",
        "entry": "all",
    } | fields
