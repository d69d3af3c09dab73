"""Refusing an oversized request body before anything reads it, whether its length is
declared or not.

Django checks ``DATA_UPLOAD_MAX_MEMORY_SIZE`` only for form fields, and the upload size only
after the whole file has been received, so a 100 MB POST would cost the web process 100 MB of
reading before its 413. This middleware sits before anything that reads the body:

* a body whose ``Content-Length`` is over the limit is answered 413 at once, unread;
* a body sent without a length (``Transfer-Encoding: chunked``) is read here, at most one
  byte past the limit, when the server hands the application a stream that ends with the
  body (``wsgi.input_terminated``, as gunicorn does): over the limit it is answered 413 with
  nothing stored; within it, the bytes read are handed on as a body of known length, so the
  upload is taken like any other. Django itself reads only ``Content-Length`` bytes and saw
  an empty form ("No file was submitted", a 400).
* a server that cannot hand over a body without a length (``manage.py runserver``: its
  stream stops at ``Content-Length``, so the body would never be seen) is told so with
  411 Length Required.

The answer never sets ``Connection`` (a hop-by-hop header that WSGI forbids an application
to set; ``runserver`` turned it into a 500). Closing a connection whose body was left unread
is the server's business: gunicorn drains at most 64 KiB of it and then closes, and in
production nginx refuses such a body before gunicorn sees it (docker/nginx.conf).
"""

from __future__ import annotations

import io
from collections.abc import Callable

from django.conf import settings
from django.core.handlers.wsgi import LimitedStream, WSGIRequest
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

__all__ = ["BodySizeLimitMiddleware", "request_max_bytes"]

#: Room for the multipart envelope and the form's other fields around the file.
FORM_OVERHEAD_BYTES = 64 * 1024
_READ_CHUNK = 64 * 1024


def request_max_bytes() -> int:
    """The largest request body the arena reads: an upload at its limit, plus its form."""
    return settings.ARENA_UPLOAD_MAX_BYTES + FORM_OVERHEAD_BYTES


class BodySizeLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    # The arena is served over WSGI (gunicorn, the test client): a body sent without a
    # length is read from the WSGI environ.
    def __call__(self, request: WSGIRequest) -> HttpResponse:
        limit = request_max_bytes()
        declared = request.META.get("CONTENT_LENGTH") or ""
        if declared.isdigit():
            if int(declared) > limit:
                return _refusal(request, 413, _over(f"({int(declared):,} bytes) ", limit))
        elif request.META.get("HTTP_TRANSFER_ENCODING"):
            refusal = _take_unsized_body(request, limit)
            if refusal is not None:
                return refusal
        return self.get_response(request)


def _take_unsized_body(request: WSGIRequest, limit: int) -> HttpResponse | None:
    """Read a body sent without a length, up to the limit; a refusal, or None to go on."""
    if not request.environ.get("wsgi.input_terminated"):
        return _refusal(
            request,
            411,
            "This server needs a Content-Length for a request body; send the body with "
            "its length (not chunked).",
        )
    stream = request.environ["wsgi.input"]
    body = bytearray()
    while len(body) <= limit:
        chunk = stream.read(min(_READ_CHUNK, limit + 1 - len(body)))
        if not chunk:
            break
        body += chunk
    if len(body) > limit:
        return _refusal(request, 413, _over("(sent without a length) ", limit))
    # From here on the body is one of known length: Django's parsers read Content-Length
    # bytes from the request's stream, so both are replaced.
    request.META["CONTENT_LENGTH"] = str(len(body))
    # A LimitedStream, as Django's WSGIRequest keeps there itself; the stubs say BinaryIO.
    request._stream = LimitedStream(io.BytesIO(bytes(body)), len(body))  # type: ignore[assignment]
    return None


def _over(size: str, limit: int) -> str:
    return f"The request body {size}is over the {limit:,}-byte limit."


def _refusal(request: HttpRequest, status: int, detail: str) -> HttpResponse:
    if request.path.startswith("/api/"):
        code = "too_large" if status == 413 else "length_required"
        return JsonResponse({"detail": detail, "code": code}, status=status)
    context = {
        "detail": detail,
        "upload_max": settings.ARENA_UPLOAD_MAX_BYTES,
        "title": "Too large" if status == 413 else "Length required",
    }
    return HttpResponse(render_to_string("413.html", context, request), status=status)
