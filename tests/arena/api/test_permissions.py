"""Who may call what: every endpoint and method, for each of the cast.

One row per request; the five expected statuses are for anonymous, the owner (alice, who
owns bot ``alpha``), another user (bob), an organiser who is not staff (oscar, in the
"organisers" group) and staff (olga). Every error comes in the one JSON
shape, and every write without credentials is a 401.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import override_settings

from arena.services.accounts import organiser_make
from arena.services.challenges import challenge_create
from tests.arena.factories import (
    BotFactory,
    BotVersionFactory,
    MatchFactory,
    MatchLogFactory,
    PlaygroundDraftFactory,
    PlaygroundRunFactory,
    RatingFactory,
    ReplayFactory,
    TournamentFactory,
    TournamentScheduleFactory,
    UserFactory,
)
from tests.arena.helpers import assert_error, client_for

ROLES = ("anon", "owner", "other", "organiser", "staff")


@pytest.fixture(scope="module")
def world_media(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("media")


@pytest.fixture(autouse=True)
def media_root(settings, world_media: Path) -> Path:
    """The world's stored files (the version's source) stay where every test finds them."""
    settings.MEDIA_ROOT = world_media
    return world_media


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker, world_media: Path) -> Iterator[dict[str, Any]]:
    """alice's bot alpha against carol's bot gamma, rated, in a match with logs and replay.

    Built once for the module (350 requests) inside a transaction rolled back after the last
    one. Each test runs in a savepoint of its own (the ``db`` fixture) that is rolled back
    after it, so every request still meets the same fresh world.
    """
    with django_db_blocker.unblock(), override_settings(MEDIA_ROOT=world_media):
        atomic = transaction.atomic()
        atomic.__enter__()
        built = _built_world()
    yield built
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        atomic.__exit__(None, None, None)


def _built_world() -> dict[str, Any]:
    users = get_user_model().objects
    owner = users.create_user("alice", "alice@example.com", "alice-pass-123")
    other_user = users.create_user("bob", "bob@example.com", "bob-pass-123")
    staff = users.create_user("olga", "olga@example.com", "olga-pass-123", is_staff=True)
    carol = UserFactory(username="carol")
    oscar = organiser_make(username=UserFactory(username="oscar").username)
    alpha = BotVersionFactory(bot=BotFactory(owner=owner, name="alpha")).bot
    gamma = BotVersionFactory(bot=BotFactory(owner=carol, name="gamma")).bot
    for bot in (alpha, gamma):
        RatingFactory(version=bot.active_version)
    match = MatchFactory(versions=[alpha.active_version, gamma.active_version])
    challenge = challenge_create(
        user=owner,
        version_id=alpha.active_version_id,
        rival_version_ids=[gamma.active_version_id],
        matches=2,
    )
    ReplayFactory(match=match)
    MatchLogFactory(match=match, seat=0)
    MatchLogFactory(match=match, seat=1)
    return {
        "clients": {
            "anon": client_for(None),
            "owner": client_for(owner),
            "other": client_for(other_user),
            "organiser": client_for(oscar),
            "staff": client_for(staff),
        },
        "ids": {
            "bot": alpha.pk,
            "match": match.pk,
            "tournament": TournamentFactory(created_by=staff).pk,
            "schedule": TournamentScheduleFactory(created_by=staff).pk,
            "challenge": challenge.pk,
            "version": alpha.active_version_id,
            "rival": gamma.active_version_id,
            "draft": PlaygroundDraftFactory(owner=owner).pk,
            "run": PlaygroundRunFactory(owner=owner).pk,
        },
    }


def upload_body() -> dict[str, Any]:
    return {"file": SimpleUploadedFile("bot.py", b"def act(o):\n    return 1\n")}


def write(
    anon: int = 401,
    owner: int = 403,
    other: int = 403,
    staff: int = 403,
    organiser: int | None = None,
) -> tuple:
    """The statuses by role; an organiser is answered as any other user unless said."""
    return (anon, owner, other, other if organiser is None else organiser, staff)


def everyone(status: int) -> tuple:
    return (status,) * len(ROLES)


ORGANISERS = write(organiser=200, staff=200)
TOKEN = {"username": "alice", "password": "alice-pass-123"}

# (method, path, body, (anon, owner, other, staff))
MATRIX = [
    ("post", "/api/auth/token/", TOKEN, everyone(200)),
    ("get", "/api/auth/token/", None, everyone(405)),
    ("get", "/api/bots/", None, everyone(200)),
    (
        "post",
        "/api/bots/",
        {"name": "newbot", "game": "lie21"},
        write(owner=201, other=201, staff=201),
    ),
    ("put", "/api/bots/", {}, write(owner=405, other=405, staff=405)),
    ("get", "/api/bots/{bot}/", None, everyone(200)),
    ("patch", "/api/bots/{bot}/", {"description": "Now bluffing."}, write(owner=200)),
    ("put", "/api/bots/{bot}/", {"description": "x"}, write(owner=405, other=405, staff=405)),
    ("delete", "/api/bots/{bot}/", None, write(owner=405, other=405, staff=405)),
    ("post", "/api/bots/{bot}/deactivate/", None, write(owner=200)),
    ("get", "/api/bots/{bot}/deactivate/", None, everyone(405)),
    ("get", "/api/bots/{bot}/versions/", None, everyone(200)),
    ("post", "/api/bots/{bot}/versions/", upload_body, write(owner=201)),
    ("get", "/api/bots/{bot}/versions/1/", None, everyone(200)),
    ("delete", "/api/bots/{bot}/versions/1/", None, write(owner=405, other=405, staff=405)),
    ("get", "/api/bots/{bot}/versions/1/source/", None, write(owner=200)),
    ("get", "/api/games/", None, everyone(200)),
    ("post", "/api/games/", {}, write(owner=405, other=405, staff=405)),
    ("get", "/api/games/lie21/", None, everyone(200)),
    ("get", "/api/games/chess/", None, everyone(404)),
    ("delete", "/api/games/lie21/", None, write(owner=405, other=405, staff=405)),
    ("get", "/api/ladder/lie21/", None, everyone(200)),
    ("get", "/api/ladder/highcard/", None, everyone(200)),
    ("get", "/api/ladder/chess/", None, everyone(404)),
    ("post", "/api/ladder/lie21/", {}, write(owner=405, other=405, staff=405)),
    ("get", "/api/matches/", None, everyone(200)),
    ("post", "/api/matches/", {}, write(owner=405, other=405, staff=405)),
    ("get", "/api/matches/{match}/", None, everyone(200)),
    ("delete", "/api/matches/{match}/", None, write(owner=405, other=405, staff=405)),
    ("get", "/api/matches/{match}/replay/", None, everyone(200)),
    ("get", "/api/matches/{match}/logs/", None, write(owner=200, staff=200)),
    ("get", "/api/challenges/", None, write(owner=200, other=200, staff=200)),
    (
        "post",
        "/api/challenges/",
        {"version": "{version}", "rivals": ["{rival}"], "matches": 2},
        write(owner=201),
    ),
    ("get", "/api/challenges/{challenge}/", None, write(owner=200, other=404, staff=200)),
    ("delete", "/api/challenges/{challenge}/", None, write(owner=405, other=405, staff=405)),
    # The playground: every account has its own; another's draft or run is a 404, for staff too.
    ("get", "/api/playground/drafts/", None, write(owner=200, other=200, staff=200)),
    (
        "post",
        "/api/playground/drafts/",
        {"game": "lie21", "source": "def act(o):\n"},
        write(owner=200, other=200, staff=200),
    ),
    ("get", "/api/playground/drafts/{draft}/", None, write(owner=200, other=404, staff=404)),
    ("delete", "/api/playground/drafts/{draft}/", None, write(owner=405, other=405, staff=405)),
    # Whom a run may seat: the caller's own versions and the public ladder, for anyone signed in.
    (
        "get",
        "/api/playground/opponents/",
        {"game": "lie21"},
        write(owner=200, other=200, staff=200),
    ),
    ("post", "/api/playground/opponents/", None, write(owner=405, other=405, staff=405)),
    ("get", "/api/playground/runs/", None, write(owner=200, other=200, staff=200)),
    (
        "post",
        "/api/playground/runs/",
        {
            "game": "lie21",
            "source": "def act(o):\n    return {}\n",
            "opponents": ["random"],
            "matches": 1,
        },
        write(owner=201, other=201, staff=201),
    ),
    ("get", "/api/playground/runs/{run}/", None, write(owner=200, other=404, staff=404)),
    ("delete", "/api/playground/runs/{run}/", None, write(owner=405, other=405, staff=405)),
    (
        "get",
        "/api/playground/runs/{run}/matches/1/replay/",
        None,
        write(owner=200, other=404, staff=404),
    ),
    ("get", "/api/tournaments/", None, everyone(200)),
    (
        "post",
        "/api/tournaments/",
        {"name": "Spring cup", "game": "lie21"},
        write(organiser=201, staff=201),
    ),
    ("get", "/api/tournaments/{tournament}/", None, everyone(200)),
    ("patch", "/api/tournaments/{tournament}/", {}, write(owner=405, other=405, staff=405)),
    ("post", "/api/tournaments/{tournament}/start/", None, ORGANISERS),
    ("post", "/api/tournaments/{tournament}/cancel/", None, ORGANISERS),
    ("get", "/api/tournaments/{tournament}/standings/", None, everyone(200)),
    ("get", "/api/tournaments/{tournament}/standings.csv", None, everyone(200)),
    ("get", "/api/tournaments/{tournament}/crosstable.csv", None, everyone(200)),
    ("get", "/api/tournaments/{tournament}/notes.txt", None, everyone(200)),
    ("get", "/api/tournaments/{tournament}/replays.zip", None, everyone(200)),
    ("get", "/api/tournaments/{tournament}/signups/", None, everyone(200)),
    # A tournament that takes no sign-ups: any account is told so (a 409); who may sign
    # which bot up is tested in test_tournament_entry.py.
    (
        "post",
        "/api/tournaments/{tournament}/signups/",
        {"bot": 1},
        write(owner=409, other=409, staff=409),
    ),
    (
        "delete",
        "/api/tournaments/{tournament}/signups/{bot}/",
        None,
        write(owner=409, other=409, staff=409),
    ),
    ("get", "/api/schedules/", None, ORGANISERS),
    (
        "post",
        "/api/schedules/",
        {"name": "Weekly", "game": "lie21", "crontab": "0 4 * * 1"},
        write(organiser=201, staff=201),
    ),
    ("get", "/api/schedules/{schedule}/", None, ORGANISERS),
    ("patch", "/api/schedules/{schedule}/", {"enabled": False}, ORGANISERS),
    ("put", "/api/schedules/{schedule}/", {}, write(organiser=405, staff=405)),
    # The last row for the schedule: each role's request runs in a fresh world.
    ("delete", "/api/schedules/{schedule}/", None, write(organiser=204, staff=204)),
    ("get", "/api/schema/", None, everyone(200)),
    ("get", "/api/docs/", None, everyone(200)),
    ("get", "/api/redoc/", None, everyone(301)),  # to /api/docs/ (ReDoc is gone)
    ("get", "/api/nothing-here/", None, everyone(404)),
]

CASES = [
    pytest.param(method, path, body, role, expected[index], id=f"{method} {path} {role}")
    for method, path, body, expected in MATRIX
    for index, role in enumerate(ROLES)
]


def _filled(body: Any, ids: dict[str, int]) -> Any:
    """The body with each ``"{name}"`` string replaced by that id (an integer)."""
    if isinstance(body, dict):
        return {key: _filled(value, ids) for key, value in body.items()}
    if isinstance(body, list):
        return [_filled(value, ids) for value in body]
    if isinstance(body, str) and body.startswith("{") and body.endswith("}"):
        return ids[body[1:-1]]
    return body


@pytest.mark.parametrize(("method", "path", "body", "role", "status"), CASES)
def test_it_answers_each_role_as_the_matrix_says(db, world, method, path, body, role, status):
    client = world["clients"][role]
    url = path.format(**world["ids"])
    data = body() if callable(body) else _filled(body, world["ids"])
    fmt = "multipart" if callable(body) else "json"

    response = getattr(client, method)(url, data, format=fmt)

    assert response.status_code == status, (response.status_code, response.content[:300])
    if status >= 400:
        assert_error(response, status)
    if status == 401:
        assert response.json()["code"] == "not_authenticated"
        assert response["WWW-Authenticate"] == "Token"


def test_the_matrix_covers_every_api_route():
    """A new endpoint must be added to the matrix above."""
    from django.urls import get_resolver

    resolver = get_resolver()
    api = next(p for p in resolver.url_patterns if str(p.pattern) == "api/")
    routes = {str(p.pattern) for p in api.url_patterns if "(?P<rest>" not in str(p.pattern)}
    covered = {path for _, path, _, _ in MATRIX}
    normalized = {
        route.replace("<api_id:bot_id>", "{bot}")
        .replace("<api_id:number>", "1")
        .replace("<api_id:match_id>", "{match}")
        .replace("<api_id:tournament_id>", "{tournament}")
        .replace("<api_id:schedule_id>", "{schedule}")
        .replace("<api_id:challenge_id>", "{challenge}")
        .replace("<api_id:draft_id>", "{draft}")
        .replace("<api_id:run_id>", "{run}")
        .replace("<str:game>", "lie21")
        .replace("<str:name>", "lie21")
        for route in routes
    }
    assert {f"/api/{route}" for route in normalized} <= covered
