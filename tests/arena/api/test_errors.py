"""The one error shape: ``{"detail", "code"}`` (plus ``fields``) for every kind of error."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, RequestDataTooBig, ValidationError
from django.http import Http404
from rest_framework import exceptions

from arena.api.errors import exception_handler
from arena.errors import Conflict, DomainError, Forbidden, NotFound, TooLarge
from tests.arena.factories import BotFactory
from tests.arena.helpers import assert_error

CASES = [
    (Conflict("taken", code="name_taken"), 409, {"detail": "taken", "code": "name_taken"}),
    (Forbidden("not yours"), 403, {"detail": "not yours", "code": "permission_denied"}),
    (NotFound("gone"), 404, {"detail": "gone", "code": "not_found"}),
    (TooLarge("big"), 413, {"detail": "big", "code": "too_large"}),
    (DomainError("bad"), 400, {"detail": "bad", "code": "invalid"}),
    (Http404("whatever"), 404, {"detail": "Not found.", "code": "not_found"}),
    (
        PermissionDenied(),
        403,
        {
            "detail": "You do not have permission to perform this action.",
            "code": "permission_denied",
        },
    ),
    (
        RequestDataTooBig(),
        413,
        {"detail": "The request body is too large.", "code": "too_large"},
    ),
    (
        exceptions.MethodNotAllowed("PUT"),
        405,
        {"detail": 'Method "PUT" not allowed.', "code": "method_not_allowed"},
    ),
    (
        exceptions.NotAuthenticated(),
        401,
        {"detail": "Authentication credentials were not provided.", "code": "not_authenticated"},
    ),
    (
        ValidationError({"name": ["Too short."]}),
        400,
        {"detail": "name: Too short.", "code": "invalid", "fields": {"name": ["Too short."]}},
    ),
    (
        exceptions.ValidationError({"bot": {"name": ["Bad."]}}),
        400,
        {"detail": "bot.name: Bad.", "code": "invalid", "fields": {"bot": {"name": ["Bad."]}}},
    ),
    (
        exceptions.ValidationError(["Whole thing is wrong."], code="wrong"),
        400,
        {
            "detail": "Whole thing is wrong.",
            "code": "wrong",
            "fields": {"non_field_errors": ["Whole thing is wrong."]},
        },
    ),
]


@pytest.mark.parametrize(("exc", "status", "body"), CASES, ids=[type(c[0]).__name__ for c in CASES])
def test_it_maps_each_error_to_the_one_shape(exc, status, body):
    response = exception_handler(exc, {})

    assert response.status_code == status
    assert response.data == body


def test_it_answers_401_with_a_token_challenge():
    response = exception_handler(exceptions.NotAuthenticated(), {})

    assert response["WWW-Authenticate"] == "Token"


def test_it_tells_a_throttled_client_when_to_retry():
    response = exception_handler(exceptions.Throttled(wait=42.4), {})

    assert response.status_code == 429
    assert response.data["code"] == "throttled"
    assert response["Retry-After"] == "43"  # DRF rounds the wait up


def test_it_leaves_unexpected_errors_to_django():
    assert exception_handler(RuntimeError("bug"), {}) is None


def test_unknown_api_paths_answer_in_the_shape(anon_client):
    response = anon_client.get("/api/no/such/thing/")

    assert response.status_code == 404
    assert response.json() == {"detail": "Not found.", "code": "not_found"}


def test_a_missing_trailing_slash_is_redirected(anon_client):
    assert anon_client.get("/api/bots").status_code == 301


@pytest.mark.parametrize(
    "path",
    [
        "/api/matches/38253640576257469821485056/",
        "/api/matches/38253640576257469821485056/replay/",
        "/api/bots/9999999999999999999999/versions/1/",
    ],
)
def test_an_id_too_big_for_the_database_is_a_404(anon_client, path):
    assert_error(anon_client.get(path), 404, "not_found")


def _nested(depth: int) -> str:
    return '{"description": ' + "[" * depth + "]" * depth + "}"


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_a_body_nested_past_the_stack_is_a_parse_error(anon_client, depth):
    """Anyone can send it (the token endpoint takes anonymous JSON): a 400, never a 500."""
    response = anon_client.post("/api/auth/token/", _nested(depth), content_type="application/json")

    body = assert_error(response, 400, "parse_error")
    assert "nested too deeply" in body["detail"]


def test_a_deeply_nested_edit_changes_nothing(owner_client, owner):
    bot = BotFactory(owner=owner, description="Mine.")

    response = owner_client.patch(
        f"/api/bots/{bot.pk}/", _nested(5_000), content_type="application/json"
    )

    assert_error(response, 400, "parse_error")
    bot.refresh_from_db()
    assert bot.description == "Mine."


def test_too_many_form_fields_answer_in_the_shape(anon_client, settings):
    """Django refuses these before the view runs; under /api/ the refusal is JSON too."""
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 10
    form = "&".join(f"f{i}=x" for i in range(11))

    response = anon_client.post(
        "/api/auth/token/", form, content_type="application/x-www-form-urlencoded"
    )

    assert_error(response, 400, "bad_request")


def test_too_many_form_fields_on_a_page_get_the_plain_page(client, settings):
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 10
    form = "&".join(f"f{i}=x" for i in range(11))

    response = client.post(
        "/accounts/login/", form, content_type="application/x-www-form-urlencoded"
    )

    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize(
    "path", ["/api/bots/", "/api/challenges/", "/api/tournaments/", "/api/schedules/"]
)
def test_every_json_endpoint_refuses_a_too_deep_body(staff_client, path):
    response = staff_client.post(path, _nested(5_000), content_type="application/json")

    assert_error(response, 400, "parse_error")
