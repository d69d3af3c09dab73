"""Played matches that could not be recorded yet, kept on the worker's local disk.

When the database stays away longer than the recording retries (``matches.record_tries``),
the played result is written here, under ``DATA_DIR/unrecorded/<match id>.json``, and the
task fails (Celery retries it with backoff). The next delivery of ``play_match`` for that
match on this host records the kept result, if this attempt's claim token still holds the
match, instead of playing the match again. A result whose claim was taken over (the match
went to another worker) is deleted unread.

JSON, not pickle: the file is data the worker reads back, never code. Written atomically
(a temporary file renamed into place), readable by the worker's user only.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import tempfile
from pathlib import Path
from typing import Any

from django.conf import settings

__all__ = ["unrecorded_forget", "unrecorded_keep", "unrecorded_take"]

log = logging.getLogger(__name__)


def _directory() -> Path:
    return Path(settings.DATA_DIR) / "unrecorded"


def _path(match_id: int) -> Path:
    return _directory() / f"{int(match_id)}.json"


def unrecorded_keep(match_id: int, token: str, played: dict[str, Any]) -> Path:
    """Keep a played result (``played``: JSON-able except ``replay``, which is bytes)."""
    directory = _directory()
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    body = {**played, "replay": base64.b64encode(played["replay"]).decode(), "token": token}
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=f".{match_id}-")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(body, out)
        os.replace(temporary, _path(match_id))
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return _path(match_id)


def unrecorded_take(match_id: int) -> tuple[str, dict[str, Any]] | None:
    """The kept (claim token, played result) of a match, or None. The file stays until
    :func:`unrecorded_forget` (it is removed only once recorded or superseded)."""
    path = _path(match_id)
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
        token = body.pop("token")
        body["replay"] = base64.b64decode(body["replay"])
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError):
        log.exception("match=%s kept result unreadable; removed", match_id)
        path.unlink(missing_ok=True)
        return None
    return str(token), body


def unrecorded_forget(match_id: int) -> None:
    _path(match_id).unlink(missing_ok=True)
