"""Versions of what the pages cache: renewed by every write that changes a cached read.

A ladder changes only when a rating, a bot's name or a bot's presence on it changes; the
services that make those writes call :func:`ladder_changed`. The version lives in the
shared cache (Redis in production, a file cache on a laptop), so web processes on every
host see it; pages use it in their ETags and cache keys (``arena.web.freshness``).

A leaf (it imports nothing of the arena): the selectors read the version and the services
bump it, so it sits below both.
"""

from __future__ import annotations

import time

from django.core.cache import cache

__all__ = ["ladder_changed", "ladder_version"]

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
