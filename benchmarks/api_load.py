"""API load: latency of the API and the site's pages at arena scale, on PostgreSQL.

Seeds a database of its own (default 1,000 bots, ``--bots 10000`` for the issue's scale: a
third with an older version that played the first half of the history; one rating per
version, displayed and live, as a refit leaves them; default 100,000 rated matches,
``--matches 1000000``, with a seat and a rating-history row per seat: 85% two-seat Lie 21,
15% three or four seats of the test game High Card, hosted for the run with
``ARENA_EXTRA_GAMES``; real replays from in-process matches of built-in bots on the newest),
loaded with PostgreSQL's COPY (a million matches in about six minutes on two busy cores),
serves the app with gunicorn on loopback (``DEBUG=0``), drives it with a
thread-per-connection HTTP client, and prints two lines per endpoint:

    ladder_median: N ms      GET /api/ladder/lie21/?page=P (50 rows, a random page)
    ladder_p99: N ms
    matches_median: N ms     GET /api/matches/?page=P (a random page of the first 100, 50
    matches_p99: N ms        matches with all their seats); one request in four filtered by
                             a random bot (?bot=ID, any seat)
    bot_median: N ms         GET /api/bots/ID/ (a random bot)
    bot_p99: N ms
    match_median: N ms       GET /api/matches/ID/ (a random match of all of them)
    match_p99: N ms
    replay_median: N ms      GET /api/matches/ID/replay/ with Accept-Encoding: gzip
    replay_p99: N ms
    bot_page_median: N ms    GET /bots/ID/ (the site's bot page: rating chart, versions,
    bot_page_p99: N ms       recent matches, head-to-head; anonymous, a random bot)
    match_page_median: N ms  GET /matches/ID/ (the site's match page; a random match, so
    match_page_p99: N ms     mostly rendered, not served from the cache)
    ladder_page_median: N ms GET /games/lie21/?page=P&sort=S (the site's ladder: a random
    ladder_page_p99: N ms    page in one of ten orders, so mostly rendered: an anonymous
                             page is shared per ladder version once rendered)
    matches_page_median: N ms  GET /matches/?page=P (the site's match list: a random page of
    matches_page_p99: N ms     the first 100), one request in four ?bot=ID (a random bot's;
                               an anonymous page is shared for five seconds)

and, for each endpoint, the CPU the server (gunicorn, all processes) and PostgreSQL (the
backends of the server's connections) spent per request, the figures that do not depend on
how busy the machine is:

    <endpoint>_server_cpu_ms: N ms
    <endpoint>_db_cpu_ms: N ms

Latency is measured by the client, request sent to body read, with as many client threads as
server workers (so it is service time, not time spent queueing behind our own load). Each
endpoint is warmed with 100 other requests first. On stderr: the load average at the end. Goal:
every p99 under 50 ms at 10,000 bots and 1,000,000 matches (docs/deploy.md, "Load and
scale").

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/arena_big \\
        .venv/bin/python benchmarks/api_load.py --bots 10000 --matches 1000000 --keep
    .venv/bin/python benchmarks/api_load.py --no-seed --only bot_page,match_page

The database named in DATABASE_URL is dropped and created again, and the arena's keys in the
cache (REDIS_URL) are cleared before measuring; ``--keep`` leaves the database for a second
run with ``--no-seed``. ``--server-cpus`` / ``--client-cpus`` pin the two apart
(taskset lists).
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
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/arena_bench"
BATCH = 5_000
#: The two-seat game most bots play, and the 2-4 seat test game some play (hosted for the
#: benchmark's processes with ARENA_EXTRA_GAMES, as the test suite hosts it).
MAIN_GAME = "lie21"
MULTI_GAME = "highcard"
MULTI_GAME_MODULE = "tests.games.highcard"
#: Share of bots (and of matches) of the multi-seat game, whose matches have 3 or 4 seats.
MULTI_SEAT_SHARE = 0.15


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


def clear_cache() -> None:
    """Forget what the arena cached (pages, ladder versions and orders, replays): a new
    database must not meet the old one's pages, and a measurement starts cold. Only the
    arena's keys go (its key prefix): REDIS_URL's database may hold a broker's queues."""
    from django.conf import settings
    from django.core.cache import cache

    config = settings.CACHES["default"]
    if "Redis" not in config["BACKEND"]:
        cache.clear()  # a file cache under the run's own data directory
        return
    client = cache._cache.get_client(write=True)
    pattern = f"{config.get('KEY_PREFIX', '')}:*"
    for keys in _batches(client.scan_iter(match=pattern, count=1000), 1000):
        client.delete(*keys)


