"""Versions of what the pages cache: renewed by every write that changes a cached read.

A ladder changes only when a rating, a bot's name or a bot's presence on it changes; the
services that make those writes call :func:`ladder_changed`. The version lives in the
shared cache (Redis in production, a file cache on a laptop), so web processes on every
host see it; pages use it in their ETags and cache keys (``arena.web.freshness``).

:class:`LocalCopies` keeps, in each process, copies of what never changes once written.

A leaf (it imports nothing of the arena): the selectors read the version and the services
bump it, so it sits below both.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any

from django.core.cache import cache

__all__ = ["LocalCopies", "ladder_changed", "ladder_version", "local_copies_clear"]

_LADDER_KEY = "ladder-version:{game}"
_LADDER_TTL_S = 30 * 24 * 3600


def ladder_version(game: str) -> str:
    """The current version of ``game``'s ladder, as a short string for ETags and cache keys.

    A missing key (cache flushed or evicted) starts a new, never-seen version from the
    clock, so a lost key can only make pages fresh, never stale.
    """
    key = _LADDER_KEY.format(game=game)
    version = cache.get(key)
    if version is None:
        version = time.time_ns()
        if not cache.add(key, version, _LADDER_TTL_S):
            version = cache.get(key, version)
    return str(version)


def ladder_changed(*games: str) -> None:
    """Mark these games' ladders as changed (ratings, bot names or presence).

    The new version is a value not used before (the clock in nanoseconds: only its
    difference from the old one matters), written with one ``set`` and no read, so a worker
    pays one round trip per rated match; a key evicted meanwhile is simply written anew.
    """
    for game in set(games):
        cache.set(_LADDER_KEY.format(game=game), time.time_ns(), _LADDER_TTL_S)


class LocalCopies:
    """A process's own copies of values that never change once written (a replay, the page
    of a match that can no longer change), in front of the shared cache: what a server is
    asked for most (the newest matches') is answered without a round trip to Redis (some
    0.15 ms of CPU, and a wake-up of Redis, each).

    At most ``size`` entries, the least recently used dropped first, each kept ``ttl_s``
    seconds at most, so a value deleted or replaced in the shared cache is seen within
    that. Safe to share between a worker's threads.
    """

    def __init__(self, *, size: int, ttl_s: float) -> None:
        self.size, self.ttl_s = size, ttl_s
        self._entries: OrderedDict[str, tuple[float, Any]] = OrderedDict()
        self._lock = threading.Lock()
        _LOCAL_COPIES.append(self)

    def get(self, key: str) -> Any:
        """The value kept under ``key``, or None."""
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return None
            if found[0] < time.monotonic():
                del self._entries[key]
                return None
            self._entries.move_to_end(key)
            return found[1]

    def set(self, key: str, value: Any) -> None:
        with self._lock:
            self._entries[key] = (time.monotonic() + self.ttl_s, value)
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


_LOCAL_COPIES: list[LocalCopies] = []


def local_copies_clear() -> None:
    """Forget every process-local copy (a test's data must not meet the next test's)."""
    for copies in _LOCAL_COPIES:
        copies.clear()
