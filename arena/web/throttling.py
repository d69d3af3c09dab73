"""The API's rate limits, applied to the pages that do the same things.

Uploading through the upload page and logging in through the login form cost the same as
their API counterparts, so they draw on the same budgets (``ARENA_THROTTLE_UPLOADS`` per
user, ``ARENA_THROTTLE_TOKENS`` per client address): switching from the API to the site
gives no extra room.
"""

from __future__ import annotations

import math
from typing import Any

from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse

from arena.api.throttles import TokenRateThrottle, UploadRateThrottle

__all__ = ["ThrottledLoginView", "upload_refusal"]


def _refusal(throttle: Any, request: HttpRequest, what: str) -> str | None:
    """None when the request may go ahead (and is counted), else a sentence for the page."""
    if throttle.allow_request(request, None):
        return None
    minutes = max(1, math.ceil((throttle.wait() or 60) / 60))
    return f"Too many {what}: try again in {minutes} minute{'s' if minutes != 1 else ''}."


def upload_refusal(request: HttpRequest) -> str | None:
    return _refusal(UploadRateThrottle(), request, "uploads")


class ThrottledLoginView(auth_views.LoginView):
    """Django's login view, with the token endpoint's limit on password attempts."""

    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        refusal = _refusal(TokenRateThrottle(), request, "log-in attempts")
        if refusal is None:
            return super().post(request, *args, **kwargs)
        form = self.get_form()
        form.errors.clear()
        form.add_error(None, refusal)
        return self.render_to_response(self.get_context_data(form=form), status=429)
