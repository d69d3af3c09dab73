"""The OpenAPI schema: valid, complete, and no request it allows makes the server fail.

The schemathesis run authenticates as staff (who also owns bots), so every write endpoint
is exercised, and checks that no generated request, valid or not, gets a 5xx.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import hypothesis
import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema
from hypothesis import HealthCheck
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import response_schema_conformance

from engine.registry import GAMES
from tests.arena.factories import (
    MatchLogFactory,
    TournamentFactory,
    TournamentScheduleFactory,
    staff_match,
)


@pytest.fixture
def openapi() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


def test_the_schema_is_valid_openapi(openapi):
    validate_schema(openapi)


def test_the_upload_is_documented_as_multipart_with_its_errors(openapi):
    upload = openapi["paths"]["/api/bots/{bot_id}/versions/"]["post"]

    body = upload["requestBody"]["content"]
    assert list(body) == ["multipart/form-data"]
    assert set(upload["responses"]) == {
        *("201", "400", "401", "403", "404", "409", "411", "413", "414", "429")
    }
    error = upload["responses"]["413"]["content"]["application/json"]["schema"]["$ref"]
    assert error == "#/components/schemas/Error"


def test_every_operation_documents_its_errors_in_the_one_shape(openapi):
    components = openapi["components"]["schemas"]
    assert set(components["Error"]["required"]) == {"detail", "code"}
    assert "fields" in components["ValidationError"]["properties"]
    for path, operations in openapi["paths"].items():
        if path.startswith(("/api/schema", "/api/docs", "/api/redoc")):
            continue
        for method, operation in operations.items():
            errors = [code for code in operation["responses"] if code >= "400"]
            assert errors, f"{method.upper()} {path} documents no error response"


def test_public_reads_are_public_in_the_schema(openapi):
    for path in ("/api/tournaments/", "/api/tournaments/{tournament_id}/", "/api/bots/"):
        assert {} in openapi["paths"][path]["get"]["security"], path
    assert {} not in openapi["paths"]["/api/tournaments/"]["post"]["security"]
    assert {} not in openapi["paths"]["/api/schedules/"]["get"]["security"]


def test_a_bots_patch_needs_no_field_as_the_view_takes_none(openapi):
    body = openapi["paths"]["/api/bots/{bot_id}/"]["patch"]["requestBody"]["content"]
    ref = body["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]

    assert not openapi["components"]["schemas"][ref].get("required")


def test_lists_document_the_400_of_a_bad_page_size(openapi):
    for path, operations in openapi["paths"].items():
        get = operations.get("get", {})
        names = {parameter["name"] for parameter in get.get("parameters", [])}
        if "page_size" in names:
            assert "400" in get["responses"], path
            size = next(p for p in get["parameters"] if p["name"] == "page_size")
            assert size["schema"]["minimum"] == 1 and size["schema"]["maximum"] == 200


def test_every_operation_documents_the_servers_414(openapi):
    for path, operations in openapi["paths"].items():
        for method, operation in operations.items():
            assert "414" in operation["responses"], f"{method} {path}"
            assert "content" not in operation["responses"]["414"]


def test_lists_are_paginated_and_filters_documented(openapi):
    matches = openapi["paths"]["/api/matches/"]["get"]
    names = {parameter["name"] for parameter in matches["parameters"]}

    assert {"page", "page_size", "bot", "version", "tournament", "status", "game", "kind"} <= names
    ok = matches["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    assert ok.endswith("/PaginatedMatchOutputList")
    for path in ("/api/bots/", "/api/tournaments/"):
        assert "game" in {p["name"] for p in openapi["paths"][path]["get"]["parameters"]}
    for parameter in matches["parameters"]:
        if parameter["name"] in ("bot", "version", "tournament"):
            assert parameter["schema"]["minimum"] == 1, parameter["name"]


def test_matches_are_documented_seat_by_seat_without_two_seat_fields(openapi):
    components = openapi["components"]["schemas"]
    match = components["MatchOutput"]["properties"]
    seat = components["MatchSeat"]["properties"]

    assert match["seats"]["items"]["$ref"] == "#/components/schemas/MatchSeat"
    assert {"seat", "bot", "version", "placing", "score", "fault", "rating"} <= set(seat)
    assert {"winner", "totals", "seat_count", "ranked", "replay"} <= set(match)
    for name, component in components.items():
        for field in component.get("properties", {}):
            assert not field.endswith(("_a", "_b")), f"{name}.{field}"


def test_places_are_one_based_and_only_placings_count_from_zero(openapi):
    """Issue 32: one convention for places (docs/api.md, "Places": 1 = first); the only
    0-based rank is a ``placing``. docs/api.md said ``exit_place`` was 0 = first, and the
    playground's ``placings`` were called "places, 0 = first"."""
    zero_based = []
    for name, component in openapi["components"]["schemas"].items():
        for field, spec in component.get("properties", {}).items():
            text = (spec.get("description") or "").lower()
            if field.endswith("seat"):
                continue  # a seat number: 0 = first to act, not a place
            if "0 = first" in text or "0 is first" in text:
                zero_based.append(f"{name}.{field}")
                assert field.startswith("placing"), f"{name}.{field}: {text}"
                assert not re.search(r"place\W+0 = first", text), f"{name}.{field}: {text}"
            elif field.endswith("place") and "first" in text:
                assert "1 = first" in text, f"{name}.{field}: {text}"
    assert zero_based, "the placings document their base"
    docs = (Path(__file__).resolve().parents[3] / "docs" / "api.md").read_text()
    rows = [line for line in docs.splitlines() if line.startswith("|")]
    prose = "\n".join(line for line in docs.splitlines() if not line.startswith("|"))
    for sentence in rows + re.split(r"(?<=[.;])\s", prose):
        if "0 = first" in sentence:
            assert "placing" in sentence and "place`" not in sentence, sentence


