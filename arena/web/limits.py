"""Refusing an oversized request body before anything reads it.

Django checks ``DATA_UPLOAD_MAX_MEMORY_SIZE`` only for form fields, and the upload size only
after the whole file has been received and spooled to disk, so a 100 MB POST costs the web
process 100 MB of reading before its 413. This middleware looks at ``Content-Length``
first and answers 413 at once; a body sent without a length (chunked) is cut off by the
reverse proxy's ``client_max_body_size`` in production (docker/nginx.conf) and, if it gets
through, by Django's own limits while it is read.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

__all__ = ["BodySizeLimitMiddleware", "request_max_bytes"]

#: Room for the multipart envelope and the form's other fields around the file.
FORM_OVERHEAD_BYTES = 64 * 1024


def request_max_bytes() -> int:
    """The largest request body the arena reads: an upload at its limit, plus its form."""
    return settings.ARENA_UPLOAD_MAX_BYTES + FORM_OVERHEAD_BYTES


class BodySizeLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        declared = request.META.get("CONTENT_LENGTH") or "0"
        limit = request_max_bytes()
        if declared.isdigit() and int(declared) > limit:
            return _too_large(request, int(declared), limit)
        return self.get_response(request)


def _too_large(request: HttpRequest, declared: int, limit: int) -> HttpResponse:
    detail = f"The request body ({declared:,} bytes) is over the {limit:,}-byte limit."
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"detail": detail, "code": "too_large"}, status=413)
    else:
        context = {"detail": detail, "upload_max": settings.ARENA_UPLOAD_MAX_BYTES}
        response = HttpResponse(render_to_string("413.html", context, request), status=413)
    # The body was not read: the connection cannot carry another request after it.
    response["Connection"] = "close"
    return response
