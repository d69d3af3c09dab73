"""How long a playground run takes, from the run request to its replay being available.

One Lie 21 match of the game's starter bot (the draft) against the built-in ``random``, with a
free worker: ``POST /api/playground/runs/`` (the upload check in a child interpreter, the run
and its match stored, the task sent to the ``playground`` queue) until
``GET /api/playground/runs/{id}/matches/1/replay/`` answers 200 (the worker took the task,
played the match in the sandbox and stored its replay). The requests go through the real
views in this process (Django's test client); the worker is a real Celery worker (a pool of
``--concurrency`` processes, like ``make run``'s) on a real Redis.

Scratch state only: a PostgreSQL database created and dropped on ``--database-url``'s
server (default: ``DATABASE_URL``; without one, a SQLite file, which is not the figure's
condition and says so on stderr) and Redis database 14 (``--redis-url``), flushed. The first
``--warmup`` runs are not counted (the worker's pool processes start cold). Prints::

    playground_run_p50_ms: N ms
    playground_run_p95_ms: N ms

Usage: ``python benchmarks/playground.py [--runs 40] [--database-url URL] [--redis-url URL]``.
The goal is a p95 under 1,500 ms.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.tournament_speed import (  # noqa: E402 - after the path is set
    configure as pipeline_configure,
)
from benchmarks.tournament_speed import (  # noqa: E402 - after the path is set
    drop_postgres,
    empty_broker,
    scratch_postgres,
    start_workers,
    stop_workers,
)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40, help="timed runs (default 40)")
    parser.add_argument("--warmup", type=int, default=3, help="untimed runs first (default 3)")
    parser.add_argument("--concurrency", type=int, default=2, help="worker processes (2)")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/14")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("DATABASE_URL", ""),
        help="a PostgreSQL server URL to create a scratch database on (default: DATABASE_URL)",
    )
    parser.add_argument("--timeout", type=float, default=60, help="give up on a run after N s")
    return parser.parse_args()


def configure(scratch: Path, args: argparse.Namespace, database_url: str) -> dict[str, str]:
    """tournament_speed's environment, for the site's client too; the polls meet 404s until
    the replay is there: nothing worth a line."""
    return pipeline_configure(
        scratch,
        args,
        database_url,
        log_level="ERROR",
        ALLOWED_HOSTS="testserver",
        ARENA_PLAYGROUND_RUNS_PER_HOUR="1000000",
    )


def one_run(client, starter: str, timeout: float) -> float:
    """Milliseconds from the run request to its replay being served."""
    started = time.perf_counter()
    response = client.post(
        "/api/playground/runs/",
        {"game": "lie21", "source": starter, "opponents": ["random"], "matches": 1},
        content_type="application/json",
    )
    if response.status_code != 201:
        sys.exit(f"the run was refused: {response.status_code} {response.content[:300]!r}")
    replay = f"/api/playground/runs/{response.json()['id']}/matches/1/replay/"
    deadline = started + timeout
    while client.get(replay).status_code != 200:
        if time.perf_counter() > deadline:
            sys.exit(f"no replay after {timeout:.0f} s (see the worker log)")
        time.sleep(0.005)
    return (time.perf_counter() - started) * 1000


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (p95 of 40 runs: the 38th fastest)."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(share * len(ordered) + 0.4999)))
    return ordered[rank - 1]


def main() -> None:
    args = parse_args()
    postgres = args.database_url.startswith(("postgres://", "postgresql://"))
    if not postgres:
        print(
            "playground benchmark: no PostgreSQL URL (--database-url or DATABASE_URL): a SQLite "
            "file instead, not the conditions of the figure",
            file=sys.stderr,
        )
    broker = empty_broker(args.redis_url)
    scratch = Path(tempfile.mkdtemp(prefix="arena-bench-playground-"))
    os.chmod(scratch, 0o755)
    database_url, admin, name = scratch_postgres(args.database_url) if postgres else ("", "", "")
    workers = []
    try:
        env = configure(scratch, args, database_url)
        import django

        django.setup()
        from django.contrib.auth import get_user_model
        from django.core.management import call_command
        from django.test import Client

        from engine import get_game

        call_command("migrate", verbosity=0)
        user = get_user_model().objects.create_user("bench")
        client = Client()
        client.force_login(user)
        starter = get_game("lie21").builtin_bots()["starter"].read_text()
        workers = start_workers(args.concurrency, env, scratch, separate=False)
        for _ in range(args.warmup):
            one_run(client, starter, args.timeout)
        times = [one_run(client, starter, args.timeout) for _ in range(args.runs)]
    finally:
        stop_workers(workers)
        broker.flushdb()
        from django.db import connections

        connections.close_all()
        if postgres:
            drop_postgres(admin, name)
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"playground_run_p50_ms: {statistics.median(times):.0f} ms")
    print(f"playground_run_p95_ms: {percentile(times, 0.95):.0f} ms")


if __name__ == "__main__":
    main()
