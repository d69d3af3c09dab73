"""The wire protocol between the host and the in-jail bootstrap: one JSON object per line.

It runs on two dedicated pipes (host -> bot, bot -> host) whose descriptor numbers are
given to the bootstrap on its command line, never on stdin/stdout, so a bot's ``print``
cannot corrupt it. A line is compact JSON with ASCII escapes, so it never contains a raw
newline; the host rejects a line longer than ``Limits.message_bytes`` before parsing it.

Everything that comes back is untrusted: the bot runs in the same interpreter as the
bootstrap and can write anything on the pipe. The host therefore checks every message's
shape and only ever uses its own wording for public fault details.

Host -> bot::

    {"op": "init", "exec_filter": hex|null, "rlimits": {...}, "bot_dir": "/bot",
     "extra_paths": [...], "info": {...}, "message_bytes": N}
    {"op": "act", "obs": {...}}
    {"op": "hook", "hook": "on_hand_end", "payload": {...}}

Bot -> host::

    {"t": "hello"}                       interpreter and bootstrap are up (before the bot)
    {"t": "ready", "hooks": [...]}       bot imported, on_match_start done
    {"t": "action", "action": {...}}     reply to "act"
    {"t": "done"}                        reply to "hook"
    {"t": "fault", "kind": ..., "code": ..., "trace": ...}   the bot failed; then it exits
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

__all__ = [
    "EXIT_PROTOCOL_LOST",
    "LineReader",
    "ProtocolViolation",
    "decode",
    "encode",
]

#: Exit status the bootstrap uses when its reply pipe is gone (the bot closed it).
EXIT_PROTOCOL_LOST = 97
#: Largest single read from a pipe.
_CHUNK = 256 * 1024


class ProtocolViolation(Exception):
    """The bot broke the protocol; ``str(self)`` is a public, platform-written sentence."""


def encode(message: Mapping[str, Any]) -> bytes:
    """One protocol line. Raises ValueError/TypeError for non-JSON data (a host bug)."""
    text = json.dumps(message, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return text.encode("ascii") + b"\n"


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def decode(line: bytes) -> dict[str, Any]:
    """Parse one line from the bot into a dict, or raise ProtocolViolation."""
    try:
        message = json.loads(line.decode("utf-8"), parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ProtocolViolation("the bot wrote something that is not JSON on its protocol channel") from None
    if not isinstance(message, dict):
        raise ProtocolViolation("the bot wrote a protocol message that is not a JSON object")
    return message


class LineReader:
    """Non-blocking reader of newline-terminated messages with a per-line size cap."""

    def __init__(self, fd: int, max_line_bytes: int) -> None:
        self.fd = fd
        self.max_line_bytes = max_line_bytes
        self._buffer = bytearray()
        self.eof = False

    def fill(self) -> int:
        """Read what the pipe holds now (non-blocking fd); sets ``eof`` at the end.

        Returns the number of bytes read. Stops buffering once a line is over the cap, so a
        flood costs the host no more than that.
        """
        if len(self._buffer) > self.max_line_bytes and self._buffer.find(b"\n") < 0:
            return 0
        try:
            chunk = os.read(self.fd, _CHUNK)
        except BlockingIOError:
            return 0
        except OSError:
            chunk = b""
        if chunk:
            self._buffer += chunk
        else:
            self.eof = True
        return len(chunk)

    def pop(self) -> bytes | None:
        """The next complete line without its newline, or None if none is complete yet."""
        end = self._buffer.find(b"\n", 0, self.max_line_bytes + 1)
        if end < 0:
            if len(self._buffer) > self.max_line_bytes:
                raise ProtocolViolation(
                    f"the bot sent a protocol message over the {_size(self.max_line_bytes)} limit"
                )
            return None
        line = bytes(self._buffer[:end])
        del self._buffer[: end + 1]
        return line

    @property
    def pending(self) -> bool:
        """Whether unread bytes remain after the last popped line."""
        return bool(self._buffer)


def _size(count: int) -> str:
    if count % 1024 == 0:
        return f"{count // 1024} KiB"
    return f"{count} bytes"
