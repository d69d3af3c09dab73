"""``/healthz``: is the database answering, and the broker? Always within :data:`DEADLINE_S`.

Each dependency is checked in a thread of its own with a real timeout on every operation
(not only on connecting): the database on a fresh connection with ``connect_timeout`` and
``statement_timeout`` (PostgreSQL) or the lock ``timeout`` (SQLite); Redis with socket
connect *and* read timeouts and no retries. Both run at once under one overall deadline,
so a server that accepts connections and never answers (a paused Redis, a hung database)
costs at most the deadline. The answer is 200 when both are fine, else 503 naming what
failed::

    {"status": "unhealthy", "database": "ok",
     "broker": "cannot reach the broker at redis://...: no answer within 2 s",
     "failed": ["broker"]}
"""

from __future__ import annotations

import contextlib
import copy
import math
import threading
import time
from collections.abc import Callable

from django.conf import settings
from django.db import connections
from django.db.utils import load_backend
from django.http import HttpRequest, JsonResponse

from arena.preflight import _redact, check_broker

__all__ = ["CHECK_TIMEOUT_S", "DEADLINE_S", "healthz"]

#: Timeout of every operation of one check (connect, query, ping).
CHECK_TIMEOUT_S = 2.0
#: The whole endpoint answers within this, whatever its dependencies do.
DEADLINE_S = 3.0


def check_database(timeout_s: float = CHECK_TIMEOUT_S) -> str | None:
    """``SELECT 1`` on a fresh connection whose every step has a timeout; None when fine."""
    config = copy.deepcopy(settings.DATABASES["default"])
    options = config.setdefault("OPTIONS", {})
    engine = config["ENGINE"]
    if "postgres" in engine:  # Django's backend or arena.postgres (its subclass)
        options["connect_timeout"] = max(1, math.ceil(timeout_s))
    elif "sqlite" in engine:
        options["timeout"] = timeout_s
    config = connections.configure_settings({"default": config})["default"]
    wrapper = load_backend(engine).DatabaseWrapper(config, "default")
    try:
        with wrapper.cursor() as cursor:
            if wrapper.vendor == "postgresql":
                cursor.execute("SET statement_timeout = %s", [int(timeout_s * 1000)])
            cursor.execute("SELECT 1")
    except Exception as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return f"cannot reach the database ({engine}): {reason}"
    finally:
        with contextlib.suppress(Exception):  # a half-open connection may fail to close
            wrapper.close()
    return None


def check_redis_broker(url: str, timeout_s: float = CHECK_TIMEOUT_S) -> str | None:
    """PING the Redis broker with connect and read timeouts and no retries."""
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    client = redis.Redis.from_url(
        url,
        socket_connect_timeout=timeout_s,
        socket_timeout=timeout_s,
        retry=Retry(NoBackoff(), 0),
        retry_on_timeout=False,
    )
    try:
        client.ping()
    except redis.TimeoutError:
        return f"cannot reach the broker at {_redact(url)}: no answer within {timeout_s:g} s"
    except redis.RedisError as exc:
        return f"cannot reach the broker at {_redact(url)}: {exc}"
    finally:
        client.close()
    return None


def _check_broker(timeout_s: float = CHECK_TIMEOUT_S) -> str | None:
    from arena.queue import app

    url = str(app.conf.broker_url)
    if url.startswith(("redis://", "rediss://", "unix://")):
        return check_redis_broker(url, timeout_s)
    return check_broker(timeout_s=timeout_s)  # the filesystem broker: local folders


def _run_all(checks: dict[str, Callable[[], str | None]], deadline_s: float) -> dict[str, str]:
    """Run the checks in parallel daemon threads; what each said, or that it did not finish."""
    results: dict[str, str | None] = {}

    def run(name: str, check: Callable[[], str | None]) -> None:
        try:
            results[name] = check()
        except Exception as exc:  # a check must never take the endpoint down
            results[name] = f"{name} check failed: {type(exc).__name__}: {exc}"
        finally:
            if name == "database":
                connections.close_all()  # this thread's, should a check have opened one

    threads = {
        name: threading.Thread(target=run, args=(name, check), name=f"healthz-{name}", daemon=True)
        for name, check in checks.items()
    }
    end = time.monotonic() + deadline_s
    for thread in threads.values():
        thread.start()
    for thread in threads.values():
        thread.join(max(0.0, end - time.monotonic()))
    return {
        name: (results[name] or "ok")
        if name in results
        else f"{name} gave no answer within {deadline_s:g} s"
        for name in checks
    }


def healthz(request: HttpRequest) -> JsonResponse:
    answers = _run_all({"database": check_database, "broker": _check_broker}, DEADLINE_S)
    failed = [name for name, answer in answers.items() if answer != "ok"]
    body = {"status": "unhealthy" if failed else "ok", **answers, "failed": failed}
    return JsonResponse(body, status=503 if failed else 200)
