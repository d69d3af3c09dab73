"""The rate limit on uploads: disk, and validation matches in the workers.

The rate comes from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["uploads"]``
(``ARENA_THROTTLE_UPLOADS``), read on every request rather than once at import as DRF does,
so a changed setting applies at once (tests lower it; ``None`` disables it). Counts live in
the default cache: with several server processes it must be a shared one (Redis).

Wrong passwords are limited elsewhere, per account and per address, by django-axes
(``arena.web.logins``).
"""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from arena.web.addresses import client_address

__all__ = ["UploadRateThrottle"]


class UploadRateThrottle(SimpleRateThrottle):
    """Uploads per user (uploading needs an account, so the user is the right key)."""

    scope = "uploads"

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_ident(self, request: Any) -> str:
        return client_address(request)

    def get_cache_key(self, request: Request, view: APIView) -> str:
        ident = request.user.pk if request.user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}
