"""``make run``'s command brings up web, worker and beat, serves pages, and stops cleanly."""

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
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


@pytest.mark.slow
def test_arena_up_serves_pages_and_ctrl_c_stops_everything(tmp_path):
    port = free_port()
    marker = f"ARENA_TEST_MARKER={uuid.uuid4()}"
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DJANGO_SETTINGS_MODULE"}
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
    output = []
    try:
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
    finally:
        if arena.poll() is None:
            arena.kill()
        for pid in processes_with(marker):
            os.kill(pid, signal.SIGKILL)
