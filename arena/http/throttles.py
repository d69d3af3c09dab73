"""The rate limits on uploads (disk, and validation matches in the workers) and on playground
runs asked for (each one's source check is a child interpreter: up to 5 s of CPU).

The rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``: ``uploads``
(``ARENA_THROTTLE_UPLOADS``) and ``playground_checks`` (``ARENA_THROTTLE_PLAYGROUND_CHECKS``),
read on every request rather than once at import as DRF does, so a changed setting applies
at once (tests lower them; ``None`` disables one). Counts live in the default cache: with
several server processes it must be a shared one (Redis).

Wrong passwords are limited elsewhere, per account and per address, by django-axes
(``arena.http.logins``).
"""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from arena.http.addresses import client_address

__all__ = ["PlaygroundCheckThrottle", "UploadRateThrottle"]


class UploadRateThrottle(SimpleRateThrottle):
    """Uploads per user (uploading needs an account, so the user is the right key)."""

    scope = "uploads"

    def get_rate(self) -> str | None:
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)  # "30/hour", or None
        return None if rate is None else str(rate)

    def get_ident(self, request: Any) -> str:
        return client_address(request)

    def get_cache_key(self, request: Request, view: APIView) -> str:
        ident = request.user.pk if request.user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class PlaygroundCheckThrottle(UploadRateThrottle):
    """Playground runs asked for per user, refused ones too: the hourly run quota
    (``ARENA_PLAYGROUND_RUNS_PER_HOUR``) counts only runs that were queued, while every
    request, a draft refused by its source check included, costs that check."""

    scope = "playground_checks"
