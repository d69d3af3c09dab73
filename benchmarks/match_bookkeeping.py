"""What a worker spends on a match besides playing it: read, claim, record, rate, check.

``match_play`` is run for the 28 matches of the tournament benchmark's round robin
(``tournament_speed.py``), in this process, with the sandboxed play replaced by the result
of a real sandboxed play of the same pairing (played once, before the timing). What is left
is the bookkeeping every played match pays: reading the match and its seats, the claim,
the record-and-rate transaction (result, seats, replay, logs, ratings) and the check for
the tournament's end. On a worker with a match per core this is CPU and waiting taken from
the bots (docs/workers.md, "What bounds the pipeline").

Prints exactly::

    match_bookkeeping: N ms            wall time per match (median of the runs)
    match_bookkeeping_cpu: N ms        this process's CPU time per match (median)
    match_bookkeeping_statements: N    SQL statements per match (commits included)

Usage: ``python benchmarks/match_bookkeeping.py [--database-url postgres://...] [--runs 7]``
(default: a scratch SQLite file; with ``--database-url``, a scratch database on that
server, dropped at the end).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tournament_speed as bench  # the same scratch set-up and population


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default="", help="a PostgreSQL server URL")
    parser.add_argument("--runs", type=int, default=7, help="timed tournaments (default 7)")
    parser.add_argument(
        "--redis-url",
        default="redis://127.0.0.1:6379/14",
        help="the cache the ratings' ladder versions go to, as on a worker (skipped if down)",
    )
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="arena-bench-"))
    os.chmod(scratch, 0o755)
    pg = None
    database_url = ""
    if args.database_url:
        database_url, *pg = bench.scratch_postgres(args.database_url)
    try:
        bench.configure(scratch, argparse.Namespace(redis_url=args.redis_url), database_url)
        if not redis_answers(args.redis_url):  # the shared cache a worker writes to, if any
            os.environ.pop("REDIS_URL")
        bench.setup_database()
        wall, cpu, statements = measure(args.runs)
    finally:
        if pg:
            from django.db import connections

            connections.close_all()
            bench.drop_postgres(*pg)
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"match_bookkeeping: {wall:.2f} ms")
    print(f"match_bookkeeping_cpu: {cpu:.2f} ms")
    print(f"match_bookkeeping_statements: {statements:.1f}")


def redis_answers(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


@contextmanager
def counted_statements() -> Iterator[list[int]]:
    """Count this thread's SQL statements and commits (in ``[0]``) while the block runs."""
    from django.db import connection

    count = [0]

    def counted(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        count[0] += 1
        return execute(sql, params, many, context)

    commit = connection.commit

    def counted_commit() -> None:
        count[0] += 1
        commit()

    connection.commit = counted_commit
    try:
        with connection.execute_wrapper(counted):
            yield count
    finally:
        del connection.commit


def measure(runs: int) -> tuple[float, float, float]:
    """Median wall and CPU ms per match, and statements per match, over ``runs`` tournaments."""
    from arena.models import Match
    from arena.services import dispatch
    from arena.services.matches import playing
    from arena.services.tournaments import tournament_create, tournament_start

    # No worker runs here: the tasks the services queue (the matches, the tournament's end)
    # are not sent.
    dispatch._send = lambda *args: None
    played: dict[tuple[int, ...], Any] = {}
    real_play = playing.play

    def replayed(match: Match, limits: Any = None) -> Any:
        key = tuple(seat.version_id for seat in match.seats.all())
        if key not in played:
            played[key] = real_play(match, limits)
        return played[key]

    playing.play = replayed
    walls, cpus, counts = [], [], []
    for run in range(runs + 1):  # the first run plays each pairing once: not timed
        tournament = tournament_create(
            name=f"Bookkeeping {run}", game="lie21", created_by=None, seed=bench.TOURNAMENT_SEED
        )
        tournament_start(tournament_id=tournament.pk)
        ids = sorted(Match.objects.filter(tournament=tournament).values_list("id", flat=True))
        with counted_statements() as statements:
            started, cpu_started = time.perf_counter(), time.process_time()
            for match_id in ids:
                playing.match_play(match_id=match_id, worker="bench")
            wall, used = time.perf_counter() - started, time.process_time() - cpu_started
        if run:
            walls.append(wall / len(ids) * 1000)
            cpus.append(used / len(ids) * 1000)
            counts.append(statements[0] / len(ids))
    return statistics.median(walls), statistics.median(cpus), statistics.median(counts)


if __name__ == "__main__":
    main()
