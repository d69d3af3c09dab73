"""gzip for answers stored compressed: replays, and the pages anonymous readers share.

What is stored gzip-compressed is handed to a client that accepts gzip as it is (no work
per request, and a tenth of the bytes for a page of tables), and decompressed for one that
does not.
"""

from __future__ import annotations

import gzip

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers

__all__ = ["accepts_gzip", "compress", "compressed_answer"]

#: zlib's default: nearly the smallest output for a page, at about a millisecond per 100 KB.
LEVEL = 6


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an Accept-Encoding header allows gzip (``gzip;q=0`` refuses it).

    >>> accepts_gzip("gzip, deflate, br"), accepts_gzip("gzip;q=0"), accepts_gzip("")
    (True, False, False)
    """
    for item in accept_encoding.lower().split(","):
        coding, _, params = item.partition(";")
        if coding.strip() in ("gzip", "x-gzip"):
            quality = params.strip().removeprefix("q=")
            try:
                return not params.strip() or float(quality) > 0
            except ValueError:
                return False
    return False


def compress(body: bytes) -> bytes:
    return gzip.compress(body, compresslevel=LEVEL, mtime=0)


def compressed_answer(request: HttpRequest, stored: bytes) -> HttpResponse:
    """An HTML page stored gzip-compressed, as this client can take it."""
    if accepts_gzip(request.headers.get("Accept-Encoding", "")):
        response = HttpResponse(stored)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(gzip.decompress(stored))
    patch_vary_headers(response, ["Accept-Encoding"])
    return response
