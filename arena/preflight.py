"""Checks that the services the arena depends on answer, with one readable line when not.

Used by ``make run`` before it starts anything, by the ``/healthz`` endpoint and by the
container health checks, so an operator sees "cannot reach the broker at ..." instead of a
retry loop or a traceback.
"""

from __future__ import annotations

from django.conf import settings
from django.db import connections

__all__ = [
    "check_broker",
    "check_database",
    "check_sandbox",
    "check_storage",
    "sandbox_limits",
]


def _redact(url: str) -> str:
    """Drop a password from a URL before it is printed."""
    scheme, sep, rest = url.partition("://")
    if "@" in rest:
        credentials, _, host = rest.rpartition("@")
        user = credentials.split(":", 1)[0]
        rest = f"{user}:***@{host}" if ":" in credentials else f"{user}@{host}"
    return f"{scheme}{sep}{rest}"


def check_database() -> str | None:
    """None when the default database answers a query, else one line saying why not."""
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as exc:
        return f"cannot reach the database ({settings.DATABASES['default']['ENGINE']}): {exc}"
    return None


def check_broker(timeout_s: float = 3.0) -> str | None:
    """None when the Celery broker accepts a connection, else one line saying why not."""
    from arena.queue import app

    url = app.conf.broker_url
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=timeout_s)
    except Exception as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return f"cannot reach the broker at {_redact(url)}: {reason}"
    return None


def check_sandbox() -> str | None:
    """None when bots can be sandboxed here (or unsafe mode was chosen), else one line."""
    from sandbox import SandboxConfig, SandboxUnavailable, check_available, check_packages

    try:
        config = SandboxConfig.from_env()
        check_available(config)
        check_packages(config)
    except SandboxUnavailable as exc:
        return f"{exc} (bots cannot be played until this is fixed)"
    return None


def sandbox_limits() -> list[str]:
    """The isolation layers in force for bots on this host, one line each (see
    ``sandbox.limits_in_force``); empty when bots cannot be sandboxed here at all."""
    from sandbox import SandboxConfig, SandboxUnavailable, limits_in_force

    try:
        return limits_in_force(SandboxConfig.from_env())
    except SandboxUnavailable:
        return []


def check_storage() -> str | None:
    """None when uploaded bot files can be reached (a bucket when one is configured)."""
    from arena.services.storage import object_store_check

    return object_store_check()
