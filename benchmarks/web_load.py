"""Web load: throughput and tail latency of the pages people open, with 50 clients at once.

Seeds a database of its own (as ``api_load.py`` does: bots, matches, real replays), serves
the app with gunicorn sized by ``arena/gunicorn_conf.py``, and drives it from 50 client
threads for 30 seconds with a mix of what visitors open: the ladder page, the match list
page, a match page (with its embedded replay), a replay download and the API's bot list.
Only 127.0.0.1 is ever contacted, and the run stops by itself. Prints:

    web_load_rps: N req/s      completed requests per second over the run
    web_load_p99_ms: N ms      99th percentile latency, request sent to body read
    web_load_median_ms: N ms

Clients behave like browsers: a client that has seen a page sends ``If-None-Match`` /
``If-Modified-Since`` when it opens it again, and asks for gzip. Goal on a 2-core machine:
p99 < 250 ms with at least 300 requests/s.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/arena_bench \\
        .venv/bin/python benchmarks/web_load.py

Like ``api_load.py`` it needs PostgreSQL (default ``arena_bench`` on 127.0.0.1); the database
named in DATABASE_URL is dropped and created again.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import statistics
import sys
import tempfile
import threading
import time

import api_load  # the seeding and server helpers (this directory is on sys.path)

MIX = (("ladder", 3), ("match_list", 2), ("match_page", 3), ("replay", 3), ("bot_list", 2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=1_000)
    parser.add_argument("--matches", type=int, default=20_000)
    parser.add_argument("--replays", type=int, default=2_000, help="matches with a replay")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument(
        "--sync-workers",
        type=int,
        default=0,
        help="plain sync gunicorn workers instead of arena/gunicorn_conf.py (for comparison)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="arena-web-load-") as data_dir:
        url = os.environ.get("DATABASE_URL") or api_load.DEFAULT_URL
        latencies, elapsed = run(args, url, data_dir)
    every = [ms for values in latencies.values() for ms in values]
    for kind, values in sorted(latencies.items()):  # where the time goes, on stderr
        api_load.log(
            f"{kind}: {len(values)} requests, median {statistics.median(values):.1f} ms, "
            f"p99 {api_load.percentile(values, 0.99):.0f} ms"
        )
    print(f"web_load_rps: {len(every) / elapsed:.0f} req/s")
    print(f"web_load_p99_ms: {api_load.percentile(every, 0.99):.0f} ms")
    print(f"web_load_median_ms: {statistics.median(every):.1f} ms")


def run(args: argparse.Namespace, url: str, data_dir: str) -> tuple[dict[str, list[float]], float]:
    env = {
        "DJANGO_SETTINGS_MODULE": "arena.settings",
        "DATABASE_URL": url,
        "SECRET_KEY": "benchmark-only-not-a-secret",
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "ARENA_DATA_DIR": data_dir,
        "LOG_LEVEL": "WARNING",
    }
    api_load.recreate_database(url)
    api_load.setup_django(env)
    with_replay = api_load.seed(bots=args.bots, matches=args.matches, replays=args.replays)
    from django.core.management import call_command
    from django.db import connection

    call_command("collectstatic", interactive=False, verbosity=0)
    connection.close()  # the server's processes must not share this one
    paths = _paths(args, with_replay)
    server = api_load.start_server(env, args.port, args.sync_workers or None)
    try:
        _drive(args.port, paths, clients=args.clients, seconds=3.0)  # warm up
        started = time.monotonic()
        latencies = _drive(args.port, paths, clients=args.clients, seconds=args.seconds)
        return latencies, time.monotonic() - started
    finally:
        api_load.stop_server(server)
        api_load.drop_database(url)


def _paths(args: argparse.Namespace, with_replay: list[int]):
    pages = max(1, args.bots // 50)
    kinds = [kind for kind, weight in MIX for _ in range(weight)]

    def pick(rng: random.Random) -> tuple[str, str]:
        kind = rng.choice(kinds)
        if kind == "ladder":
            return kind, f"/ladder/lie21/?page={rng.randint(1, min(pages, 5))}"
        if kind == "match_list":
            return kind, f"/matches/?page={rng.randint(1, 20)}"
        if kind == "match_page":
            return kind, f"/matches/{rng.choice(with_replay[:200])}/"
        if kind == "replay":
            return kind, f"/api/matches/{rng.choice(with_replay)}/replay/"
        return kind, f"/api/bots/?page={rng.randint(1, 10)}"

    return pick


def _drive(port: int, pick, *, clients: int, seconds: float) -> dict[str, list[float]]:
    """Latencies (ms) by kind of every request the clients completed within ``seconds``."""
    deadline = time.monotonic() + seconds
    latencies: dict[str, list[float]] = {kind: [] for kind, _ in MIX}
    failures: list[str] = []
    lock = threading.Lock()

    def client(number: int) -> None:
        rng = random.Random(number)
        seen: dict[str, tuple[str | None, str | None]] = {}  # a browser's cache validators
        mine: list[tuple[str, float]] = []
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        while time.monotonic() < deadline:
            kind, path = pick(rng)
            headers = {"Accept-Encoding": "gzip"}
            etag, modified = seen.get(path, (None, None))
            if etag:
                headers["If-None-Match"] = etag
            if modified:
                headers["If-Modified-Since"] = modified
            began = time.perf_counter()
            try:
                connection.request("GET", path, headers=headers)
                response = connection.getresponse()
                response.read()
            except (OSError, http.client.HTTPException) as exc:
                failures.append(f"{type(exc).__name__} {path}")
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                continue
            mine.append((kind, (time.perf_counter() - began) * 1000))
            if response.status not in (200, 304):
                failures.append(f"{response.status} {path}")
            else:
                seen[path] = (response.getheader("ETag"), response.getheader("Last-Modified"))
            if response.getheader("Connection", "").lower() == "close":
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.close()
        with lock:
            for kind, ms in mine:
                latencies[kind].append(ms)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        sys.exit(f"web_load: {len(failures)} failed requests, e.g. {failures[:3]}")
    return latencies


if __name__ == "__main__":
    main()
