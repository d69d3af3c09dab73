"""A Content-Security-Policy for the arena's own pages.

Bot names and descriptions are user input. Templates escape them; the policy is the second
line: even an injected tag could not run a script or load anything from elsewhere. Our pages
load only their own static files (no inline scripts). Swagger UI and ReDoc under /api/
bring their own inline scripts and are left to their defaults.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse

POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",  # the standalone error pages style themselves
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
EXEMPT_PREFIXES = ("/api/docs", "/api/redoc", "/admin/")
#: The policy of a page the site frames in its own pages (a playground match's viewer):
#: the same, but framable by this origin (and no other).
FRAMEABLE_POLICY = POLICY.replace("frame-ancestors 'none'", "frame-ancestors 'self'")


def frameable_by_self(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Let the site's own pages frame ``view``'s page (pair it with Django's
    ``xframe_options_sameorigin``); the middleware keeps a policy the view set."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        if response.get("Content-Type", "").startswith("text/html"):
            response["Content-Security-Policy"] = FRAMEABLE_POLICY
        return response

    return wrapper


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        is_html = response.get("Content-Type", "").startswith("text/html")
        if is_html and not request.path.startswith(EXEMPT_PREFIXES):
            response.setdefault("Content-Security-Policy", POLICY)
        return response
