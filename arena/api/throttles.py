"""Rate limits on the two endpoints worth abusing: uploads (disk, validation in the
workers) and token requests (password guessing).

Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (``uploads``, ``tokens``), read
on every request rather than once at import as DRF does, so a changed setting applies at
once (tests lower them; ``None`` disables a throttle). Counts live in the default cache:
with several server processes it must be a shared one (Redis) to count across them.
"""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

__all__ = ["TokenRateThrottle", "UploadRateThrottle"]


class _SettingsRateThrottle(SimpleRateThrottle):
    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


class UploadRateThrottle(_SettingsRateThrottle):
    """Uploads per user (uploading needs an account, so the user is the right key)."""

    scope = "uploads"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        ident = request.user.pk if request.user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class TokenRateThrottle(_SettingsRateThrottle):
    """Token requests per client address: the caller is not yet anyone."""

    scope = "tokens"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
