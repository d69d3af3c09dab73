"""Wrong passwords slow the guesser down without locking the owner out.

django-axes records every failed log-in (the site's form, the admin's, and the API's
``POST /api/auth/token/``: all go through ``django.contrib.auth.authenticate``) as one row per
account, client address and user agent, in the database every web process shares. This
module is the policy axes asks before each password is checked (``AXES_HANDLER``): whether
this attempt, by this account name from this address, must wait first, and how long.

Three counts over the failures of the last day (``AXES_COOLOFF_TIME``: a day without failures
from an address on an account forgets them), each with its own threshold:

* **account and address** (``ARENA_LOGIN_FAILURES``, 5): an address that has failed that
  often on one account waits before its next try on it;
* **account, from every address** (``ARENA_LOGIN_ACCOUNT_FAILURES``, 10): once an account
  has failed that often in all, an address that has itself failed on it
  ``ARENA_LOGIN_SHARED_AFTER`` times (3) waits before its next try on it, counted from *its
  own* latest failure there. The owner is never held by others: an address that has not
  failed on the account, or has failed there less often than that (a typo or two), logs in
  at once however many guessers are at work elsewhere, and an address that is held waits at
  most ``ARENA_LOGIN_MAX_WAIT_S`` after its own latest failure, which nobody else's failures
  can stretch. A guesser spreading over many addresses gets a few tries per address and
  then one per longest wait per address;
* **address, on every account** (``ARENA_LOGIN_ADDRESS_FAILURES``, 30): an address that has
  failed that often on any accounts waits (one client trying many accounts).

An "address" is an IPv4 address, or an IPv6 network of ``ARENA_LOGIN_IPV6_PREFIX`` bits (a
/64 by default, recorded as its first address): one host is commonly given a whole /64, and
each of its 2**64 addresses must not be a fresh address with fresh tries.

Each wait starts at ``ARENA_LOGIN_WAIT_S`` (30 s) and doubles with every failure past the
threshold, up to ``ARENA_LOGIN_MAX_WAIT_S`` (15 minutes): a guesser's pace falls to a few
tries an hour per address while a person who mistyped waits half a minute. Refused attempts
are not counted (the password is not even checked), so waiting out the delay always gives a
try; a right password forgives that address's failures on the account. The trade-offs are in
docs/deploy.md ("Client addresses and log-in limits").
"""

from __future__ import annotations

import math
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Max, Q, Sum
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils import timezone

from arena.http.addresses import address_group, client_address

__all__ = [
    "LoginLimitsHandler",
    "account_name",
    "forgive_failures",
    "lockout_response",
    "login_address",
    "refusal_sentence",
    "wait_after",
]

#: Doubling stops here; 2**20 x 30 s is far past any cap anyone would set.
_MAX_DOUBLINGS = 20


def login_address(request: Any) -> str:
    """The client address failures are counted under (``AXES_CLIENT_IP_CALLABLE``): the
    client's, with IPv6 addresses grouped by ``ARENA_LOGIN_IPV6_PREFIX`` (a /64 is one
    address here, as one IPv4 address is; see docs/deploy.md)."""
    return address_group(client_address(request), settings.ARENA_LOGIN_IPV6_PREFIX)


def account_name(request: Any, credentials: dict | None) -> str | None:
    """The account an attempt is for, as counted: ``Alice`` and `` alice`` are one account."""
    raw = (credentials or {}).get("username")
    if raw is None:
        data = getattr(request, "data", None) or getattr(request, "POST", {})
        raw = data.get("username") if hasattr(data, "get") else None
    if not isinstance(raw, str):
        return None
    return raw.strip().casefold()[:255] or None


def wait_after(failures: int, threshold: int) -> float:
    """Seconds to wait after ``failures`` when ``threshold`` are free (0 below it)."""
    if failures < threshold:
        return 0.0
    doublings = min(failures - threshold, _MAX_DOUBLINGS)
    return min(float(settings.ARENA_LOGIN_MAX_WAIT_S), settings.ARENA_LOGIN_WAIT_S * 2**doublings)


