"""Conditional GET and cached pages: answer "nothing changed" without doing the work again.

Why: under load most of a page's cost is the same database reads and template rendering
repeated for readers who already have the page. Each cacheable read gets a cheap
*validator* (an ETag, and a Last-Modified where a time is at hand):

- a ladder changes only when a rating, a bot's name or a bot's presence changes; every such
  write bumps the ladder's version (:mod:`arena.freshness`), kept in the shared
  cache (Redis in production, a file cache on a laptop), so every web process sees it;
- a finished match and its replay never change again, so their validators are fixed.

Browsers are told to revalidate every time (``Cache-Control: no-cache``), so a reader who
has a page gets a 304 in a few milliseconds and a reader who doesn't gets the current page.
Pages that show who is logged in are validated per user (the user's id is in the ETag).

The validator is worked out once per request (it costs a cache or database read) and kept
on the request as ``request.validator``, so a view can key its cached rendering on it.

Anonymous readers share renderings (:func:`shared_page`): one per validator for pages that
have one, and for a page without a cheap validator (the match list) one every few seconds,
renewed by a single request while the others are still served the previous one, so a
page's expiry never sends every reader of it to the database and the template at once.
Shared renderings are kept gzip-compressed and sent so (a tenth of the bytes).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.views.decorators.http import condition

from arena.freshness import LocalCopies
from arena.http.compression import compress, compressed_answer

__all__ = ["ValidatedRequest", "conditional", "shared_page", "validated"]

#: How long one request may take to renew a shared rendering before another may try.
RENEWING_S = 10


class ValidatedRequest(HttpRequest):
    """The request of a view behind :func:`conditional`: its validator kept on it (None:
    the page has none, and is rendered)."""

    validator: str | None


def conditional(
    etag: Callable[..., str | None], *, per_user: bool = True
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Answer 304 when the client's copy matches ``etag(request, **kwargs)``.

    With ``per_user``, the user's id is part of the validator (the page names who is
    logged in) and the response is private to that browser.
    """

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: ValidatedRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            value = etag(request, *args, **kwargs)
            request.validator = value
            return validated(
                request, value, lambda: view(request, *args, **kwargs), per_user=per_user
            )

        return wrapper

    return decorate


def validated(
    request: HttpRequest,
    value: str | None,
    answer: Callable[[], HttpResponse],
    *,
    per_user: bool = True,
) -> HttpResponse:
    """``answer()``, or 304 when the client's copy matches the validator ``value`` (None:
    the page has none), with the headers :func:`conditional` gives its pages."""
    if value is not None:
        # Weak: the same page goes out gzip-encoded or not (Vary: Accept-Encoding).
        value = f'W/"{value}-u{request.user.pk or 0}"' if per_user else f'W/"{value}"'
    response = condition(etag_func=lambda *_args, **_kwargs: value)(lambda _request: answer())(
        request
    )
    if response.has_header("ETag"):
        if per_user:
            patch_cache_control(response, no_cache=True, private=True)
            patch_vary_headers(response, ["Cookie"])
        else:
            patch_cache_control(response, no_cache=True)
    return response


def shared_page(
    request: HttpRequest,
    key: str,
    render: Callable[[], HttpResponse],
    *,
    fresh_s: float,
    keep_s: int,
) -> HttpResponse:
    """The page cached under ``key``, rendered by ``render`` when missing or stale.

    A rendering is fresh for ``fresh_s`` seconds; after that the first request to find it
    stale renders it again while concurrent readers still get the stale one, for at most
    ``keep_s`` seconds after it was made. Only 200 answers are shared; they are stored
    gzip-compressed and sent so to clients that accept it. A fresh rendering is also kept
    in the process (``_SHARED_COPIES``) and served from there while fresh.
    """
    now = time.time()
    copy = _SHARED_COPIES.get(key)
    if copy is not None and now - copy[0] < fresh_s:
        return compressed_answer(request, copy[1])
    entry = cache.get(key)
    if entry is not None:
        made, stored = entry
        if now - made < fresh_s:
            _SHARED_COPIES.set(key, entry)
            return compressed_answer(request, stored)
        if not cache.add(f"{key}:renewing", 1, RENEWING_S):
            return compressed_answer(request, stored)
    response = render()
    if response.status_code != 200:
        return response
    stored = compress(response.content)
    cache.set(key, (now, stored), keep_s)
    _SHARED_COPIES.set(key, (now, stored))
    if entry is not None:
        cache.delete(f"{key}:renewing")
    return compressed_answer(request, stored)


#: This process's copies of the shared renderings it served, each used while it is fresh
#: (as the shared cache's own would be: a rendering is replaced there only once stale), so
#: the pages read most cost no round trip to the shared cache.
_SHARED_COPIES = LocalCopies(size=256, ttl_s=60)
