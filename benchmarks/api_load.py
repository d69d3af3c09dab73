"""API load: latency of the ladder, the match list and replays at arena scale, on PostgreSQL.

Seeds a database of its own (1,000 bots, 100,000 matches, real replays from in-process
matches of built-in bots on a subset), serves the app with gunicorn on loopback, drives it
with a thread-per-connection HTTP client, and prints one line per figure:

    ladder_median: N ms     GET /api/ladder/lie21/?page=P (50 rows, random page)
    ladder_p99: N ms
    matches_median: N ms    GET /api/matches/?page=P (random page among the first 100),
    matches_p99: N ms       one request in four filtered by a random bot
    replay_median: N ms     GET /api/matches/ID/replay/ with Accept-Encoding: gzip
    replay_p99: N ms

Latency is measured by the client, request sent to body read, with as many client threads as
server workers (so it is service time, not time spent queueing behind our own load).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/arena_bench \\
        .venv/bin/python benchmarks/api_load.py

The database named in DATABASE_URL is dropped and created again; ``--keep`` leaves it for a
second run with ``--no-seed``.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/arena_bench"
BATCH = 5_000


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# --- the database ------------------------------------------------------------------------


def recreate_database(url: str) -> None:
    """Drop and create the database named in ``url``, through the server's ``postgres`` db."""
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if not name or not name.replace("_", "").isalnum():
        sys.exit(f"api_load: refusing to recreate database {name!r}")
    admin = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def drop_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    admin = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{parts.path.lstrip("/")}" WITH (FORCE)')


def setup_django(env: dict[str, str]) -> None:
    os.environ.update(env)
    import django

    django.setup()


def real_replays(count: int) -> list[bytes]:
    """Replays of real matches between built-in bots, as the workers would store them."""
    from engine import InProcessPlayer, builtin_bot, play_match
    from engine.replay import dumps

    bots = ["heuristic", "greedy", "random"]
    replays = []
    for seed in range(count):
        pair = [bots[seed % 3], bots[(seed + 1) % 3]]
        players = [
            InProcessPlayer(f"{bot}{n}", builtin_bot("lie21", bot)) for n, bot in enumerate(pair)
        ]
        replays.append(dumps(play_match("lie21", players, seed=seed).replay))
    return replays


