"""File downloads shared by the pages and the API: a CSV, plain text, and many stored replays
as one zip.

The zip is streamed: each replay is written as it is read, so a large tournament's archive
never sits whole in the web process's memory. The replays are stored gzip JSON already (as
the API serves them), so the zip stores them without compressing twice and
``python -m engine replay`` or the site's ``/replay/`` page open them as they are.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterable, Iterator

from django.http import HttpResponse, StreamingHttpResponse
from django.utils.http import content_disposition_header

__all__ = ["csv_response", "replays_zip_response", "text_response"]


def csv_response(body: str, filename: str) -> HttpResponse:
    """A CSV attachment."""
    response = HttpResponse(body, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


def text_response(body: str, filename: str) -> HttpResponse:
    """Plain text the browser shows (saved under ``filename``)."""
    response = HttpResponse(body, content_type="text/plain; charset=utf-8")
    disposition = content_disposition_header(False, filename)
    if disposition is not None:  # None: no name to give
        response["Content-Disposition"] = disposition
    return response


class _Sink:
    """A write-only file for ``zipfile`` whose bytes are taken out as they come."""

    def __init__(self) -> None:
        self._chunks: list[bytes] = []

    def write(self, data: bytes, /) -> int:
        self._chunks.append(bytes(data))
        return len(data)

    def flush(self) -> None:
        pass

    def close(self) -> None:  # zipfile never closes a file it was given; part of its protocol
        pass

    def take(self) -> bytes:
        data = b"".join(self._chunks)
        self._chunks.clear()
        return data


def _zipped(replays: Iterable[tuple[int, bytes]]) -> Iterator[bytes]:
    sink = _Sink()
    # An unseekable file: zipfile writes each entry's sizes after its data.
    with zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_STORED) as archive:
        for match_id, data in replays:
            archive.writestr(f"match-{match_id}.json.gz", data)
            yield sink.take()
    yield sink.take()


def replays_zip_response(
    replays: Iterable[tuple[int, bytes]], filename: str
) -> StreamingHttpResponse:
    """``match-<id>.json.gz`` per ``(match id, stored gzip replay)``, streamed as one zip."""
    response = StreamingHttpResponse(_zipped(replays), content_type="application/zip")
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response
