"""The wire protocol between the host and the in-jail bootstrap: one JSON object per line.

It runs on two dedicated pipes (host -> bot, bot -> host) whose descriptor numbers are
given to the bootstrap on its command line, never on stdin/stdout, so a bot's ``print``
cannot corrupt it. A line is compact JSON with ASCII escapes, so it never contains a raw
newline; the host rejects a line longer than ``Limits.message_bytes`` before parsing it.

``seq`` numbers requests so a reply written out of turn (garbage, a forged or a stale
line) is caught at once instead of being taken for the answer to a later request.

Everything that comes back is untrusted: the bot runs in the same interpreter as the
bootstrap and can write anything on the pipe. The host therefore checks every message's
shape and only ever uses its own wording for public fault details.

Host -> bot::

    {"op": "init", "exec_filter": hex|null, "rlimits": {...}, "extra_paths": [...],
     "message_bytes": N}                 when the jail starts (maybe before its bot is chosen)
    {"op": "load", "bot_dir": "/bot", "info": {...}, "hooks": [...]}
                                         once, after the bot's files are in /bot
    {"op": "act", "seq": N, "obs": {...}}
    {"op": "hook", "seq": N, "hook": "on_game_end", "payload": {...}}

Bot -> host::

    {"t": "prepared", "clock": [t1, t2]} limits and filters are in place, no bot code ran
                                         yet (t1, t2: when the interpreter was up and when
                                         init arrived, on the host's monotonic clock)
    {"t": "error", "reason": ...}        ... or they could not be put in place (platform)
    {"t": "ready", "hooks": [...]}       bot imported, on_match_start done
    {"t": "action", "action": {...}, "seq": N}     reply to "act" number N
    {"t": "done", "seq": N}                        reply to "hook" number N
    {"t": "fault", "kind": ..., "code": ..., "trace": ...}   the bot failed; then it exits
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from _json import make_encoder

__all__ = [
    "EXIT_PROTOCOL_LOST",
    "LineReader",
    "ProtocolViolation",
    "decode",
    "encode",
    "printable",
]

#: Exit status the bootstrap uses when its reply pipe is gone (the bot closed it).
EXIT_PROTOCOL_LOST = 97
#: Largest single read from a pipe: what a pipe holds by default. A bigger buffer is over
#: glibc's mmap threshold: every read would map and unmap it (tens of microseconds), since
#: the interpreter shrinks the bytes object with realloc, which never raises the threshold.
_CHUNK = 64 * 1024


class ProtocolViolation(Exception):
    """The bot broke the protocol; ``str(self)`` is a public, platform-written sentence.

    ``kind`` is the fault kind it costs the bot: ``protocol`` for a line that is not a
    well-formed message, ``bad_output`` for well-formed JSON carrying text no database can
    store (the bot's reply is at fault, not the channel).
    """

    def __init__(self, message: str, kind: str = "protocol") -> None:
        super().__init__(message)
        self.kind = kind


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# One instance each: json.dumps/loads with options build a new coder per call (~5 us).
# Without the circular-reference check (a dict of ids kept for every container) a 3 KB
# observation encodes in about 60 % of the time; what the host sends is the engine's own
# acyclic data, and a cycle would still fail, with RecursionError.
_encoder = json.JSONEncoder(
    separators=(",", ":"), ensure_ascii=True, allow_nan=False, check_circular=False
)
_decoder = json.JSONDecoder(parse_constant=_reject_constant)
# The C encoder and scanner behind them, made once: JSONEncoder.encode builds a new C
# encoder (and a closure) at every call, and JSONDecoder.decode matches whitespace with a
# regular expression on both sides of the value. Same output, same errors, a few
# microseconds less per decision (the pure-Python fallbacks serve a Python without them).
# typeshed leaves out both names, which json sets at run time: json.encoder.c_make_encoder
# (_json.make_encoder, or None without the C module) and JSONDecoder.scan_once.
_c_make_encoder: type[make_encoder] | None = json.encoder.c_make_encoder  # type: ignore[attr-defined]
_c_encoder = (
    _c_make_encoder(
        None,
        _encoder.default,
        json.encoder.encode_basestring_ascii,
        None,
        ":",
        ",",
        False,
        False,
        False,
    )
    if _c_make_encoder is not None
    else None
)
_scan: Callable[[str, int], tuple[Any, int]] = _decoder.scan_once  # type: ignore[attr-defined]


def encode(message: Mapping[str, Any]) -> bytes:
    """One protocol line. Raises ValueError/TypeError/RecursionError for non-JSON data
    (a host bug)."""
    if _c_encoder is not None and type(message) is dict:
        chunks = _c_encoder(message, 0)
        chunks.append("\n")
        return "".join(chunks).encode("ascii")
    return _encoder.encode(message).encode("ascii") + b"\n"


def decode(line: bytes) -> dict[str, Any]:
    """Parse one line from the bot into a dict, or raise ProtocolViolation."""
    try:
        text = line.decode("utf-8")
        try:
            message, end = _scan(text, 0)
        except StopIteration:  # not a value here (leading whitespace, or no JSON at all)
            end = -1
        if end != len(text):  # whitespace around the value, or extra data after it
            message = _decoder.decode(text)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ProtocolViolation(
            "the bot wrote something that is not JSON on its protocol channel"
        ) from None
    if not isinstance(message, dict):
        raise ProtocolViolation("the bot wrote a protocol message that is not a JSON object")
    if b"\\u" in line and not _storable(message):  # only escapes can smuggle these in
        raise ProtocolViolation(
            "the bot sent text with a NUL character or a lone surrogate", "bad_output"
        )
    return message


def _storable(value: Any) -> bool:
    """No NUL and no lone surrogate in any string: databases and UTF-8 refuse both."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return False
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return False
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return True


def printable(text: str) -> str:
    """``text`` made safe to store and show: NULs and lone surrogates replaced."""
    if "\x00" in text:
        text = text.replace("\x00", "\ufffd")
    return text.encode("utf-8", "replace").decode("utf-8")


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