def seed(*, bots: int, matches: int, replays: int) -> list[int]:
    """Fill the database; returns the ids of the matches that have a replay."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from arena.models import Bot, BotVersion, Match, Rating, Replay

    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    rng = random.Random(21)
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"author{n}", password="!") for n in range(bots // 5)
    )
    created = Bot.objects.bulk_create(
        Bot(owner=users[n % len(users)], name=f"bot{n}", description="A benchmark bot. " * 20)
        for n in range(bots)
    )
    versions = BotVersion.objects.bulk_create(
        BotVersion(
            bot=bot,
            number=1,
            file=f"bots/{bot.pk}/{n:064x}.py",
            filename="bot.py",
            kind="py",
            sha256=f"{n:064x}",
            size=1000,
            status="valid",
            validation_log="smoke match vs random: won 7-0\n" * 20,
        )
        for n, bot in enumerate(created)
    )
    for bot, version in zip(created, versions, strict=True):
        bot.active_version = version
        bot.is_active = rng.random() > 0.05
    Bot.objects.bulk_update(created, ["active_version", "is_active"], batch_size=BATCH)
    ratings = []
    for bot in created:
        mu, sigma = rng.gauss(25, 5), rng.uniform(0.8, 8.3)
        played = rng.randint(0, 400)
        wins = rng.randint(0, played)
        draws = rng.randint(0, played - wins)
        ratings.append(
            Rating(
                bot=bot,
                mu=mu,
                sigma=sigma,
                score=mu - 3 * sigma,
                matches=played,
                wins=wins,
                draws=draws,
                losses=played - wins - draws,
            )
        )
    Rating.objects.bulk_create(ratings, batch_size=BATCH)
    log(f"seeded {bots} bots in {time.perf_counter() - started:.1f} s")

    outcomes = ["a", "b", "draw"]
    for start in range(0, matches, BATCH):
        rows = []
        for _ in range(min(BATCH, matches - start)):
            a, b = rng.sample(range(bots), 2)
            outcome = rng.choice(outcomes)
            rows.append(
                Match(
                    version_a=versions[a],
                    version_b=versions[b],
                    bot_a=created[a],
                    bot_b=created[b],
                    seed=rng.getrandbits(62),
                    status="done",
                    outcome=outcome,
                    reason="match_points",
                    match_points_a=7 if outcome == "a" else rng.randint(0, 6),
                    match_points_b=7 if outcome == "b" else rng.randint(0, 6),
                    game_wins_a=rng.randint(0, 4),
                    game_wins_b=rng.randint(0, 4),
                    points_a=rng.randint(100, 600),
                    points_b=rng.randint(100, 600),
                    games_played=rng.randint(4, 9),
                    duration_s=rng.uniform(2, 30),
                    rated=True,
                )
            )
        Match.objects.bulk_create(rows)
    # auto_now_add gave every row the same instant: spread them over the past months.
    now = timezone.now()
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE arena_match SET created = %s - (id * interval '97 seconds'),"
            " started_at = %s - (id * interval '97 seconds') + interval '1 second',"
            " finished_at = %s - (id * interval '97 seconds') + interval '20 seconds'",
            [now, now, now],
        )
    log(f"seeded {matches} matches in {time.perf_counter() - started:.1f} s")

    documents = real_replays(24)
    recent = list(Match.objects.order_by("-id").values_list("id", flat=True)[:replays])
    for start in range(0, len(recent), BATCH):
        Replay.objects.bulk_create(
            Replay(
                match_id=match_id,
                data=documents[match_id % len(documents)],
                size=len(documents[match_id % len(documents)]),
                format=1,
            )
            for match_id in recent[start : start + BATCH]
        )
    sizes = sorted(len(document) for document in documents)
    elapsed = time.perf_counter() - started
    log(f"seeded {len(recent)} replays (gzip {sizes[0]}-{sizes[-1]} bytes) in {elapsed:.1f} s")
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    connection.close()
    log(f"seeding done in {time.perf_counter() - started:.1f} s")
    return recent


# --- the server and the load ---------------------------------------------------------------


def start_server(env: dict[str, str], port: int, workers: int | None) -> subprocess.Popen:
    """gunicorn on loopback: ``workers`` sync processes, or the arena's own sizing (None)."""
    gunicorn = Path(sys.executable).with_name("gunicorn")
    sizing = ["-c", "python:arena.gunicorn_conf"] if workers is None else [f"--workers={workers}"]
    server = subprocess.Popen(
        [
            str(gunicorn),
            "arena.wsgi:application",
            *sizing,
            f"--bind=127.0.0.1:{port}",
            "--log-level=warning",
        ],
        cwd=ROOT,
        env={**os.environ, **env},
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if get(port, "/api/ladder/lie21/?page_size=1")[0] == 200:
                return server
        except OSError:
            pass
        if server.poll() is not None:
            sys.exit("api_load: gunicorn exited at start")
        time.sleep(0.3)
    stop_server(server)
    sys.exit("api_load: gunicorn did not answer within 60 s")


def stop_server(server: subprocess.Popen) -> None:
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def measure(
    port: int,
    paths: Callable[[random.Random], str],
    *,
    requests: int,
    threads: int,
    headers: dict[str, str] | None = None,
) -> list[float]:
    """Latencies in ms of ``requests`` GETs spread over ``threads`` client threads."""
    latencies: list[float] = []
    lock = threading.Lock()
    failures: list[str] = []

    def client(number: int) -> None:
        rng = random.Random(number)
        mine = []
        for _ in range(requests // threads):
            path = paths(rng)
            began = time.perf_counter()
            status, _ = get(port, path, headers)
            mine.append((time.perf_counter() - began) * 1000)
            if status != 200:
                failures.append(f"{status} {path}")
        with lock:
            latencies.extend(mine)

    workers = [threading.Thread(target=client, args=(n,)) for n in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if failures:
        sys.exit(f"api_load: {len(failures)} failed requests, e.g. {failures[:3]}")
    return latencies


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=1_000)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--replays", type=int, default=5_000, help="matches with a replay")
    parser.add_argument("--requests", type=int, default=2_000, help="per endpoint")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=0, help="client threads (default: workers)")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument("--no-seed", action="store_true", help="reuse a database kept by --keep")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL") or DEFAULT_URL
    with tempfile.TemporaryDirectory(prefix="arena-api-load-") as data_dir:
        results = run(args, url, data_dir)
    for name, latencies in results.items():
        print(f"{name}_median: {statistics.median(latencies):.1f} ms")
        print(f"{name}_p99: {percentile(latencies, 0.99):.1f} ms")


def run(args: argparse.Namespace, url: str, data_dir: str) -> dict[str, list[float]]:
    """Seed (unless told not to), serve, measure; the latencies by endpoint."""
    env = {
        "DJANGO_SETTINGS_MODULE": "arena.settings",
        "DATABASE_URL": url,
        "SECRET_KEY": "benchmark-only-not-a-secret",
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "ARENA_DATA_DIR": data_dir,  # media and the broker's files: nothing is written there
        "LOG_LEVEL": "WARNING",
    }
    if not args.no_seed:
        recreate_database(url)
    setup_django(env)
    if args.no_seed:
        from arena.models import Replay

        with_replay = list(Replay.objects.values_list("match_id", flat=True))
    else:
        with_replay = seed(bots=args.bots, matches=args.matches, replays=args.replays)
    from django.db import connection

    connection.close()  # the server's processes must not share this one

    def ladder(rng: random.Random) -> str:
        return f"/api/ladder/lie21/?page={rng.randint(1, max(1, args.bots // 50))}"

    def matches(rng: random.Random) -> str:
        if rng.random() < 0.25:
            return f"/api/matches/?bot={rng.randint(1, args.bots)}"
        return f"/api/matches/?page={rng.randint(1, 100)}"

    def replay(rng: random.Random) -> str:
        return f"/api/matches/{rng.choice(with_replay)}/replay/"

    threads = args.threads or args.workers
    gzip = {"Accept-Encoding": "gzip"}
    server = start_server(env, args.port, args.workers)
    try:
        for paths, headers in ((ladder, None), (matches, None), (replay, gzip)):
            measure(args.port, paths, requests=100, threads=threads, headers=headers)  # warm up
        return {
            "ladder": measure(args.port, ladder, requests=args.requests, threads=threads),
            "matches": measure(args.port, matches, requests=args.requests, threads=threads),
            "replay": measure(
                args.port, replay, requests=args.requests, threads=threads, headers=gzip
            ),
        }
    finally:
        stop_server(server)
        if not args.keep:
            drop_database(url)


if __name__ == "__main__":
    main()
