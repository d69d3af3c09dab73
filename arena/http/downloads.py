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
from datetime import UTC, datetime
from typing import TypeAlias

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


#: ``(match id, when it finished, its stored gzip replay)``, as the selectors give them.
StoredReplay: TypeAlias = tuple[int, datetime | None, bytes]

#: A zip entry's time when its match has none: the earliest a zip can hold.
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)


def _entry(match_id: int, finished_at: datetime | None) -> zipfile.ZipInfo:
    """The entry of a match's replay, dated when the match finished (UTC; a zip holds no
    time zone), so that the same replays give the same bytes at every download."""
    when = finished_at.astimezone(UTC).timetuple()[:6] if finished_at else ZIP_EPOCH
    info = zipfile.ZipInfo(f"match-{match_id}.json.gz", date_time=when)
    info.external_attr = 0o600 << 16  # rw for the owner, as writestr gives a name
    return info


def _zipped(replays: Iterable[StoredReplay]) -> Iterator[bytes]:
    sink = _Sink()
    # An unseekable file: zipfile writes each entry's sizes after its data.
    with zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_STORED) as archive:
        for match_id, finished_at, data in replays:
            archive.writestr(_entry(match_id, finished_at), data)
            yield sink.take()
    yield sink.take()


def replays_zip_response(replays: Iterable[StoredReplay], filename: str) -> StreamingHttpResponse:
    """``match-<id>.json.gz`` per stored gzip replay, streamed as one zip."""
    response = StreamingHttpResponse(_zipped(replays), content_type="application/zip")
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response