def _batches(items: Any, size: int) -> Any:
    batch = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def real_replays(count: int) -> list[bytes]:
    """Replays of real matches between built-in bots, as the workers would store them."""
    from engine import InProcessPlayer, builtin_bot, play_match
    from engine.replay import dumps

    bots = ["heuristic", "greedy", "random"]
    replays = []
    for seed in range(count):
        pair = [bots[seed % 3], bots[(seed + 1) % 3]]
        players = [
            InProcessPlayer(f"{bot}{n}", builtin_bot(MAIN_GAME, bot)) for n, bot in enumerate(pair)
        ]
        replays.append(dumps(play_match(MAIN_GAME, players, seed=seed).replay))
    return replays


def displayed_rating(rng: random.Random, mu: float, played: int) -> tuple[float, float]:
    """A displayed rating (the whole-history fit's mean and sigma) for a version with live
    TrueSkill ``mu`` after ``played`` matches: near the live one, and surer the more it has
    played, as a refit leaves them. Pages rank and draw by it, so it must not tie."""
    return mu + rng.gauss(0, 1), 25 / 3 / (1 + played / 4) ** 0.5


def random_rating(
    rng: random.Random, version: Any, *, fitted: Any, current: bool, spread_places: bool = False
) -> Any:
    """An unsaved rating of ``version`` with figures drawn from ``rng``: up to 400 matches,
    every place after the first a second one (``spread_places``: a sum of places drawn
    between 0 and twice the matches)."""
    from arena.models import Rating

    mu, sigma = rng.gauss(25, 5), rng.uniform(0.8, 8.3)
    played = rng.randint(0, 400)
    wins = rng.randint(0, played)
    draws = rng.randint(0, played - wins)
    rating, rating_sigma = displayed_rating(rng, mu, played)
    placing_sum = rng.randint(0, 2 * played) if spread_places else played - wins - draws
    return Rating(
        version=version,
        bot_id=version.bot_id,
        game=version.bot.game,
        current=current,
        mu=mu,
        sigma=sigma,
        score=mu - 3 * sigma,
        rating=rating,
        rating_sigma=rating_sigma,
        fitted=fitted,
        matches=played,
        wins=wins,
        draws=draws,
        losses=played - wins - draws,
        first_places=wins + draws,
        placing_sum=placing_sum,
        faults=rng.randint(0, played // 20),
    )


def seed_bots(bots: int, rng: random.Random) -> dict[str, list[Any]]:
    """Users, bots, versions and per-version ratings; the versions of each game's bots.

    A share of the bots (``MULTI_SEAT_SHARE``) play the multi-seat game. A third of the bots
    have an older version too, whose rating is no longer current: the ladder reads only the
    current ones, as in production.
    """
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from arena.models import Bot, BotVersion, Rating, RatingFit

    fitted = timezone.now()
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"author{n}", password="!") for n in range(bots // 5)
    )
    games = [MULTI_GAME if rng.random() < MULTI_SEAT_SHARE else MAIN_GAME for _ in range(bots)]
    created = Bot.objects.bulk_create(
        Bot(
            owner=users[n % len(users)],
            name=f"bot{n}",
            game=games[n],
            description="A benchmark bot. " * 20,
        )
        for n in range(bots)
    )
    rows = []
    for n, bot in enumerate(created):
        for number in range(1, 3 if n % 3 == 0 else 2):
            digest = f"{n:032x}{number:032x}"
            rows.append(
                BotVersion(
                    bot=bot,
                    number=number,
                    file=f"bots/{bot.pk}/{digest}.py",
                    filename="bot.py",
                    kind="py",
                    sha256=digest,
                    size=1000,
                    status="valid",
                    validation_log="Validation match 1 (seat 0): 1st (match_points)\n" * 20,
                )
            )
    versions = BotVersion.objects.bulk_create(rows, batch_size=BATCH)
    latest = {version.bot_id: version for version in versions}  # created in number order
    for bot in created:
        bot.active_version = latest[bot.pk]
        bot.is_active = rng.random() > 0.05
    Bot.objects.bulk_update(created, ["active_version", "is_active"], batch_size=BATCH)
    ratings = []
    for version in versions:
        current = latest[version.bot_id] is version
        ratings.append(random_rating(rng, version, fitted=fitted, current=current))
    Rating.objects.bulk_create(ratings, batch_size=BATCH)
    RatingFit.objects.bulk_create(
        RatingFit(game=game, fitted=fitted, matches=0, versions=0) for game in set(games)
    )
    by_game: dict[str, list[Any]] = {MAIN_GAME: [], MULTI_GAME: []}
    for version in versions:
        by_game[version.bot.game].append(version)
    return by_game


