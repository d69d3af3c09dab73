"""Who may use the organisers' pages: staff and the "organisers" group (``is_organiser``).

Anyone else gets the site's 403 page (a visitor who is not logged in is sent to log in
first); the pages themselves show organisers' buttons to organisers only.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

from arena.selectors.accounts import is_organiser

__all__ = ["organiser_required"]

View = Callable[..., HttpResponse]


def organiser_required(view: View) -> View:
    """Only organisers reach ``view``."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_organiser(request.user):
            raise PermissionDenied("Only organisers may do this.")
        return view(request, *args, **kwargs)

    return wrapper