def seconds_to_wait(request: Any, credentials: dict | None) -> float:
    """How long this attempt must wait before its password may be checked (0: go ahead)."""
    username = get_client_username(request, credentials) or ""
    address = request.axes_ip_address
    now = timezone.now()
    pair = Q(username=username, ip_address=address)
    account = Q(username=username)
    from_address = Q(ip_address=address)
    counts = (
        AccessAttempt.objects.filter(attempt_time__gte=now - settings.AXES_COOLOFF_TIME)
        .filter(account | from_address)
        .aggregate(
            pair=Sum("failures_since_start", filter=pair),
            pair_last=Max("attempt_time", filter=pair),
            account=Sum("failures_since_start", filter=account),
            address=Sum("failures_since_start", filter=from_address),
            address_last=Max("attempt_time", filter=from_address),
        )
    )
    waits = [0.0]

    def hold(failures: int | None, last: Any, threshold: int) -> None:
        wait = wait_after(failures or 0, threshold)
        if wait and last is not None:
            waits.append(wait - (now - last).total_seconds())

    if username:
        hold(counts["pair"], counts["pair_last"], settings.ARENA_LOGIN_FAILURES)
        # The account's count holds only an address that has failed on it repeatedly itself,
        # and only from that address's own latest failure: others' failures may make its
        # wait longer (up to the cap), never start it or push its end further away.
        if (counts["pair"] or 0) >= settings.ARENA_LOGIN_SHARED_AFTER:
            hold(counts["account"], counts["pair_last"], settings.ARENA_LOGIN_ACCOUNT_FAILURES)
    hold(counts["address"], counts["address_last"], settings.ARENA_LOGIN_ADDRESS_FAILURES)
    return max(waits)


class LoginLimitsHandler(AxesDatabaseHandler):
    """axes' database handler (it records the failures) with the waits above as its lock."""

    def is_locked(self, request: Any, credentials: dict | None = None) -> bool:
        wait = seconds_to_wait(request, credentials)
        request.arena_login_wait = wait
        return wait > 0

    def user_login_failed(
        self, sender: Any, credentials: dict, request: Any = None, **kwargs: Any
    ) -> None:
        refused = bool(getattr(request, "axes_locked_out", False))
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is not None and not refused:
            # The password was checked and was wrong: that is the answer to this attempt
            # (a wait, if one now applies, is for the next one).
            request.axes_locked_out = False


def forgive_failures(request: Any) -> None:
    """Forget this address's failures on the account a right password was just given for
    (the form's log-in does this through axes' ``user_logged_in`` handler)."""
    username = account_name(request, None)
    if username:
        address = getattr(request, "axes_ip_address", None) or login_address(request)
        AccessAttempt.objects.filter(username=username, ip_address=address).delete()


def refusal_sentence(wait: float) -> str:
    if wait < 90:
        later = f"{max(1, math.ceil(wait))} seconds"
    else:
        minutes = math.ceil(wait / 60)
        later = f"{minutes} minute{'s' if minutes != 1 else ''}"
    return f"Too many wrong passwords: try again in {later}."


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: dict | None
) -> HttpResponse:
    """axes' answer to a refused attempt (``AXES_LOCKOUT_CALLABLE``): 429 with Retry-After.

    The log-in page and the token endpoint answer for themselves (the form with the reason,
    the API's error shape); this covers any other form that authenticates (the admin's).
    """
    if original_response is not None and original_response.status_code == 429:
        return original_response
    wait = getattr(request, "arena_login_wait", 0.0) or settings.ARENA_LOGIN_WAIT_S
    detail = refusal_sentence(wait)
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"detail": detail, "code": "throttled"}, status=429)
    else:
        html = render_to_string("429.html", {"detail": detail}, request)
        response = HttpResponse(html, status=429)
    response["Retry-After"] = str(max(1, math.ceil(wait)))
    return response
