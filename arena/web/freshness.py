"""Conditional GET and cached pages: answer "nothing changed" without doing the work again.

Why: under load most of a page's cost is the same database reads and template rendering
repeated for readers who already have the page. Each cacheable read gets a cheap
*validator* (an ETag, and a Last-Modified where a time is at hand):

- a ladder changes only when a rating, a bot's name or a bot's presence changes; every such
  write bumps the ladder's version (:mod:`arena.services.freshness`), kept in the shared
  cache (Redis in production, a file cache on a laptop), so every web process sees it;
- a finished match and its replay never change again, so their validators are fixed.

Browsers are told to revalidate every time (``Cache-Control: no-cache``), so a reader who
has a page gets a 304 in a few milliseconds and a reader who doesn't gets the current page.
Pages that show who is logged in are validated per user (the user's id is in the ETag).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.views.decorators.http import condition

__all__ = ["conditional"]


def conditional(
    etag: Callable[..., str | None], *, per_user: bool = True
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Answer 304 when the client's copy matches ``etag(request, **kwargs)``.

    With ``per_user``, the user's id is part of the validator (the page names who is
    logged in) and the response is private to that browser.
    """

    def tag(request: HttpRequest, *args: Any, **kwargs: Any) -> str | None:
        value = etag(request, *args, **kwargs)
        if value is None:
            return None
        return f"{value}-u{request.user.pk or 0}" if per_user else value

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        checked = condition(etag_func=tag)(view)

        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            response = checked(request, *args, **kwargs)
            if response.has_header("ETag"):
                if per_user:
                    patch_cache_control(response, no_cache=True, private=True)
                    patch_vary_headers(response, ["Cookie"])
                else:
                    patch_cache_control(response, no_cache=True)
            return response

        return wrapper

    return decorate