def test_a_game_is_required_where_one_is_chosen(openapi):
    components = openapi["components"]["schemas"]
    for name in ("BotCreateRequest", "TournamentCreateRequest", "ScheduleWriteRequest"):
        assert "game" in components[name]["required"], name
        assert "default" not in components[name]["properties"]["game"], name
    assert "game" not in components["PatchedScheduleWriteRequest"].get("required", [])


def test_the_games_are_documented(openapi):
    assert "/api/games/" in openapi["paths"]
    one = openapi["paths"]["/api/games/{name}/"]["get"]
    assert set(one["responses"]) >= {"200", "404"}
    (name,) = [p for p in one["parameters"] if p["name"] == "name"]
    assert set(name["schema"]["enum"]) == set(GAMES)


def test_no_schema_example_or_public_component_exposes_owner_only_data(openapi):
    """Owner-only fields exist only where the owner gets them, and are documented as such."""
    components = openapi["components"]["schemas"]
    for name, component in components.items():
        for field in ("validation_log", "error_output", "output", "traceback", "sha256"):
            if field in component.get("properties", {}):
                assert name in {
                    "VersionDetailOutput",
                    "VersionOutput",
                    "MatchLogOutput",
                    "PlaygroundRun",  # the playground's: its author's alone
                    "PlaygroundRunMatch",
                }, name
    # The only examples are DRF's pagination ones (a count, page links).
    assert {type(value) for value in _values_of(openapi, "example")} <= {int, str}
    assert {value for value in _values_of(openapi, "example") if isinstance(value, str)} <= {
        "http://api.example.org/accounts/?page=4",
        "http://api.example.org/accounts/?page=2",
    }


def _values_of(node: object, name: str):
    if isinstance(node, dict):
        for key, value in node.items():
            if key in (name, f"{name}s"):
                yield value
            else:
                yield from _values_of(value, name)
    elif isinstance(node, list):
        for value in node:
            yield from _values_of(value, name)


# --- schemathesis -------------------------------------------------------------------------


def _live_schema() -> schemathesis.schemas.BaseSchema:
    """The app's schema, generated in-process (no request, no database) and bound to the app.

    Built at import, not from a fixture: schemathesis' ``from_fixture`` does not work with
    pytest 9. The rows to find and the token come from the test's own fixtures.
    """
    config = SchemathesisConfig.from_dict(
        {
            "generation": {"mode": "all", "max-examples": 25},
            "phases": {"coverage": {"enabled": False}, "stateful": {"enabled": False}},
        }
    )
    raw = json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True)))
    loaded = schemathesis.openapi.from_dict(raw, config=config)
    loaded.app = get_wsgi_application()
    return loaded


schema = _live_schema()


@pytest.fixture
def wsgi_in_test_transaction(settings):
    """Let WSGI calls share the test's transaction, as Django's test client does.

    A real WSGI request starts and ends by closing "old" connections, and inside the test's
    atomic block that closes the one connection the test is using.
    """
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "localhost"]
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


@pytest.fixture
def staff_token(db, wsgi_in_test_transaction, staff) -> str:
    """staff's token, with some rows of each kind for generated ids to find."""
    MatchLogFactory(match=staff_match(staff))
    TournamentFactory(created_by=staff)
    TournamentScheduleFactory(created_by=staff)
    return Token.objects.get_or_create(user=staff)[0].key


@pytest.mark.slow
@schema.parametrize()
@hypothesis.settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
    derandomize=True,
)
def test_no_request_makes_the_server_fail(case, staff_token):
    # identity: the in-process WSGI client does not decode gzip as a real client does (the
    # replay's gzip pass-through is tested on its own).
    case.call_and_validate(
        headers={"Authorization": f"Token {staff_token}", "Accept-Encoding": "identity"},
        checks=[not_a_server_error, response_schema_conformance],
    )
