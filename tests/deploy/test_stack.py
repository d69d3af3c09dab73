"""The compose stack for real (issue 20): build, start, upload a bot through the API, see it
validated and playing, run a draft in the playground, download the starter kit (built into
the image) and play it offline, add a worker from the worker-only file with no shared
volume, see it play, tear everything down.

Runs with ``ARENA_DOCKER_TESTS=1`` (several minutes, a Docker engine, and the pinned base
images pulled, or the stand-ins of tests/deploy/standin/build.sh on a machine without a
registry); on a laptop it is skipped with the reason otherwise. Under ``CI=true`` it is never
skipped: ``.ci/run`` installs and starts Docker first (``.ci/docker``) and sets
``ARENA_DOCKER_TESTS=1``, and anything missing then fails the test with the reason (a CI
without Docker privileges says so explicitly with ``ARENA_DOCKER_TESTS=0``).
Nothing in the repository's docker/ is touched: the compose files run from a copy with a
generated env file, under their own project names, image tag and port.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
import zipfile
from pathlib import Path

import pytest
import yaml

from tests.compose import compose_command

ROOT = Path(__file__).resolve().parents[2]
DOCKER = ROOT / "docker"

pytestmark = [pytest.mark.docker, pytest.mark.slow, pytest.mark.timeout(1800)]

# An ordinary upload: the built-in random bot's file, under another name.
BOT = (ROOT / "engine/games/lie21/bots/random_bot.py").read_bytes() + b"\n# uploaded by a test\n"


MEMORY_PROBE = """
import pathlib
from engine.players import BotFault
from sandbox import Limits, SandboxConfig, SandboxedPlayer
bot = pathlib.Path("/tmp/probe_bot.py")
bot.write_text(
    "def act(observation):\\n"
    "    data = bytearray(200 * 1024 * 1024)\\n"
    "    for i in range(0, len(data), 4096):\\n"
    "        data[i] = 1\\n"
    "    return {}\\n"
)
player = SandboxedPlayer(
    "probe", str(bot), limits=Limits(cgroup_memory_bytes=64 * 1024 * 1024),
    config=SandboxConfig.from_env(),
)
try:
    player.start({})
    player.act({})
    print("the allocation succeeded")
except BotFault as exc:
    print(exc)
finally:
    player.close()
