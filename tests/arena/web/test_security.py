"""arena.web.security.PolicyMiddleware: django-csp's headers, the settings' policy built once
per process for answers without a nonce or a per-view change."""

from __future__ import annotations

import pytest
from csp.constants import NONCE, SELF
from csp.decorators import csp_exempt, csp_update
from csp.middleware import CSPMiddleware
from csp.utils import build_policy
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from arena.web import security
from arena.web.security import PolicyMiddleware


def _parsed(header: str) -> dict[str, list[str]]:
    return {name: values for name, *values in (part.split() for part in header.split(";"))}


def _answer(view=lambda request: HttpResponse("ok"), *, nonce=False, path="/"):
    """The headers PolicyMiddleware and django-csp's own middleware give one request."""
    answers = []
    for middleware in (PolicyMiddleware, CSPMiddleware):
        request = RequestFactory().get(path)
        handler = middleware(view)
        handler.process_request(request)
        if nonce:
            str(request.csp_nonce)  # the page asked for it
        answers.append((request, handler.process_response(request, view(request))))
    return answers


def test_a_plain_answer_gets_the_settings_policy_as_django_csp_writes_it():
    (mine, ours), (_, theirs) = _answer()
    assert _parsed(ours["Content-Security-Policy"]) == _parsed(theirs["Content-Security-Policy"])
    assert ours["Content-Security-Policy"] == build_policy()
    with pytest.raises(Exception, match="after the CSP header"):
        str(mine.csp_nonce)  # too late for a nonce, as with django-csp


def test_the_built_policy_is_reused():
    security._built.clear()
    _answer()
    kept = security._built[False]
    (_, ours), _ = _answer()
    assert ours["Content-Security-Policy"] is kept


def test_a_page_that_asked_for_a_nonce_gets_its_own_nonce():
    (request, ours), _ = _answer(nonce=True)
    assert f"'nonce-{request._csp_nonce}'" in _parsed(ours["Content-Security-Policy"])["script-src"]


def test_per_view_changes_and_exemptions_are_honoured():
    updated = csp_update({"img-src": ["https://example.org"]})(lambda request: HttpResponse())
    (_, ours), (_, theirs) = _answer(updated)
    assert "https://example.org" in _parsed(ours["Content-Security-Policy"])["img-src"]
    assert _parsed(ours["Content-Security-Policy"]) == _parsed(theirs["Content-Security-Policy"])
    exempt = csp_exempt()(lambda request: HttpResponse())
    (_, ours), _ = _answer(exempt)
    assert "Content-Security-Policy" not in ours


def test_a_header_the_view_set_is_kept():
    def view(request):
        response = HttpResponse()
        response["Content-Security-Policy"] = "default-src 'none'"
        return response

    (_, ours), _ = _answer(view)
    assert ours["Content-Security-Policy"] == "default-src 'none'"


def test_changed_settings_are_served_at_once_with_report_only_and_excluded_prefixes():
    _answer()  # one policy built and kept
    policy = {"DIRECTIVES": {"default-src": [SELF], "script-src": [SELF, NONCE]}}
    report = {"EXCLUDE_URL_PREFIXES": ["/hidden"], "DIRECTIVES": {"default-src": [SELF]}}
    with override_settings(
        CONTENT_SECURITY_POLICY=policy, CONTENT_SECURITY_POLICY_REPORT_ONLY=report
    ):
        (_, ours), (_, theirs) = _answer()
        assert _parsed(ours["Content-Security-Policy"]) == {
            "default-src": ["'self'"],
            "script-src": ["'self'"],
        }
        assert _parsed(theirs["Content-Security-Policy"]) == _parsed(
            ours["Content-Security-Policy"]
        )
        assert ours["Content-Security-Policy-Report-Only"] == "default-src 'self'"
        (_, hidden), (_, theirs_hidden) = _answer(path="/hidden/page")
        assert "Content-Security-Policy-Report-Only" not in hidden
        assert "Content-Security-Policy-Report-Only" not in theirs_hidden
    (_, after), _ = _answer()
    assert "object-src" in _parsed(after["Content-Security-Policy"])
