"""A Content-Security-Policy for the arena's own pages.

Bot names and descriptions are user input. Templates escape them; the policy is the second
line: even an injected tag could not run a script or load anything from elsewhere. Our pages
load only their own static files (no inline scripts). Swagger UI and ReDoc under /api/
bring their own inline scripts and are left to their defaults.
"""

from __future__ import annotations

from collections.abc import Callable

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


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        is_html = response.get("Content-Type", "").startswith("text/html")
        if is_html and not request.path.startswith(EXEMPT_PREFIXES):
            response.setdefault("Content-Security-Policy", POLICY)
        return response
