"""Schemathesis against a live server, as CI runs it (``make schemathesis``).

What it does, so a failure can be reproduced by hand:

1. A scratch PostgreSQL database ``<DATABASE_URL's name>_schemathesis`` is dropped and made
   afresh, migrated, and given rows to find: staff ``olga`` (who owns bots, so owner-only
   routes are reached) and other users' bots, a two-seat match with its replay and logs, a
   three-seat match of the test game High Card (hosted for the run, ``ARENA_EXTRA_GAMES``),
   tournaments, a schedule, and olga's playground draft and played run. Playground runs the
   fuzzing starts are queued (nothing consumes them) and capped by the hourly quota
   (``ARENA_PLAYGROUND_RUNS_PER_HOUR``, left as it is: its 429 is documented).
2. The static files are collected, as ``make run`` and the image do, and gunicorn serves the
   app on 127.0.0.1 (a free port) with ``DEBUG=0`` and the throttles raised out of the way
   (they are tested on their own). Without the collected files every HTML page, the 404
   page included, is a 500: schemathesis's own probe of an odd path met one.
3. ``schemathesis run`` fetches ``/api/schema/?format=json`` and runs every check
   (``--checks all``) on every operation with a fixed example budget and seed, as olga
   (``Authorization: Token ...``), stateful phase included. Its exit status is ours: 0 only
   with zero failures.
4. The server's log (``test-artifacts/schemathesis/server.log``) must hold no
   ``Internal Server Error``: a 500 on any request counts, also on the requests that
   schemathesis sends outside its checks (its probes of odd paths and headers).

Environment: ``DATABASE_URL`` (PostgreSQL; required), ``REDIS_URL`` (queued validations go
there; nothing consumes them), ``SCHEMATHESIS_MAX_EXAMPLES`` (default 60),
``SCHEMATHESIS_SEED`` (default 1).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
#: What ``django.request`` logs for a response with status 500.
SERVER_ERROR = "Internal Server Error"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _scratch_database(url: str) -> str:
    """Drop and create ``<name>_schemathesis`` next to the configured database; its URL."""
    import psycopg

    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql"):
        sys.exit("schemathesis_run: DATABASE_URL must be a PostgreSQL URL")
    name = f"{parts.path.lstrip('/') or 'arena'}_schemathesis"
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}"))


SEED = """
from rest_framework.authtoken.models import Token
from django.contrib.auth import get_user_model
from tests.arena.factories import (BotFactory, BotVersionFactory, MatchFactory, MatchLogFactory,
    PlaygroundDraftFactory, PlaygroundRunFactory, RatingFactory, TournamentFactory,
    TournamentScheduleFactory, staff_match)
staff = get_user_model().objects.create_user("olga", "olga@example.com", "olga-pass-123",
                                             is_staff=True)
match = staff_match(staff)
MatchLogFactory(match=match, steps=[{"game": 1, "step": 0, "phase": "act", "text": "hi"}])
cards = [BotVersionFactory(bot=BotFactory(owner=staff, name="staffcards", game="highcard"))]
cards += [BotVersionFactory(bot=BotFactory(game="highcard")) for _ in range(2)]
for version in cards:
    RatingFactory(version=version)
three = MatchFactory(versions=cards, game="highcard", placings=(1, 0, 1),
                     totals={"firsts": [0, 3, 0]})
MatchLogFactory(match=three, seat=0)
TournamentFactory(created_by=staff)
TournamentFactory(created_by=staff, game="highcard")
TournamentScheduleFactory(created_by=staff)
PlaygroundDraftFactory(owner=staff)
PlaygroundRunFactory(owner=staff)
print(Token.objects.get_or_create(user=staff)[0].key)
"""


def main() -> int:
    database = os.environ.get("DATABASE_URL")
    if not database:
        sys.exit("schemathesis_run: set DATABASE_URL to a PostgreSQL server")
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": _scratch_database(database),
        "DEBUG": "0",
        "SECRET_KEY": "schemathesis-run-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1",
        "ARENA_THROTTLE_UPLOADS": "1000000/day",
        "ARENA_LOGIN_FAILURES": "1000000",
        "ARENA_LOGIN_ACCOUNT_FAILURES": "1000000",
        "ARENA_LOGIN_ADDRESS_FAILURES": "1000000",
        "ARENA_DATA_DIR": str(ROOT / "test-artifacts" / "schemathesis-data"),
        "DJANGO_SETTINGS_MODULE": "arena.settings",
        "PYTHONPATH": str(ROOT),
        # The three-seat test game is hosted too, so N-seat matches meet the schema.
        "ARENA_EXTRA_GAMES": "tests.games.highcard",
    }
    python = sys.executable
    subprocess.run([python, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    collect = [python, "manage.py", "collectstatic", "--noinput", "-v0"]
    subprocess.run(collect, cwd=ROOT, env=env, check=True)
    token = subprocess.run(
        [python, "manage.py", "shell", "-c", SEED],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()[-1]
    report = ROOT / "test-artifacts" / "schemathesis"
    report.mkdir(parents=True, exist_ok=True)
    server_log = report / "server.log"
    log_file = server_log.open("wb")
    server = subprocess.Popen(
        [str(BIN / "gunicorn"), "arena.wsgi", "-b", f"127.0.0.1:{port}", "-w", "2"],
        cwd=ROOT,
        env=env,
        stdout=log_file,
        stderr=subprocess.STDOUT,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(60):
            try:
                urllib.request.urlopen(f"{base}/api/schema/?format=json", timeout=5).read()
                break
            except OSError:
                time.sleep(0.5)
        command = [
            str(BIN / "schemathesis"),
            "--config-file",
            str(Path(__file__).with_name("schemathesis.toml")),
            "run",
            f"{base}/api/schema/?format=json",
            "--checks",
            "all",
            "--header",
            f"Authorization: Token {token}",
            "--max-examples",
            os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "60"),
            "--generation-deterministic",
            "--workers",
            "2",
            "--report",
            "junit",
            "--report-dir",
            str(report),
            *sys.argv[1:],
        ]
        print(
            "schemathesis_run:",
            " ".join(c if "Token" not in c else "Authorization: Token …" for c in command),
            flush=True,
        )
        returncode = subprocess.run(command, cwd=ROOT, env=env).returncode
    finally:
        server.terminate()
        server.wait(timeout=30)
        log_file.close()
    lines = server_log.read_text(errors="replace").splitlines()
    errors = [line for line in lines if SERVER_ERROR in line]
    for line in errors:
        print("schemathesis_run: the server logged:", line, flush=True)
    return returncode or (1 if errors else 0)


if __name__ == "__main__":
    sys.exit(main())
