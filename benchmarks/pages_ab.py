"""Old against new, at once: the site's pages from two checkouts, request by request.

On a shared machine the load moves by half from one minute to the next, so two runs of
``api_load.py`` minutes apart say little about a change. This starts gunicorn from each of
two checkouts (``--old``, ``--new``; each on its own database and Redis database, as each
checkout's schema and cache keys are its own), sends every path to both in turn from the
same client threads (which goes first alternates), and prints for each side::

    pages_ab_<kind>_<side>_median: N ms
    pages_ab_<kind>_<side>_p90: N ms
    pages_ab_<kind>_<side>_p99: N ms
    pages_ab_<kind>_<side>_server_cpu_ms: N ms   its gunicorn's CPU per request

Kinds (``--kind``): ``bot_page`` (a random bot's page), ``ladder_page`` (a random page of
the Lie 21 ladder in one of its ten orders), ``matches_page`` (a random page of the first
100 of the match list, one in four a random bot's), ``match_page`` (a random match). Pages
are asked for anonymously, as ``api_load.py`` asks. Both databases must hold the same data
(an ``api_load.py --keep`` database, and a copy made with ``CREATE DATABASE ... TEMPLATE``
migrated to the old checkout's schema); nothing is written to either.

    .venv/bin/python benchmarks/pages_ab.py --kind bot_page \\
        --old /path/to/old-checkout --old-db postgres://postgres@127.0.0.1:5432/arena_big_old \\
        --new . --new-db postgres://postgres@127.0.0.1:5432/arena_big \\
        --old-redis redis://127.0.0.1:6379/12 --new-redis redis://127.0.0.1:6379/11

Each checkout needs its static files collected (``manage.py collectstatic``) first. Both
Redis databases are cleared of the arena's keys before measuring.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import api_load  # the HTTP, CPU and cache helpers (this directory is on sys.path)

KINDS = ("bot_page", "ladder_page", "matches_page", "match_page")
PORTS = {"old": 8811, "new": 8812}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", choices=KINDS, default="bot_page")
    parser.add_argument("--old", required=True, help="the old checkout")
    parser.add_argument("--new", required=True, help="the new checkout")
    parser.add_argument("--old-db", required=True)
    parser.add_argument("--new-db", required=True)
    parser.add_argument("--old-redis", required=True)
    parser.add_argument("--new-redis", required=True)
    parser.add_argument("--requests", type=int, default=400, help="per side")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per side")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="arena-pages-ab-") as data_dir:
        results = run(args, data_dir)
    api_load.log(f"conditions: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    for side in ("old", "new"):
        latencies, cpu = results[side]
        name = f"pages_ab_{args.kind}_{side}"
        print(f"{name}_median: {statistics.median(latencies):.1f} ms")
        print(f"{name}_p90: {api_load.percentile(latencies, 0.9):.1f} ms")
        print(f"{name}_p99: {api_load.percentile(latencies, 0.99):.1f} ms")
        print(f"{name}_server_cpu_ms: {1000 * cpu / len(latencies):.2f} ms")


def _ids(url: str) -> tuple[list[int], int, int]:
    import psycopg

    with psycopg.connect(url.replace("postgres://", "postgresql://", 1)) as connection:
        bots = [row[0] for row in connection.execute("SELECT id FROM arena_bot")]
        last = connection.execute("SELECT max(id) FROM arena_match").fetchone()[0] or 1
        ladder = connection.execute(
            "SELECT count(*) FROM arena_rating r JOIN arena_bot b ON b.id = r.bot_id"
            " WHERE r.game = %s AND r.current AND b.is_active",
            [api_load.MAIN_GAME],
        ).fetchone()[0]
    return bots, last, max(1, -(-ladder // 50))


def run(args: argparse.Namespace, data_dir: str) -> dict[str, tuple[list[float], float]]:
    bots, last, ladder_pages = _ids(args.new_db)
    paths = {
        "bot_page": lambda rng: f"/bots/{rng.choice(bots)}/",
        "ladder_page": lambda rng: (
            f"/games/{api_load.MAIN_GAME}/?page={rng.randint(1, ladder_pages)}"
            f"&sort={rng.choice(api_load.LADDER_PAGE_SORTS)}"
        ),
        "matches_page": lambda rng: (
            f"/matches/?bot={rng.choice(bots)}"
            if rng.random() < 0.25
            else f"/matches/?page={rng.randint(1, 100)}"
        ),
        "match_page": lambda rng: f"/matches/{rng.randint(1, last)}/",
    }[args.kind]
    servers = {side: _start(args, side, data_dir) for side in ("old", "new")}
    try:
        warm = random.Random(99)
        for _ in range(40):
            path = paths(warm)
            for side in servers:
                api_load.get(PORTS[side], path)
        before = {
            side: api_load.session_cpu_seconds(server.pid) for side, server in servers.items()
        }
        latencies: dict[str, list[float]] = {"old": [], "new": []}
        failures: list[str] = []
        lock = threading.Lock()

        def client(number: int) -> None:
            rng = random.Random(number)
            for turn in range(args.requests // args.threads):
                path = paths(rng)
                for side in ("old", "new") if (number + turn) % 2 else ("new", "old"):
                    began = time.perf_counter()
                    status, _ = api_load.get(PORTS[side], path)
                    spent = (time.perf_counter() - began) * 1000
                    with lock:
                        latencies[side].append(spent)
                        if status != 200:
                            failures.append(f"{side} {status} {path}")

        api_load.run_clients(client, args.threads, failures, "pages_ab")
        return {
            side: (latencies[side], api_load.session_cpu_seconds(server.pid) - before[side])
            for side, server in servers.items()
        }
    finally:
        for server in servers.values():
            api_load.stop_server(server)


#: The arena's cache key prefix (``CACHES`` in arena/settings.py).
KEY_PREFIX = "arena"


def _clear(redis_url: str) -> None:
    """Forget the arena's keys in this Redis database (its pages, ladder orders, counts)."""
    import redis

    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(match=f"{KEY_PREFIX}:*", count=1000))
    for start in range(0, len(keys), 1000):
        client.delete(*keys[start : start + 1000])


def _start(args: argparse.Namespace, side: str, data_dir: str) -> subprocess.Popen:
    root = str(Path(getattr(args, side)).resolve())
    env = {
        **os.environ,
        **api_load.server_env(
            getattr(args, f"{side}_db"),
            data_dir,
            REDIS_URL=getattr(args, f"{side}_redis"),
            ARENA_EXTRA_GAMES=api_load.MULTI_GAME_MODULE,
            PYTHONPATH=root,
        ),
    }
    _clear(env["REDIS_URL"])
    server = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("gunicorn")),
            "arena.wsgi:application",
            f"--workers={args.workers}",
            f"--bind=127.0.0.1:{PORTS[side]}",
            "--log-level=warning",
            "--no-control-socket",
        ],
        cwd=root,
        env=env,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if api_load.get(PORTS[side], "/healthz")[0] in (200, 503):
                return server
        except OSError:
            time.sleep(0.3)
        if server.poll() is not None:
            sys.exit(f"pages_ab: the {side} gunicorn exited at start")
    os.killpg(server.pid, signal.SIGTERM)
    sys.exit(f"pages_ab: the {side} gunicorn did not answer within 60 s")


if __name__ == "__main__":
    main()
