"""The pages' share of the arena's limits: uploads and log-ins cost the same as on the API.

Uploading through the upload page draws on the API's upload budget (``ARENA_THROTTLE_UPLOADS``
per user), and the log-in form is held to the same wrong-password limits as the token
endpoint (``arena.http.logins``, through django-axes): switching between the API and the
site gives no extra room.
"""

from __future__ import annotations

import math

from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse

from arena.http.logins import refusal_sentence
from arena.http.throttles import UploadRateThrottle

__all__ = ["LoginView", "upload_refusal"]


def _sentence(wait: float | None, what: str) -> str:
    minutes = max(1, math.ceil((wait or 60) / 60))
    return f"Too many {what}: try again in {minutes} minute{'s' if minutes != 1 else ''}."


def upload_refusal(request: HttpRequest) -> str | None:
    """None when the upload may go ahead (and is counted), else a sentence for the page."""
    throttle = UploadRateThrottle()
    # A DRF throttle on a page's request: it reads only the user and the address (META),
    # which a Django request has as DRF's does, and no view.
    if throttle.allow_request(request, None):  # type: ignore[arg-type]
        return None
    return _sentence(throttle.wait(), "uploads")


class LoginView(auth_views.LoginView):
    """Django's log-in view; an attempt that must wait gets the form back with the reason
    (429, ``Retry-After``) instead of "wrong password": its password was never checked."""

    redirect_authenticated_user = True

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        if not getattr(self.request, "axes_locked_out", False):
            return super().form_invalid(form)
        wait = float(getattr(self.request, "arena_login_wait", 0.0))
        form.errors.clear()  # its password was never checked: no "wrong password"
        form.add_error(None, refusal_sentence(wait))
        response: HttpResponse = self.render_to_response(
            self.get_context_data(form=form), status=429
        )
        response["Retry-After"] = str(max(1, math.ceil(wait)))
        return response
