"""How long a 64-bot Swiss of Lie 21 takes through the real pipeline.

64 bots (copies of the built-in random, greedy, heuristic and search bots: four strengths,
sixteen of each, every match with its own seeds) play a Swiss of the default
ceil(log2 64) + 1 = 7 rounds, 32 matches a round, 224 in all. ``tournament_start`` creates
round 1; Celery workers (real processes, through Redis) claim, play in the sandbox, record
and rate each match, and the match recorded last in a round has the next round created, until
the standings are stored. Timed from the start until the tournament is finished and every
match rated, read from the rows' own timestamps.

Runs against scratch state: a SQLite file in a temporary directory, or with
``--database-url postgres://...`` a scratch database (``--database-name``, default
``h_formats_bench``) created and dropped on that server; Redis database 11 (``--redis-url``),
flushed. Prints exactly::

    swiss_64_lie21: N s

Usage: ``python benchmarks/swiss_64.py [--workers 2] [--redis-url URL] [--database-url URL]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import tournament_speed  # noqa: E402 - the worker start and stop, shared

STRENGTHS = ["random", "greedy", "heuristic", "search"]
BOTS = 64
SEED = 64


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/11")
    parser.add_argument("--database-url", default="", help="a PostgreSQL server URL")
    parser.add_argument("--database-name", default="h_formats_bench")
    parser.add_argument("--bots", type=int, default=BOTS)
    parser.add_argument("--timeout", type=float, default=1800, help="give up after N seconds")
    return parser.parse_args()


def scratch_postgres(url: str, name: str) -> tuple[str, str]:
    """Create the scratch database ``name`` on ``url``'s server: (its URL, maintenance URL)."""
    import psycopg

    parts = urlsplit(url)
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}")), admin


def setup_database(count: int) -> None:
    """Migrate the scratch database and add ``count`` bots with a valid version each."""
    names = [STRENGTHS[number % len(STRENGTHS)] for number in range(1, count + 1)]
    tournament_speed.setup_database(names)


def swiss(timeout: float) -> tuple[float, int, int]:
    """(seconds, matches, rounds) from the start to finished with every match rated."""
    from arena.services.tournaments import tournament_create

    tournament = tournament_create(
        name="Swiss 64", game="lie21", created_by=None, seed=SEED, format="swiss"
    )
    started, matches = tournament_speed.start_until_rated(
        tournament, timeout, what="the Swiss", poll=0.5
    )
    if matches.exclude(status="done").exists():
        sys.exit(f"{matches.exclude(status='done').count()} matches did not play")
    seconds = tournament_speed.seconds_to_rated(tournament, started)
    return seconds, matches.count(), tournament.rounds


def main() -> None:
    args = parse_args()
    broker = tournament_speed.empty_broker(args.redis_url)
    scratch = Path(tempfile.mkdtemp(prefix="arena-swiss-"))
    os.chmod(scratch, 0o755)
    admin = ""
    database_url = ""
    if args.database_url:
        database_url, admin = scratch_postgres(args.database_url, args.database_name)
    workers = []
    try:
        env = tournament_speed.configure(scratch, args, database_url)
        setup_database(args.bots)
        workers = tournament_speed.start_workers(args.workers, env, scratch, separate=False)
        seconds, matches, rounds = swiss(args.timeout)
    finally:
        tournament_speed.stop_workers(workers)
        broker.flushdb()
        if admin:
            from django.db import connections

            connections.close_all()
            import psycopg

            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{args.database_name}" WITH (FORCE)')
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"matches: {matches} in {rounds} rounds", file=sys.stderr)
    print(f"swiss_64_lie21: {seconds:.1f} s")


if __name__ == "__main__":
    main()
