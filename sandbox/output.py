"""The bot's own stdout and stderr: captured from one pipe, capped, never trusted.

The host keeps draining the pipe whenever it waits for the bot, so a bot printing without
end never blocks (which would look like a timeout) and never costs the host more than the
cap in memory: the first ``cap`` bytes are kept for ``output()``, a short tail is kept for
a crash report, everything else is counted and dropped.
"""

from __future__ import annotations

import codecs
import os

from sandbox.protocol import printable

__all__ = ["OutputCapture"]

_CHUNK = 64 * 1024  # see sandbox.protocol._CHUNK
_TAIL_BYTES = 4096


class OutputCapture:
    """Reads a non-blocking pipe; ``text()`` is the capped head, ``tail()`` the last bytes."""

    def __init__(self, fd: int, cap_bytes: int) -> None:
        self.fd = fd
        self.cap_bytes = cap_bytes
        self._head = bytearray()
        self._tail = bytearray()
        self.dropped_bytes = 0
        self.eof = False
        self._taken = 0  # bytes of the head already handed out by take()
        self._marked = False  # take() has said that the rest is dropped
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._frozen = False

    def freeze(self) -> None:
        """Keep what was read so far as the final output: later reads are discarded (a
        killed bot's jail reaped in the background must not change a closed player's
        output)."""
        self._frozen = True

    def drain(self, max_reads: int = 64) -> None:
        """Read what is available now (bounded, so a flood cannot starve the caller)."""
        for _ in range(max_reads):
            if self.eof:
                return
            try:
                chunk = os.read(self.fd, _CHUNK)
            except BlockingIOError:
                return
            except OSError:
                self.eof = True
                return
            if not chunk:
                self.eof = True
                return
            if self._frozen:
                continue
            room = self.cap_bytes - len(self._head)
            if room > 0:
                self._head += chunk[:room]
            self.dropped_bytes += max(0, len(chunk) - max(room, 0))
            self._tail += chunk[-_TAIL_BYTES:]
            del self._tail[:-_TAIL_BYTES]

    def text(self) -> str:
        text = printable(self._head.decode("utf-8", "replace"))
        if self.dropped_bytes:
            text += f"\n[output truncated: {self.dropped_bytes} more bytes were dropped]\n"
        return text

    def take(self) -> str:
        """The head's bytes not handed out yet (a character split by a read waits for its end).

        The first call after the cap is reached ends with a marker, so a step log that stops
        says why; later calls are empty.
        """
        new = bytes(self._head[self._taken :])
        self._taken = len(self._head)
        if not self.dropped_bytes or self._marked:
            return printable(self._decoder.decode(new))
        self._marked = True
        text = printable(self._decoder.decode(new, final=True))
        return text + (
            f"\n[output truncated: the bot's output reached its {self.cap_bytes}-byte cap for "
            "the match; the rest is dropped]\n"
        )

    def tail(self) -> str:
        return printable(self._tail.decode("utf-8", "replace"))
