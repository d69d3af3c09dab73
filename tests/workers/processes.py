"""Real Celery workers and a real Redis broker for the tests that need them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from benchmarks.celery_worker import worker_argv
from workers.celery import app

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/15"


def redis_url() -> str:
    """The tests' Redis: ARENA_TEST_REDIS_URL, else REDIS_URL, else database 15 on localhost.

    The tests flush it, so it must be a database of its own. Under pytest-xdist each worker
    takes the database that many below it (gw0 the named one, gw1 the one below, ...), so two
    workers never flush or consume each other's queues.
    """
    url = os.environ.get("ARENA_TEST_REDIS_URL") or os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
    return _for_this_worker(url)


def _for_this_worker(url: str) -> str:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    offset = int(worker[2:]) if worker[2:].isdigit() else 0
    if not offset:
        return url
    parts = urlsplit(url)
    path = parts.path.strip("/")
    database = int(path) if path.isdigit() else 0
    return urlunsplit(parts._replace(path=f"/{(database - offset) % 16}"))


def require_redis(url: str) -> Any:
    """A client for ``url``; skips the test without Redis, or fails it when CI=true."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=5)
    try:
        client.ping()
    except redis.RedisError as exc:
        message = f"needs a Redis server at {url} ({exc}); set REDIS_URL or start redis-server"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true: {message}")
        pytest.skip(message)
    return client


def _reset_pools() -> None:
    """Forget every broker connection, so the next send connects to the current URL.

    kombu keeps pools in module-level groups keyed by connection: closing only the app's
    pool would leave a closed pool there for the next test to find.
    """
    from kombu import pools

    pools.reset()
    app._pool = None
    app.amqp._producer_pool = None


@contextmanager
def use_broker(url: str, transport_options: dict[str, Any] | None = None) -> Iterator[None]:
    """Send tasks from this process to ``url`` instead of running them eagerly.

    The transport is the one ``url`` names: settings loaded without ``REDIS_URL`` name the
    filesystem broker's (``arena.broker``), which would otherwise win over the URL's scheme.
    """
    names = ("broker_url", "broker_transport", "broker_transport_options", "task_always_eager")
    saved = {name: app.conf[name] for name in names}
    app.conf.update(
        broker_url=url,
        broker_transport=None,
        broker_transport_options=transport_options or {"visibility_timeout": 900},
        task_always_eager=False,
    )
    _reset_pools()
    try:
        yield
    finally:
        app.conf.update(saved)
        _reset_pools()


def wait_for(
    condition: Callable[[], Any], *, timeout: float, interval: float = 0.2, what: str = ""
) -> Any:
    """Poll ``condition`` until it returns something truthy; fail after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout:g} s waiting for {what or condition}")
        time.sleep(interval)


def started(
    argv: list[str], *, cwd: Path, env: dict[str, str], log_path: Path
) -> subprocess.Popen[bytes]:
    """``argv`` started in a process group of its own (so that a kill takes its children
    too), its output appended to ``log_path``."""
    with log_path.open("ab") as log:
        return subprocess.Popen(
            argv, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )


class _CeleryProcess:
    """A Celery process (``celery -A workers ...``) in a process group of its own, logging
    to a file: what a worker and beat share, their log and their stopping."""

    #: What the process is called in a failure's message.
    what = "celery"

    def __init__(self, env: dict[str, str], *, log_path: Path, cwd: Path) -> None:
        self.env = env
        self.log_path = log_path
        self.cwd = cwd
        self.process: subprocess.Popen[bytes] | None = None

    def _exited(self) -> bool:
        """Fails the test, with the log, if the process has exited; else False (a start's
        wait reads it in its condition)."""
        assert self.process is not None
        if self.process.poll() is not None:
            pytest.fail(f"{self.what} exited ({self.process.returncode}):\n{self.log()}")
        return False

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def kill(self) -> None:
        """SIGKILL the whole group (main and child processes) at once, like a lost machine."""
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self, timeout: float = 15) -> None:
        """Warm shutdown (a worker finishes its current task), then SIGKILL if it hangs."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
        # Child processes that outlived their parent belong to the group too.
        with suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)


class CeleryWorker(_CeleryProcess):
    """``celery -A workers worker`` in its own process group, logging to a file."""

    def __init__(self, name: str, env: dict[str, str], *, log_path: Path, cwd: Path) -> None:
        super().__init__(env, log_path=log_path, cwd=cwd)
        self.name = name
        self.what = f"worker {name}"

    def start(
        self, *, concurrency: int = 2, ready_timeout: float = 60, queues: str | None = None
    ) -> None:
        argv = worker_argv(f"{self.name}@%h", concurrency=concurrency, queues=queues)
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self.process = started(argv, cwd=self.cwd, env=self.env, log_path=self.log_path)
        wait_for(
            lambda: self._exited() or " ready." in self.log(),
            timeout=ready_timeout,
            what=f"worker {self.name} to be ready",
        )

    def pids(self) -> list[int]:
        """The main process and its pool processes."""
        assert self.process is not None
        found = subprocess.run(
            ["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True, check=False
        )
        return [self.process.pid, *map(int, found.stdout.split())]


class CeleryBeat(_CeleryProcess):
    """``celery -A workers beat`` (the arena's database scheduler) in its own process group."""

    what = "beat"

    def start(self, *, ready_timeout: float = 60) -> None:
        argv = [sys.executable, "-m", "celery", "-A", "workers", "beat", "--loglevel=INFO"]
        argv += ["--pidfile", str(self.log_path.with_suffix(".pid"))]
        self.process = started(argv, cwd=self.cwd, env=self.env, log_path=self.log_path)
        wait_for(
            lambda: "beat: Starting" in self.log() or self._exited(),
            timeout=ready_timeout,
            what="beat to start",
        )
