"""Rate limits on the endpoints worth abusing: uploads (disk, validation in the workers) and
password checks (the token endpoint and the log-in form).

Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (``uploads``, ``tokens``,
``logins_account``), read on every request rather than once at import as DRF does, so a
changed setting applies at once (tests lower them; ``None`` disables a limit). Counts live in
the default cache: with several server processes it must be a shared one (Redis).

The client's address is DRF's ``get_ident`` with ``NUM_PROXIES`` set from
``ARENA_TRUSTED_PROXIES`` (default 0): ``X-Forwarded-For`` is read only when that many
proxies of ours stand in front, and then only the entry the last of them added, so a client
cannot name itself a fresh address per request.

Password guessing is limited per address *and* per account, counting failed attempts only:
a user behind a shared address who types the right password costs nobody anything, a
guesser moving from address to address still runs out of tries on the account, and a
client that spends its address's budget locks out only that address, not other accounts
reached from elsewhere (see docs/deploy.md for the trade-offs).
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest
from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle
from rest_framework.views import APIView

__all__ = ["LoginGuard", "UploadRateThrottle"]


class _SettingsRateThrottle(SimpleRateThrottle):
    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


class UploadRateThrottle(_SettingsRateThrottle):
    """Uploads per user (uploading needs an account, so the user is the right key)."""

    scope = "uploads"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        ident = request.user.pk if request.user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class _FailureCounter(_SettingsRateThrottle):
    """Failed attempts under one key in a sliding window; only failures are recorded."""

    def __init__(self, scope: str, ident: str) -> None:
        self.scope = scope
        super().__init__()
        self.key = self.cache_format % {"scope": scope, "ident": ident}

    def wait_if_spent(self) -> float | None:
        """Seconds until the next try is allowed, or None when one is allowed now."""
        if self.rate is None:
            return None
        self.now = time.time()
        self.history = [t for t in cache.get(self.key, []) if t > self.now - self.duration]
        if len(self.history) < self.num_requests:
            return None
        return max(1.0, self.wait() or 1.0)

    def record(self) -> None:
        if self.rate is None:
            return
        now = time.time()
        history = [t for t in cache.get(self.key, []) if t > now - self.duration]
        cache.set(self.key, [now, *history], self.duration)


class LoginGuard:
    """The password-guessing limits for one attempt: per client address and per account."""

    def __init__(self, request: HttpRequest | Request, username: Any) -> None:
        ident = BaseThrottle().get_ident(request)
        account = hashlib.sha256(str(username or "").strip().lower().encode()).hexdigest()
        self.counters = (
            _FailureCounter("tokens", ident),
            _FailureCounter("logins_account", account),
        )

    def wait(self) -> float | None:
        """Seconds to wait before this attempt may be checked, or None if it may go ahead."""
        waits = [w for counter in self.counters if (w := counter.wait_if_spent()) is not None]
        return max(waits) if waits else None

    def check(self) -> None:
        """Raise DRF's Throttled (429 with Retry-After) when a limit is spent."""
        wait = self.wait()
        if wait is not None:
            raise Throttled(wait=wait)

    def failed(self) -> None:
        """Count a wrong password (or an unknown user) against the address and the account."""
        for counter in self.counters:
            counter.record()
