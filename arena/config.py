"""Reading the arena's configuration from the environment.

Settings must fail with one clear line, not a traceback wall: a mistyped ``DATABASE_URL``
on a server should tell the operator what to fix. Every function here raises
:class:`ConfigError` with such a line; ``arena/settings.py`` turns it into an exit.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
from django.conf import settings

__all__ = [
    "ConfigError",
    "broker_url",
    "database_config",
    "env_bool",
    "env_float",
    "env_int",
    "env_list",
    "largest_table",
    "match_time_limit",
    "seconds_setting",
]

#: Seconds a match task needs besides its bots' time: the engine, staging, recording.
MATCH_OVERHEAD_S = 30

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


class ConfigError(Exception):
    """A setting is missing or malformed; the message is one line for the operator."""


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ConfigError(f"{name}={raw!r} is not a boolean (use 1/0, true/false, yes/no)")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not an integer") from None


def env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return float(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not a number") from None


def seconds_setting(name: str, default: float) -> float:
    """A number from Django's settings, else from the environment (workers read it from
    either), read at call time: for code that runs once the settings are loaded."""
    value = getattr(settings, name, None)
    return float(value) if value is not None else env_float(name, default)


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def database_config(url: str | None, *, default_sqlite: Path) -> dict[str, Any]:
    """Django ``DATABASES['default']`` from ``DATABASE_URL``, or a local SQLite file."""
    if not url:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(default_sqlite),
            "CONN_MAX_AGE": 600,  # a worker reuses its connection instead of reopening it
            # Workers and the web server share the file: wait for locks instead of failing,
            # and use the write-ahead log, so readers never block the writer and a commit
            # costs one append instead of a rewritten journal.
            "OPTIONS": {
                "timeout": 30,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            "TEST": {"NAME": str(default_sqlite.with_name("test-" + default_sqlite.name))},
        }
    scheme = urlsplit(url).scheme
    if not scheme:
        raise ConfigError(f"DATABASE_URL={url!r} is not a URL (expected postgres://user@host/db)")
    try:
        # A plain dict from here: settings.py edits it (its ENGINE) after it is returned.
        config: dict[str, Any] = dict(
            dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True)
        )
    except Exception as exc:  # dj-database-url raises several types for bad URLs
        raise ConfigError(
            f"DATABASE_URL is not usable ({exc}); expected postgres://user@host/db"
        ) from None
    if not config.get("ENGINE"):
        raise ConfigError(f"DATABASE_URL scheme {scheme!r} is not supported; use postgres://")
    if config["ENGINE"] != "django.db.backends.sqlite3" and not config.get("NAME"):
        raise ConfigError(f"DATABASE_URL={url!r} names no database")
    return config


def broker_url(url: str | None) -> str:
    """The Celery broker: Redis when ``REDIS_URL`` is set, else a server-less filesystem queue."""
    if not url:
        return "filesystem://localhost//"  # kombu warns about a missing host otherwise
    scheme = urlsplit(url).scheme
    if scheme not in {"redis", "rediss", "filesystem", "memory"}:
        raise ConfigError(f"REDIS_URL={url!r} must start with redis:// or rediss://")
    return url


def largest_table() -> int:
    """The most seats any hosted game allows (Liars: 6): the match task's limit must cover a
    table of that many slow bots."""
    from engine.registry import GAMES

    return max(game.max_players for game in GAMES.values())


def match_time_limit(seat_wall_bound_s: float, *, seats: int = 2, default: int = 600) -> int:
    """The match task's soft time limit: ``ARENA_MATCH_TIME_LIMIT_S``, above what bots can take.

    ``seat_wall_bound_s`` is the most wall-clock time one sandboxed seat can hold a match
    (``sandbox.Limits.seat_wall_bound_s``: start-up, its match's wall-clock cap, closing).
    A match ends with a result within ``seats`` times that plus the platform's own work;
    a time limit below it would let a slow bot make the worker give up and void the match
    instead of losing it. Unset, the limit is ``default`` or that bound, whichever is
    larger; set below the bound, the arena refuses to start and says what to change.
    """
    needed = math.ceil(seats * seat_wall_bound_s + MATCH_OVERHEAD_S)
    raw = os.environ.get("ARENA_MATCH_TIME_LIMIT_S")
    if raw is None or raw.strip() == "":
        return max(default, needed)
    value = env_int("ARENA_MATCH_TIME_LIMIT_S", default)
    if value < needed:
        raise ConfigError(
            f"ARENA_MATCH_TIME_LIMIT_S={value} is below the {needed} s a match may take with "
            f"these limits ({seats} bots x (start-up + ARENA_MATCH_WALL_S + closing) + 30 s): "
            "raise it or lower ARENA_MATCH_WALL_S"
        )
    return value