def copied_columns() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The columns of a match's row and of a seat's as COPY writes them, in the order
    :func:`seed_matches` holds their values, with the groups the models name (read once
    Django is set up)."""
    from arena.models.matches import (
        MATCH_RESULT_FIELDS,
        MATCH_TIME_FIELDS,
        SEAT_OUTCOME_FIELDS,
        SEAT_RATING_FIELDS,
    )

    match = (
        "id",
        "game",
        "kind",
        "seed",
        "status",
        "attempts",
        "claimed_by",
        *MATCH_TIME_FIELDS,
        *MATCH_RESULT_FIELDS,
        "claim_token",
        "options",
        "seat_count",
        "ranked",
        "duplicate_key",
        "leg",
    )
    seat = (
        "id",
        "match_id",
        "seat",
        "version_id",
        "bot_id",
        *SEAT_OUTCOME_FIELDS,
        *SEAT_RATING_FIELDS,
    )
    return match, seat


HISTORY_COLUMNS = (
    "id",
    "match_id",
    "version_id",
    "bot_id",
    "game",
    "mu",
    "sigma",
    "score",
    "rating",
    "rating_sigma",
    "created",
)
#: Seconds between two matches' creation: 1,000,000 matches span about three years.
MATCH_SPACING_S = 97


def seed_matches(matches: int, versions: dict[str, list[Any]], rng: random.Random) -> int:
    """Finished, rated matches with their seats and a rating-history row per seat (the live
    rating the match left and the displayed rating a refit gave it): two seats of the main
    game, and a share of three or four seats of the multi-seat game.

    Written with PostgreSQL's COPY, three streams side by side, with the foreign-key
    triggers off for the session (every id written refers to a row written before it): a
    million matches and their 2.3 million seats load in a few minutes instead of hours.
    Returns the number of seats.
    """
    import json
    from datetime import timedelta

    from django.db import connection
    from django.utils import timezone

    now = timezone.now()
    from arena.models import Rating

    match_columns, seat_columns = copied_columns()

    # A bot's versions take turns as they do on a real ladder: its first version plays its
    # matches until its second (if it has one) takes over, halfway through the history.
    first = {
        game: [(v.pk, v.bot_id) for v in found if v.number == 1] for game, found in versions.items()
    }
    latest = {
        game: list({v.bot_id: (v.pk, v.bot_id) for v in found}.values())  # in number order
        for game, found in versions.items()
    }
    handover = matches // 2
    # The displayed rating after each match, near the version's latest (as a refit writes).
    displayed = {
        version_id: (rating, rating_sigma)
        for version_id, rating, rating_sigma in Rating.objects.values_list(
            "version_id", "rating", "rating_sigma"
        )
    }
    seat_id = 0
    with connection.cursor() as cursor:
        raw = cursor.connection  # the psycopg connection under Django's
        raw.execute("SET session_replication_role = replica")  # no FK triggers while loading
        for start in range(0, matches, 20 * BATCH):
            end = min(matches, start + 20 * BATCH)
            match_rows, seat_rows, history_rows = [], [], []
            for match_id in range(start + 1, end + 1):
                multi = rng.random() < MULTI_SEAT_SHARE
                game = MULTI_GAME if multi else MAIN_GAME
                pick = first if match_id <= handover else latest
                seated = rng.sample(pick[game], rng.choice((3, 4)) if multi else 2)
                scores = [rng.randint(0, 7) for _ in seated]
                placings = [sum(other > mine for other in scores) for mine in scores]
                if multi:
                    totals = {"firsts": [int(p == 0) for p in placings]}
                else:
                    totals = {
                        "game_wins": [rng.randint(0, 4) for _ in seated],
                        "points": [rng.randint(100, 600) for _ in seated],
                        "sweeps": [0 for _ in seated],
                    }
                # Newest last: ids and times rise together, as they do when matches are played.
                created = now - timedelta(seconds=(matches - match_id + 1) * MATCH_SPACING_S)
                finished = created + timedelta(seconds=20)
                match_rows.append(
                    (
                        match_id,
                        game,
                        "ladder",
                        rng.getrandbits(52),
                        "done",
                        1,
                        "",
                        created,
                        created + timedelta(seconds=1),
                        finished,
                        rng.uniform(2, 30),
                        "games" if multi else "match_points",
                        3 if multi else rng.randint(4, 9),
                        json.dumps(totals),
                        "",
                        True,
                        "",
                        "{}",
                        len(seated),
                        True,
                        "",
                        0,
                    )
                )
                for seat, ((version_id, bot_id), score, placing) in enumerate(
                    zip(seated, scores, placings, strict=True)
                ):
                    seat_id += 1
                    mu, sigma = rng.gauss(25, 5), rng.uniform(0.8, 8.3)
                    fault = "timeout" if rng.random() < 0.01 else ""
                    shown, shown_sigma = displayed[version_id]
                    seat_rows.append(
                        (
                            seat_id,
                            match_id,
                            seat,
                            version_id,
                            bot_id,
                            placing,
                            score,
                            fault,
                            "took 3.2 s for one move" if fault else "",
                            mu,
                            sigma,
                            mu + rng.uniform(-1, 1),
                            sigma * 0.97,
                        )
                    )
                    history_rows.append(
                        (
                            seat_id,
                            match_id,
                            version_id,
                            bot_id,
                            game,
                            mu,
                            sigma * 0.97,
                            mu - 3 * sigma * 0.97,
                            shown + rng.gauss(0, shown_sigma / 2),
                            shown_sigma,
                            finished,
                        )
                    )
            for table, columns, rows in (
                ("arena_match", match_columns, match_rows),
                ("arena_matchseat", seat_columns, seat_rows),
                ("arena_ratinghistory", HISTORY_COLUMNS, history_rows),
            ):
                quoted = ", ".join(f'"{column}"' for column in columns)  # "placing" is a keyword
                with raw.cursor().copy(f"COPY {table} ({quoted}) FROM STDIN") as copy:
                    for row in rows:
                        copy.write_row(row)
            log(f"  {end:,} matches, {seat_id:,} seats")
        raw.execute("SET session_replication_role = DEFAULT")
        # The fits are as a refit of these matches leaves them.
        cursor.execute(
            "UPDATE arena_ratingfit SET matches = counted.n, versions = rated.n FROM"
            " (SELECT game, count(*) AS n FROM arena_match GROUP BY game) AS counted,"
            " (SELECT game, count(*) AS n FROM arena_rating GROUP BY game) AS rated"
            " WHERE counted.game = arena_ratingfit.game AND rated.game = arena_ratingfit.game"
        )
        for table in ("arena_match", "arena_matchseat", "arena_ratinghistory"):
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"(SELECT coalesce(max(id), 1) FROM {table}))"
            )
    return seat_id


def seed(*, bots: int, matches: int, replays: int) -> list[int]:
    """Fill the database; returns the ids of the matches that have a replay."""
    from django.core.management import call_command

    from arena.models import Match, Replay
    from engine.replay import REPLAY_FORMAT

    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    rng = random.Random(21)
    versions = seed_bots(bots, rng)
    log(f"seeded {bots} bots in {time.perf_counter() - started:.1f} s")

    seats = seed_matches(matches, versions, rng)
    elapsed = time.perf_counter() - started
    log(f"seeded {matches} matches ({seats} seats, as many rating-history rows) in {elapsed:.1f} s")

    documents = real_replays(24)
    recent = list(
        Match.objects.filter(game=MAIN_GAME).order_by("-id").values_list("id", flat=True)[:replays]
    )
    for start in range(0, len(recent), BATCH):
        Replay.objects.bulk_create(
            Replay(
                match_id=match_id,
                data=documents[match_id % len(documents)],
                size=len(documents[match_id % len(documents)]),
                format=REPLAY_FORMAT,
            )
            for match_id in recent[start : start + BATCH]
        )
    seeding_done(started, len(recent), [len(document) for document in documents])
    return recent


def seeding_done(started: float, replays: int, sizes: list[int]) -> None:
    """Say how many replays were seeded (``sizes``: their gzip bytes), vacuum and analyse the
    tables, close the connection and say how long the seeding took since ``started``."""
    from django.db import connection

    elapsed = time.perf_counter() - started
    sizes = sorted(sizes)
    log(f"seeded {replays} replays (gzip {sizes[0]}-{sizes[-1]} bytes) in {elapsed:.1f} s")
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    connection.close()
    log(f"seeding done in {time.perf_counter() - started:.1f} s")


# --- the server and the load ---------------------------------------------------------------


def cpu_list(text: str) -> set[int]:
    """CPUs from a taskset-style list: ``0-2,5`` -> {0, 1, 2, 5}."""
    cpus: set[int] = set()
    for part in text.split(","):
        first, _, last = part.partition("-")
        cpus.update(range(int(first), int(last or first) + 1))
    return cpus


def session_cpu_seconds(session: int) -> float:
    """CPU seconds (user + system) used so far by every process of a session (the server's
    master and workers; their dead children's time is in the parents' counts)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session:  # field 6 of stat: the session id
            total += sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
    return total / ticks


