"""The API's rate limits, applied to the pages that do the same things.

Uploading through the upload page and logging in through the login form cost the same as
their API counterparts, so they draw on the same budgets (``ARENA_THROTTLE_UPLOADS`` per
user; ``ARENA_THROTTLE_TOKENS`` failed passwords per client address and
``ARENA_THROTTLE_LOGIN_ACCOUNT`` per account): switching from the API to the site gives no
extra room.
"""

from __future__ import annotations

import math
from typing import Any

from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse

from arena.api.throttles import LoginGuard, UploadRateThrottle

__all__ = ["ThrottledLoginView", "upload_refusal"]


def _sentence(wait: float | None, what: str) -> str:
    minutes = max(1, math.ceil((wait or 60) / 60))
    return f"Too many {what}: try again in {minutes} minute{'s' if minutes != 1 else ''}."


def upload_refusal(request: HttpRequest) -> str | None:
    """None when the upload may go ahead (and is counted), else a sentence for the page."""
    throttle = UploadRateThrottle()
    if throttle.allow_request(request, None):
        return None
    return _sentence(throttle.wait(), "uploads")


class ThrottledLoginView(auth_views.LoginView):
    """Django's login view, with the token endpoint's limits on wrong passwords."""

    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        guard = LoginGuard(request, request.POST.get("username"))
        wait = guard.wait()
        if wait is not None:
            # An unbound form: the password is not even checked while the limit holds.
            form = self.get_form_class()(request)
            form.cleaned_data = {}
            form.add_error(None, _sentence(wait, "log-in attempts"))
            return self.render_to_response(self.get_context_data(form=form), status=429)
        form = self.get_form()
        if form.is_valid():
            return self.form_valid(form)
        guard.failed()
        return self.form_invalid(form)
