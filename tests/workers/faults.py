"""Faults the reliability tests inject: dropped database connections and a paused Redis.

``terminate_backends`` drops every other connection to the test database, as a server
restart, a pgbouncer or a NAT idle timeout would. ``PrivateRedis`` is a redis-server of the
test's own on a free port, so pausing it (``CLIENT PAUSE``) stalls nobody else's tests.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
from django.db import connection


def require_postgresql() -> None:
    """These faults are PostgreSQL's: skip elsewhere, fail under CI=true."""
    if connection.vendor != "postgresql":
        message = "needs PostgreSQL (set DATABASE_URL=postgres://...)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true: {message}")
        pytest.skip(message)


def terminate_backends(*, application_name: str | None = None) -> int:
    """``pg_terminate_backend`` every other connection to this database; how many."""
    sql = (
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
        "WHERE datname = current_database() AND pid <> pg_backend_pid()"
    )
    params: list[str] = []
    if application_name is not None:
        sql += " AND application_name = %s"
        params.append(application_name)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.fetchone()[0])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PrivateRedis:
    """``redis-server`` on a free port, without persistence, stopped by :meth:`stop`."""

    def __init__(self, workdir: Path) -> None:
        server = shutil.which("redis-server")
        if server is None:
            message = "needs redis-server on PATH (apt install redis-server)"
            if os.environ.get("CI", "").lower() == "true":
                pytest.fail(f"CI=true: {message}")
            pytest.skip(message)
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        workdir.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [
                server,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(workdir),
                "--daemonize",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not self.ping():
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.stop()
                pytest.fail(f"redis-server did not start on port {self.port}")
            time.sleep(0.05)

    def client(self, **kwargs):
        import redis

        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=2, **kwargs)

    def ping(self) -> bool:
        import redis

        try:
            return bool(self.client(socket_connect_timeout=0.5).ping())
        except redis.RedisError:
            return False

    def pause(self, milliseconds: int) -> None:
        """Every client's commands wait ``milliseconds`` (writes and reads alike)."""
        self.client().execute_command("CLIENT", "PAUSE", str(milliseconds), "ALL")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