"""


def _pinned_images() -> list[str]:
    images = re.findall(r"^FROM (\S+)", (DOCKER / "Dockerfile").read_text(), re.M)
    compose = yaml.safe_load((DOCKER / "compose.yml").read_text())
    images += [s["image"] for s in compose["services"].values() if "${" not in s.get("image", "${")]
    return images


def _why_not() -> str | None:
    if os.environ.get("ARENA_DOCKER_TESTS") != "1":
        return "the Docker stack test runs only with ARENA_DOCKER_TESTS=1 (minutes, needs Docker)"
    if not shutil.which("docker"):
        return "ARENA_DOCKER_TESTS=1 but no docker client here"
    if compose_command() is None:
        return "ARENA_DOCKER_TESTS=1 but neither `docker compose` nor `docker-compose` is here"
    if subprocess.run(["docker", "info"], capture_output=True).returncode != 0:
        return "ARENA_DOCKER_TESTS=1 but the Docker engine does not answer (docker info)"
    missing = [
        image
        for image in _pinned_images()
        if subprocess.run(["docker", "image", "inspect", image], capture_output=True).returncode
    ]
    if missing:
        return (
            f"base images not present: {', '.join(missing)} (docker pull them, or on a machine "
            "without a registry build stand-ins: sh tests/deploy/standin/build.sh)"
        )
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Stack:
    """One compose project run from a copy of docker/ with its own env file."""

    def __init__(self, directory: Path, project: str, files: list[str], env: dict[str, str]):
        self.directory, self.project, self.files, self.env = directory, project, files, env

    def compose(self, *args: str, check: bool = True, timeout: float = 600) -> str:
        command = [*compose_command(), "-p", self.project]
        for name in self.files:
            command += ["-f", str(self.directory / name)]
        done = subprocess.run(
            [*command, *args],
            capture_output=True,
            text=True,
            # From the compose files' directory, as docs/deploy.md says for Compose v1 (which
            # reads the worker's seccomp profile relative to the current directory).
            cwd=self.directory,
            env=self.env,
            timeout=timeout,
            check=False,
        )
        if check and done.returncode != 0:
            raise AssertionError(f"compose {' '.join(args)}: {done.stderr[-3000:]}")
        return done.stdout + done.stderr


def _api(port: int, method: str, path: str, token: str | None = None, **kwargs) -> dict:
    headers = {"Host": "localhost", "Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    body = None
    if "json" in kwargs:
        body = json.dumps(kwargs["json"]).encode()
        headers["Content-Type"] = "application/json"
    elif "file" in kwargs:
        boundary = uuid.uuid4().hex
        name, data = kwargs["file"]
        body = (
            (
                f"--{boundary}\r\n"
                f'Content-Disposition: form-data; name="file"; filename="{name}"\r\n'
                f"Content-Type: text/x-python\r\n\r\n"
            ).encode()
            + data
            + f"\r\n--{boundary}--\r\n".encode()
        )
        headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=body, method=method, headers=headers
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"{}")


def _download(port: int, path: str) -> bytes:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", headers={"Host": "localhost"}
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.read()


def _wait(what: str, probe, timeout_s: float, every_s: float = 3.0):
    deadline = time.monotonic() + timeout_s
    last: object = None
    while time.monotonic() < deadline:
        try:
            last = probe()
            if last:
                return last
        except (OSError, urllib.error.URLError, ValueError) as exc:
            last = exc
        time.sleep(every_s)
    raise AssertionError(f"{what}: not within {timeout_s:.0f} s (last: {last!r})")


def _done_matches(port: int, token: str, bot: int) -> list[dict]:
    page = _api(port, "GET", f"/api/matches/?bot={bot}&status=done", token)
    return page.get("results", [])


def test_the_stack_starts_validates_an_upload_plays_and_a_worker_host_joins(tmp_path):
    reason = _why_not()
    if reason:
        if os.environ.get("CI") == "true" and os.environ.get("ARENA_DOCKER_TESTS") != "0":
            pytest.fail(f"under CI=true the Docker stack test must run (.ci/docker): {reason}")
        pytest.skip(reason)
    timings: dict[str, float] = {}
    started = time.monotonic()
    tag = f"lie21-arena:test-{os.getpid()}"
    project = f"lie21t{os.getpid()}"
    port = _free_port()

    # Only the compose files and nginx.conf: the user's docker/.env is neither read nor written.
    copy = tmp_path / "docker"
    shutil.copytree(DOCKER, copy, ignore=shutil.ignore_patterns(".env"))
    example = (DOCKER / ".env.example").read_text()
    passwords = {name: secrets.token_hex(12) for name in ("db", "redis", "minio")}
    env_text = (
        example.replace("change-me-db", passwords["db"])
        .replace("change-me-redis", passwords["redis"])
        .replace("change-me-minio", passwords["minio"])
        .replace("SECRET_KEY=change-me", f"SECRET_KEY={secrets.token_urlsafe(50)}")
    )
    assert not [line for line in env_text.splitlines() if "change-me" in line.split("#")[0]]
    (copy / ".env").write_text(env_text)
    shell = {k: v for k, v in os.environ.items() if not k.startswith(("ARENA_", "DJANGO_"))}
    shell.update(ARENA_IMAGE=tag, ARENA_PORT=str(port), DOCKER_BUILDKIT="0")
    main = Stack(copy, project, ["compose.yml"], shell)

    # The worker host: the worker-only file, joined to the main project's network only (on
    # real hosts: the addresses of compose.services.yml). No volume, nothing shared on disk.
    (copy / "join.yml").write_text(
        yaml.safe_dump(
            {
                "services": {"worker": {"networks": ["arena"]}},
                "networks": {"arena": {"external": True, "name": f"{project}_default"}},
            }
        )
    )
    extra = Stack(copy, f"{project}w", ["compose.worker.yml", "join.yml"], shell)

    try:
        t = time.monotonic()
        built = subprocess.run(
            ["docker", "build", "-q", "-f", str(DOCKER / "Dockerfile"), "-t", tag, str(ROOT)],
            capture_output=True,
            text=True,
            env=shell,
            timeout=1200,
            check=False,
        )
        assert built.returncode == 0, built.stderr[-3000:]
        timings["build_s"] = time.monotonic() - t

        t = time.monotonic()
        main.compose("up", "-d", "--no-build")
        _wait(
            "the proxy answers /healthz",
            lambda: _api(port, "GET", "/healthz").get("status") == "ok",
            300,
        )
        timings["up_s"] = time.monotonic() - t
        setup_log = main.compose("logs", "--no-color", "setup")
        assert "Object store bucket 'arena-bots' is ready" in setup_log
        assert "Demo admin" not in setup_log and "No admin account created" in setup_log
        ps = main.compose("ps")
        assert "Restarting" not in ps and "Exit 1" not in ps, ps

        # The worker's sandbox: every layer, cgroups included where the host lets us.
        check = main.compose(
            "exec", "-T", "worker", "setpriv", "--reuid=arena", "--regid=arena",
            "--init-groups", "--bounding-set=-all", "--",
            "python", "manage.py", "arena_check", "--sandbox",
        )  # fmt: skip
        print(check)
        assert "sandbox namespaces:" in check and "sandbox seccomp:" in check
        assert "memory and pids per bot" in check, "bots would run with rlimits only"
        # ... and in force: 200 MiB touched under a 64 MiB cgroup (RLIMIT_AS is 512 MiB) is an
        # OOM kill; with rlimits only it would succeed.
        probe = main.compose(
            "exec", "-T", "worker", "setpriv", "--reuid=arena", "--regid=arena",
            "--init-groups", "--bounding-set=-all", "--", "python", "-c", MEMORY_PROBE,
        )  # fmt: skip
        assert "killed for exceeding its memory limit (64 MiB)" in probe, probe

        # A user, then everything else through the API, as the README shows.
        password = secrets.token_urlsafe(16)
        main.compose(
            "exec", "-T", "web", "python", "manage.py", "shell", "--no-imports", "-c",
            "from django.contrib.auth import get_user_model; "
            f"get_user_model().objects.create_user('alice', password='{password}')",
        )  # fmt: skip
        token = _api(
            port, "POST", "/api/auth/token/", json={"username": "alice", "password": password}
        )["token"]
        bot = _api(port, "POST", "/api/bots/", token, json={"name": "dockbot", "game": "lie21"})
        t = time.monotonic()
        version = _api(port, "POST", f"/api/bots/{bot['id']}/versions/", token, file=("b.py", BOT))
        path = f"/api/bots/{bot['id']}/versions/{version['number']}/"
        status = _wait(
            "the upload is validated",
            lambda: (
                _api(port, "GET", path, token)["status"] in {"valid", "invalid"}
                and _api(port, "GET", path, token)["status"]
            ),
            300,
        )
        assert status == "valid", _api(port, "GET", path, token)
        timings["validate_s"] = time.monotonic() - t

        t = time.monotonic()
        first = _wait("a ladder match", lambda: _done_matches(port, token, bot["id"]), 300)
        timings["first_match_s"] = time.monotonic() - t

        # The playground: a draft run on the worker's playground queue, its replay served, and
        # the editor's bundle among the static files.
        t = time.monotonic()
        run = _api(
            port,
            "POST",
            "/api/playground/runs/",
            token,
            json={"game": "lie21", "source": BOT.decode(), "opponents": ["random"], "matches": 2},
        )
        played = _wait(
            "a playground run",
            lambda: (
                (done := _api(port, "GET", f"/api/playground/runs/{run['id']}/", token))["status"]
                == "done"
                and done
            ),
            120,
            every_s=1.0,
        )
        assert played["played"] == 2, played
        replay = _api(port, "GET", played["matches"][0]["replay"], token)
        assert replay["game"] == "lie21"
        timings["playground_run_s"] = time.monotonic() - t
        bundle = urllib.request.Request(
            f"http://127.0.0.1:{port}/static/arena/editor/editor.bundle.js",
            headers={"Host": "localhost"},
        )
        with urllib.request.urlopen(bundle, timeout=30) as response:
            assert b"createEditor" in response.read()

        # The starter kit, built into the image (no pip, no index at run time: issue 32's
        # 503): served at once, and it installs offline and plays outside the repository.
        t = time.monotonic()
        kit = _download(port, "/games/lie21/kit.zip")
        assert kit[:2] == b"PK", kit[:200]
        (tmp_path / "kit.zip").write_bytes(kit)
        with zipfile.ZipFile(tmp_path / "kit.zip") as archive:
            archive.extractall(tmp_path)
        folder = tmp_path / "lie21-starter"
        wheel = next(folder.glob("bluff_arena_engine-*.whl")).name
        offline = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "PIP_NO_INDEX": "1"}
        offline["PIP_CONFIG_FILE"] = os.devnull
        venv = tmp_path / "kit-venv"
        python = str(venv / "bin/python")
        for command in (
            [sys.executable, "-m", "venv", str(venv)],
            [python, "-m", "pip", "install", "-q", "--find-links", "wheels", wheel],
            [python, "-m", "engine", "play", "my_bot.py", "random", "--in-process", "--json"],
        ):
            done = subprocess.run(
                command, cwd=folder, env=offline, capture_output=True, text=True, timeout=300
            )
            assert done.returncode == 0, (command, done.stdout, done.stderr)
        assert json.loads(done.stdout)["game"] == "lie21"
        timings["kit_s"] = time.monotonic() - t

        # The worker host: the main worker stopped, so whatever plays now is the new one.
        main.compose("stop", "worker")
        t = time.monotonic()
        extra.compose("up", "-d", "--no-build")
        worker_ps = extra.compose("ps")
        assert "postgres" not in worker_ps and "setup" not in worker_ps, worker_ps
        ids = extra.compose("ps", "-q").split()
        assert len(ids) == 1
        mounts = subprocess.run(
            ["docker", "inspect", "-f", "{{json .Mounts}}", ids[0]],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert json.loads(mounts) == [], mounts
        # Whatever finished up to now may be the main worker's (it finishes its task on stop).
        seen = {m["id"] for m in _done_matches(port, token, bot["id"])} | {m["id"] for m in first}
        later = _wait(
            "a match played by the worker host",
            lambda: [m for m in _done_matches(port, token, bot["id"]) if m["id"] not in seen],
            300,
        )
        timings["worker_host_match_s"] = time.monotonic() - t
        assert later
        try:
            _wait(
                "the worker host's log names the match",
                lambda: any(
                    f"match={m['id']} " in extra.compose("logs", "--no-color", "worker")
                    for m in later
                ),
                30,
            )
        except AssertionError as exc:
            # Seen once under heavy load (a match counted as the worker host's that its log
            # did not name): say which matches, and what each worker logged, for next time.
            worker_log = extra.compose("logs", "--no-color", "--tail", "60", "worker")
            main_log = main.compose("logs", "--no-color", "--tail", "60", "worker")
            raise AssertionError(
                f"{exc}\nmatches taken as the worker host's: {later}\nseen before: "
                f"{sorted(seen)}\n--- worker host log ---\n{worker_log}\n"
                f"--- main worker log ---\n{main_log}"
            ) from None
    finally:
        t = time.monotonic()
        extra.compose("down", "-v", check=False)
        main.compose("down", "-v", check=False)
        subprocess.run(["docker", "rmi", "-f", tag], capture_output=True, check=False)
        timings["down_s"] = time.monotonic() - t
        timings["total_s"] = time.monotonic() - started
        compose = subprocess.run(
            [*compose_command(), "version", "--short"], capture_output=True, text=True
        ).stdout.strip()
        print(
            f"docker stack timings (compose {compose}): "
            + ", ".join(f"{k}={v:.0f}" for k, v in timings.items())
        )
    left = subprocess.run(
        ["docker", "ps", "-aq", "--filter", f"label=com.docker.compose.project={project}"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.split()
    assert left == []