def database_cpu(url: str) -> dict[int, float]:
    """CPU seconds used so far by each PostgreSQL backend serving the database of ``url``
    (the server's kept connections; this check's own backend left out), by process id.
    Empty when the database server is not on this machine."""
    import psycopg

    parts = urlsplit(url)
    admin = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        pids = [
            pid
            for (pid,) in connection.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                [parts.path.lstrip("/")],
            )
        ]
    ticks = os.sysconf("SC_CLK_TCK")
    used = {}
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        used[pid] = (int(fields[11]) + int(fields[12])) / ticks  # utime stime
    return used


def database_cpu_spent(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds the backends spent between two :func:`database_cpu` readings (a backend
    that ended in between is not counted: the figure is a floor)."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


def start_server(
    env: dict[str, str], port: int, workers: int | None, *, cpus: str | None = None
) -> subprocess.Popen:
    """gunicorn on loopback: ``workers`` sync processes, or the arena's own sizing (None),
    on the CPUs listed in ``cpus`` (taskset style) if given."""
    gunicorn = Path(sys.executable).with_name("gunicorn")
    sizing = ["-c", "python:arena.gunicorn_conf"] if workers is None else [f"--workers={workers}"]
    pinned = cpu_list(cpus) if cpus else None
    server = subprocess.Popen(
        [
            str(gunicorn),
            "arena.wsgi:application",
            *sizing,
            f"--bind=127.0.0.1:{port}",
            "--log-level=warning",
            "--no-control-socket",
        ],
        cwd=ROOT,
        env={**os.environ, **env},
        start_new_session=True,
        preexec_fn=(lambda: os.sched_setaffinity(0, pinned)) if pinned else None,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if get(port, f"/api/ladder/{MAIN_GAME}/?page_size=1")[0] == 200:
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
    seed: int = 0,
) -> list[float]:
    """Latencies in ms of ``requests`` GETs spread over ``threads`` client threads (each
    drawing its paths from ``random.Random(seed + its number)``)."""
    latencies: list[float] = []
    lock = threading.Lock()
    failures: list[str] = []

    def client(number: int) -> None:
        rng = random.Random(seed + number)
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

    run_clients(client, threads, failures, "api_load")
    return latencies


def run_clients(client: Callable[[int], None], count: int, failures: list[str], name: str) -> None:
    """``client(n)`` for each n below ``count``, in threads side by side; exits if any
    request of theirs failed (``failures``), saying so as ``name``."""
    threads = [threading.Thread(target=client, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        sys.exit(f"{name}: {len(failures)} failed requests, e.g. {failures[:3]}")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=1_000)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--replays", type=int, default=5_000, help="matches with a replay")
    parser.add_argument("--requests", type=int, default=1_000, help="per endpoint")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=0, help="client threads (default: workers)")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--server-cpus", help="CPUs gunicorn may run on (taskset list: 0-2)")
    parser.add_argument("--client-cpus", help="CPUs this client may run on (3)")
    parser.add_argument(
        "--only",
        help="comma-separated endpoints to measure (default: all): " + ", ".join(ENDPOINTS),
    )
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument(
        "--no-seed", action="store_true", help="reuse a database kept by --keep (and keep it)"
    )
    args = parser.parse_args()
    if args.client_cpus:
        os.sched_setaffinity(0, cpu_list(args.client_cpus))
    url = os.environ.get("DATABASE_URL") or DEFAULT_URL
    with tempfile.TemporaryDirectory(prefix="arena-api-load-") as data_dir:
        results = run(args, url, data_dir)
    log(f"conditions: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the end")
    for name, (latencies, server_cpu, db_cpu) in results.items():
        print(f"{name}_median: {statistics.median(latencies):.1f} ms")
        print(f"{name}_p99: {percentile(latencies, 0.99):.1f} ms")
        print(f"{name}_server_cpu_ms: {1000 * server_cpu / len(latencies):.2f} ms")
        print(f"{name}_db_cpu_ms: {1000 * db_cpu / len(latencies):.2f} ms")


#: What is measured, each with its share of requests filtered or paged at random:
#: the API's ladder, match list, bot and match; a replay; the site's bot and match pages,
#: its ladder and its match list.
ENDPOINTS = (
    "ladder",
    "matches",
    "bot",
    "match",
    "replay",
    "bot_page",
    "match_page",
    "ladder_page",
    "matches_page",
)
#: The site's ladder orders (its column headers' sort keys, each way).
LADDER_PAGE_SORTS = tuple(
    f"{way}{key}"
    for key in ("rating", "interval", "matches", "win_rate", "placing")
    for way in ("-", "")
)


def server_env(url: str, data_dir: str, **settings: str) -> dict[str, str]:
    """The server's settings: the database at ``url``, ``settings`` besides."""
    return {
        "DJANGO_SETTINGS_MODULE": "arena.settings",
        "DATABASE_URL": url,
        "SECRET_KEY": "benchmark-only-not-a-secret",
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "ARENA_DATA_DIR": data_dir,  # media and the broker's files: nothing is written there
        "LOG_LEVEL": "WARNING",
        **settings,
    }


def run(
    args: argparse.Namespace, url: str, data_dir: str
) -> dict[str, tuple[list[float], float, float]]:
    """Seed (unless told not to), serve, measure; by endpoint, the latencies and the CPU
    seconds the server and the database spent on them."""
    env = server_env(url, data_dir, ARENA_EXTRA_GAMES=MULTI_GAME_MODULE, PYTHONPATH=str(ROOT))
    if not args.no_seed:
        recreate_database(url)
    setup_django(env)
    if args.no_seed:
        from arena.models import Replay

        with_replay = list(Replay.objects.values_list("match_id", flat=True))
    else:
        with_replay = seed(bots=args.bots, matches=args.matches, replays=args.replays)
    from django.core.management import call_command
    from django.db import connection

    from arena.models import Bot, Match

    clear_cache()
    call_command("collectstatic", interactive=False, verbosity=0)  # the site's pages need it
    bot_ids = list(Bot.objects.values_list("id", flat=True))
    last_match = Match.objects.order_by("-id").values_list("id", flat=True).first() or 1
    connection.close()  # the server's processes must not share this one

    ladder_pages = max(1, int(len(bot_ids) * (1 - MULTI_SEAT_SHARE) * 0.9) // 50)
    match_pages = max(1, min(100, last_match // 50))  # a smaller run: its own pages

    paths: dict[str, Callable[[random.Random], str]] = {
        "ladder": lambda rng: f"/api/ladder/{MAIN_GAME}/?page={rng.randint(1, ladder_pages)}",
        "matches": lambda rng: (
            f"/api/matches/?bot={rng.choice(bot_ids)}"
            if rng.random() < 0.25
            else f"/api/matches/?page={rng.randint(1, match_pages)}"
        ),
        "bot": lambda rng: f"/api/bots/{rng.choice(bot_ids)}/",
        "match": lambda rng: f"/api/matches/{rng.randint(1, last_match)}/",
        "replay": lambda rng: f"/api/matches/{rng.choice(with_replay)}/replay/",
        "bot_page": lambda rng: f"/bots/{rng.choice(bot_ids)}/",
        "match_page": lambda rng: f"/matches/{rng.randint(1, last_match)}/",
        "ladder_page": lambda rng: (
            f"/games/{MAIN_GAME}/?page={rng.randint(1, ladder_pages)}"
            f"&sort={rng.choice(LADDER_PAGE_SORTS)}"
        ),
        "matches_page": lambda rng: (
            f"/matches/?bot={rng.choice(bot_ids)}"
            if rng.random() < 0.25
            else f"/matches/?page={rng.randint(1, match_pages)}"
        ),
    }
    wanted = args.only.split(",") if args.only else list(ENDPOINTS)
    threads = args.threads or args.workers
    gzip = {"Accept-Encoding": "gzip"}
    server = start_server(env, args.port, args.workers, cpus=args.server_cpus)
    try:
        results = {}
        for name in wanted:
            headers = gzip if name == "replay" else None
            measure(
                args.port, paths[name], requests=100, threads=threads, headers=headers, seed=1000
            )
            server_before, db_before = session_cpu_seconds(server.pid), database_cpu(url)
            latencies = measure(
                args.port, paths[name], requests=args.requests, threads=threads, headers=headers
            )
            server_cpu = session_cpu_seconds(server.pid) - server_before
            db_cpu = database_cpu_spent(db_before, database_cpu(url))
            results[name] = (latencies, server_cpu, db_cpu)
        return results
    finally:
        stop_server(server)
        # A database this run did not seed (--no-seed) is someone's kept one: never dropped.
        if not args.keep and not args.no_seed:
            drop_database(url)


if __name__ == "__main__":
    main()
