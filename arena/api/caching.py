"""API answers given to a signed-in client are private: no shared cache keeps them.

A bot's source, its logs and the owner's fields of a version are answered only to its
owner. RFC 9111 already keeps a shared cache from storing an answer to a request with an
``Authorization`` header, and Django varies on ``Cookie`` once the session is read; saying
``private`` outright does not depend on every proxy between the arena and its users getting
that right. Answers that set their own ``Cache-Control`` (a public replay) keep it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control, patch_vary_headers

__all__ = ["PrivateApiAnswersMiddleware"]


class PrivateApiAnswersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.path.startswith("/api/") or response.has_header("Cache-Control"):
            return response
        signed_in = "Authorization" in request.headers or (
            settings.SESSION_COOKIE_NAME in request.COOKIES
        )
        if signed_in:
            patch_cache_control(response, private=True, no_cache=True)
            patch_vary_headers(response, ("Authorization", "Cookie"))
        return response
