"""Every answer carries the Content-Security-Policy (django-csp), the admin's and the API
docs' included, and no page needs an inline script or style that the policy would refuse.

The browser half (tests/arena/web/test_csp_browser.py) shows the pages working under it.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client

from tests.arena.factories import BotFactory
from tests.arena.web.data import bot_make, match_record, user_make

pytestmark = pytest.mark.django_db


def directives(response) -> dict[str, list[str]]:
    policy = response["Content-Security-Policy"]
    parsed = {}
    for part in policy.split(";"):
        name, *values = part.split()
        parsed[name] = values
    return parsed


class InlineCode(HTMLParser):
    """Inline scripts and styles (with their nonces), style="" and on*="" attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.inline: list[tuple[str, str | None]] = []
        self.attributes: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        executable = tag == "script" and named.get("type") not in {"application/json"}
        if (executable and "src" not in named) or tag == "style":
            self.inline.append((tag, named.get("nonce")))
        self.attributes += [
            f"{tag} {name}" for name, _ in attrs if name == "style" or name.startswith("on")
        ]


def staff_client() -> Client:
    staff = user_make("staffer")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client = Client()
    client.force_login(staff)
    return client


PAGES = [
    "/",
    "/games/lie21/",
    "/games/lie21/rules/",
    "/matches/",
    "/bots/",
    "/replay/",
    "/accounts/login/",
    "/docs/bot-api/",
    "/api/docs/",
    "/admin/login/",
    "/no-such-page/",
]


@pytest.mark.parametrize("path", PAGES)
def test_every_page_has_the_policy_and_no_inline_code_it_would_refuse(path):
    response = Client().get(path)
    assert response.status_code in (200, 404), path
    policy = directives(response)
    for kind in ("script-src", "style-src"):
        assert "'unsafe-inline'" not in policy[kind]
        assert "'unsafe-eval'" not in policy[kind]
    assert policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    page = InlineCode()
    page.feed(response.content.decode())
    nonces = {value[len("'nonce-") : -1] for value in policy["script-src"] if "nonce-" in value}
    for tag, nonce in page.inline:
        assert nonce is not None and nonce in nonces, f"{path}: inline <{tag}> without the nonce"
    assert not page.attributes, f"{path}: {page.attributes}"


def test_the_admin_pages_have_the_policy_and_no_inline_code():
    client = staff_client()
    bot = BotFactory()
    for path in ("/admin/", "/admin/arena/bot/", f"/admin/arena/bot/{bot.pk}/change/"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert "'unsafe-inline'" not in response["Content-Security-Policy"]
        page = InlineCode()
        page.feed(response.content.decode())
        assert all(nonce for _, nonce in page.inline), path
        assert not page.attributes, (path, page.attributes)


def test_swagger_ui_runs_its_start_up_script_by_this_responses_nonce():
    first, second = Client().get("/api/docs/"), Client().get("/api/docs/")
    nonce = re.search(r"'nonce-([^']+)'", first["Content-Security-Policy"]).group(1)
    assert f'<script nonce="{nonce}">' in first.content.decode()
    assert f'<style nonce="{nonce}">' in first.content.decode()
    assert nonce not in second["Content-Security-Policy"]  # a fresh one per response
    assert "SwaggerUIBundle(" in first.content.decode()


def test_redoc_is_gone_and_its_address_leads_to_swagger_ui():
    """ReDoc injects styles without the nonce and fetches its logo from cdn.redoc.ly."""
    response = Client().get("/api/redoc/")
    assert response.status_code == 301
    assert response["Location"] == "/api/docs/"


@pytest.mark.parametrize(
    "path", ["/api/matches/", "/api/bots/999/", "/api/auth/token/", "/healthz"]
)
def test_api_answers_carry_the_policy_too(path):
    assert "default-src 'self'" in Client().get(path)["Content-Security-Policy"]


def test_refusals_and_error_pages_carry_the_policy():
    big = Client().post(
        "/bots/1/upload/", b"x", content_type="application/zip", CONTENT_LENGTH=str(100 << 20)
    )
    assert big.status_code == 413
    assert "script-src 'self'" in big["Content-Security-Policy"]


def test_a_match_page_with_its_viewer_needs_no_inline_code():
    alpha = bot_make(user_make("alice"), name="alpha")
    match = match_record(alpha, bot_make(user_make("bob"), name="beta"))
    response = Client().get(f"/matches/{match.pk}/")
    assert response.status_code == 200
    page = InlineCode()
    page.feed(response.content.decode())
    assert not page.inline and not page.attributes


def test_only_the_playground_page_allows_inline_styles_and_its_scripts_stay_strict(owner):
    client = Client()
    client.force_login(owner)
    playground = directives(client.get("/games/lie21/play/"))
    assert playground["style-src"] == ["'self'", "'unsafe-inline'"]  # its bundled editor's
    assert playground["script-src"] == ["'self'"]
    assert playground["frame-ancestors"] == ["'none'"]
    elsewhere = directives(client.get("/games/lie21/"))
    assert "'unsafe-inline'" not in elsewhere["style-src"]
