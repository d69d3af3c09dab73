"""``manage.py arena_up``: bring the whole arena up in one command (what ``make run`` calls).

Migrates, collects static files, sets up the demo admin and the built-in bots, then runs the
web server (gunicorn), a Celery worker and Celery beat side by side, with their output
prefixed by name, and builds the starter kits in the background (``manage.py arena_kits``,
once per version of the sources: until it is done a kit download answers 503 "not built
yet", and a failed build says why there and in the output). Ctrl-C (or SIGTERM) stops all
three cleanly (and the build, if it still runs); if one of them dies, the others are stopped
too, so nothing is left running half-way.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from typing import IO, Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.test.utils import override_settings

from arena.preflight import check_broker, check_database, check_sandbox

MANIFEST = {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}

STOP_GRACE_S = 15.0


class Command(BaseCommand):
    help = "Set up and run the arena: web server, Celery worker and beat."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument(
            "--web-workers",
            type=int,
            default=None,
            help="gunicorn processes (default: arena/gunicorn_conf.py's sizing, or WEB_WORKERS)",
        )
        parser.add_argument("--concurrency", type=int, default=2, help="Celery worker processes")
        parser.add_argument("--no-setup", action="store_true", help="skip migrate and set-up")

    def handle(self, *args: Any, **options: Any) -> None:
        problem = check_database()
        if problem:
            raise CommandError(problem)
        if not options["no_setup"]:
            call_command("migrate", interactive=False, verbosity=0)
            # Always with the manifest, as production serves them: a later start with
            # DEBUG=0 then finds it (a DEBUG start reads the same files by their own names).
            with override_settings(STORAGES={**settings.STORAGES, "staticfiles": MANIFEST}):
                call_command("collectstatic", interactive=False, verbosity=0)
            call_command("arena_setup")
        problem = check_broker()
        if problem:
            raise CommandError(problem)
        # The worker refuses to start without a sandbox (workers/celery.py): say so here,
        # before anything starts, rather than after web and beat are up.
        problem = check_sandbox()
        if problem:
            raise CommandError(problem)
        url = f"http://{options['host']}:{options['port']}/"
        processes = _Processes()
        processes.start("web", _web_command(options))
        # Every queue, in the order the worker serves them (playground, validation, then
        # ladder and tournament matches): CELERY_TASK_QUEUES.
        queues = ",".join(queue.name for queue in settings.CELERY_TASK_QUEUES)
        concurrency = str(options["concurrency"])
        processes.start("worker", _celery("worker", "-l", "info", "-c", concurrency, "-Q", queues))
        # The tournaments' bookkeeping (starts at a sign-up deadline, next rounds) never waits
        # behind the matches the worker above is playing.
        processes.start(
            "control",
            _celery("worker", "-l", "info", "-c", "1", "-Q", "control", "-n", "control@%h"),
        )
        processes.start("beat", _celery("beat", "-l", "info"))
        # Never in a request (it takes pip): kits are read once this has built them.
        manage = [sys.executable, "manage.py", "arena_kits"]
        processes.start("kits", manage, one_shot=True)
        signal.signal(signal.SIGINT, processes.request_stop)
        signal.signal(signal.SIGTERM, processes.request_stop)
        if processes.wait_until_serving(url + "healthz"):
            self.stdout.write(self.style.SUCCESS(f"Bluff Arena is up at {url}  (Ctrl-C stops it)"))
        code = processes.supervise()
        sys.exit(code)


def _web_command(options: dict[str, Any]) -> list[str]:
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "arena.wsgi:application",
        "--config",
        "python:arena.gunicorn_conf",
        "--bind",
        f"{options['host']}:{options['port']}",
        *(["--workers", str(options["web_workers"])] if options["web_workers"] else []),
        "--access-logfile",
        "-",
        "--graceful-timeout",
        "10",
    ]


def _celery(*args: str) -> list[str]:
    return [sys.executable, "-m", "celery", "-A", "workers", *args]


class _Processes:
    """Child processes in their own sessions, stopped together."""

    def __init__(self) -> None:
        self.children: dict[str, subprocess.Popen[bytes]] = {}
        self.one_shot: set[str] = set()  # children that end by themselves (the kits' build)
        self.stopping = threading.Event()

    def start(self, name: str, command: list[str], *, one_shot: bool = False) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        child = subprocess.Popen(
            command,
            cwd=settings.BASE_DIR,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # our Ctrl-C handler decides how they stop
        )
        self.children[name] = child
        if one_shot:
            self.one_shot.add(name)
        assert child.stdout is not None
        threading.Thread(target=_relay, args=(name, child.stdout), daemon=True).start()

    def request_stop(self, signum: int, frame: Any) -> None:
        self.stopping.set()

    def wait_until_serving(self, url: str, timeout_s: float = 60.0) -> bool:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline and not self.stopping.is_set():
            if any(
                child.poll() is not None
                for name, child in self.children.items()
                if name not in self.one_shot
            ):
                return False
            try:
                with urllib.request.urlopen(url, timeout=2):  # noqa: S310 - our own URL
                    return True
            except OSError as exc:
                if getattr(exc, "code", None) == 503:
                    return True  # serving, though a check is failing: /healthz says which
            time.sleep(0.3)
        return False

    def supervise(self) -> int:
        """Run until Ctrl-C or until a child dies; then stop every child. Returns exit code."""
        failed = None
        while not self.stopping.wait(0.5):
            for name, child in self.children.items():
                if child.poll() is not None and name not in self.one_shot:
                    failed = name
                    break
            if failed:
                break
        if failed:
            code = self.children[failed].returncode
            print(f"arena: {failed} exited with status {code}; stopping the others", flush=True)
        else:
            print("arena: stopping web, worker and beat...", flush=True)
        self.stop_all()
        return 1 if failed else 0

    def stop_all(self) -> None:
        # Each leader stops its own children (gunicorn workers, Celery's pool) on SIGTERM;
        # signalling the whole group would kill those children under their parent's feet.
        for name, child in self.children.items():
            if child.poll() is None and name in self.one_shot:
                with contextlib.suppress(ProcessLookupError):  # it may just have ended
                    os.killpg(child.pid, signal.SIGTERM)  # the build's pip too
            elif child.poll() is None:
                os.kill(child.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE_S
        for child in self.children.values():
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()


def _relay(name: str, stream: IO[bytes]) -> None:
    prefix = f"{name:>6} | "
    for raw in iter(stream.readline, b""):
        sys.stdout.write(prefix + raw.decode(errors="replace"))
        sys.stdout.flush()
