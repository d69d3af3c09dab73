"""``make run``'s command brings up web, worker and beat, serves pages, plays a playground run
on its embedded default (SQLite, the filesystem broker), serves the kit, and stops cleanly."""

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def processes_with(marker):
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if marker.encode() in (proc / "environ").read_bytes():
                found.append(int(proc.name))
        except OSError:
            continue
    return found


@contextlib.contextmanager
def arena_up(
    tmp_path: Path, *, arena_settings: bool = True
) -> Iterator[tuple[subprocess.Popen, int, str]]:
    """``manage.py arena_up`` on a free port, data in ``tmp_path``, without the test run's
    database, broker and settings (nor its other ``ARENA_*`` settings unless
    ``arena_settings``); yields the process, its port and the marker in the environment of
    every process it starts, none of which outlives the block."""
    port = free_port()
    marker = f"ARENA_TEST_MARKER={uuid.uuid4()}"
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DJANGO_SETTINGS_MODULE"}
        and (arena_settings or not k.startswith("ARENA_"))
    }
    env.update(
        DEBUG="1",
        ARENA_DATA_DIR=str(tmp_path),
        ARENA_DEMO_TOURNAMENT="0",
        ARENA_TEST_MARKER=marker.split("=", 1)[1],
    )
    arena = subprocess.Popen(
        [sys.executable, "manage.py", "arena_up", "--port", str(port), "--concurrency", "1"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        yield arena, port, marker
    finally:
        if arena.poll() is None:
            arena.kill()
        for pid in processes_with(marker):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.slow
def test_arena_up_serves_pages_and_ctrl_c_stops_everything(tmp_path):
    with arena_up(tmp_path) as (arena, port, marker):
        output = []
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            line = arena.stdout.readline()
            if not line:
                break
            output.append(line)
            if "Bluff Arena is up at" in line:
                break
        assert any("is up at" in line for line in output), "".join(output)
        assert any("Demo admin: admin / " in line for line in output)
        for path in ("/", "/admin/login/", "/healthz"):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as reply:
                assert reply.status == 200, path
        assert len(processes_with(marker)) >= 4  # arena_up, web, worker, beat (and children)
        # Collected with the manifest, so a later start with DEBUG=0 serves pages too.
        assert (ROOT / "staticfiles" / "staticfiles.json").is_file()
        arena.send_signal(signal.SIGINT)
        rest, _ = arena.communicate(timeout=60)
        assert arena.returncode == 0, "".join(output) + rest
        time.sleep(0.5)
        assert processes_with(marker) == [], "nothing may be left running"


def _request(port, path, *, token=None, body=None):
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as reply:
        return reply.status, reply.read()


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_embedded_default_plays_a_playground_run_and_serves_the_kit(tmp_path):
    """Issue 33: no test played a playground run on what ``make run`` brings up (SQLite, the
    filesystem broker, a real worker); issue 32: ``make run`` serves the kit (built in the
    background as it starts, never in a request)."""
    with arena_up(tmp_path, arena_settings=False) as (arena, port, marker):
        output: list[str] = []
        reader = threading.Thread(target=lambda: output.extend(iter(arena.stdout.readline, "")))
        reader.daemon = True
        reader.start()
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and not any("is up at" in line for line in output):
            assert arena.poll() is None, "".join(output)
            time.sleep(0.2)
        text = "".join(output)
        assert "is up at" in text, text
        assert (tmp_path / "arena.sqlite3").exists(), "the embedded default: SQLite"
        assert (tmp_path / "broker").is_dir(), "and the filesystem broker"
        password = re.search(r"Demo admin: admin / (\S+)", text)[1]
        _, body = _request(
            port, "/api/auth/token/", body={"username": "admin", "password": password}
        )
        token = json.loads(body)["token"]
        source = (ROOT / "engine/games/lie21/bots/starter_bot.py").read_text()
        status, body = _request(
            port,
            "/api/playground/runs/",
            token=token,
            body={"game": "lie21", "source": source, "opponents": ["random"], "matches": 2},
        )
        assert status == 201, body
        run = json.loads(body)
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            _, body = _request(port, f"/api/playground/runs/{run['id']}/", token=token)
            polled = json.loads(body)
            if polled["status"] == "done":
                break
            time.sleep(0.5)
        assert polled["status"] == "done", (polled, "".join(output[-40:]))
        assert polled["played"] == 2 and polled["failed"] == 0, polled
        _, body = _request(port, polled["matches"][0]["replay"], token=token)
        assert json.loads(body)["game"] == "lie21"
        assert "play_playground_match" in "".join(output), "played by the worker"
        # The kit: built in the background as the arena started, then served.
        deadline = time.monotonic() + 240
        kit, waits = b"", []
        while time.monotonic() < deadline and not kit:
            try:
                _, kit = _request(port, "/games/lie21/kit.zip")
            except urllib.error.HTTPError as exc:  # 503 "not built yet", with Retry-After
                waits.append((exc.code, exc.headers["Retry-After"], exc.read()))
                time.sleep(2)
        assert all(code == 503 and retry for code, retry, _ in waits), waits
        assert not any(b"The last build failed" in said for _, _, said in waits), waits
        assert kit[:2] == b"PK", "".join(output[-40:])
        assert "downloads ready" in "".join(output)
        arena.send_signal(signal.SIGINT)
        arena.wait(timeout=60)
        assert arena.returncode == 0, "".join(output)
        time.sleep(0.5)
        assert processes_with(marker) == [], "nothing may be left running"
