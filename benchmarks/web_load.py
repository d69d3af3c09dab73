"""Web load: throughput and tail latency of the pages people open, with 50 clients at once.

Seeds a database of its own on the N-seat model (500 bots of every hosted game, each with a
valid version on its game's ladder and a rating history; 5,000 finished matches with a seat
row per seat, placings, scores and rating changes; real format-2 replays on the newest),
serves the app with gunicorn sized by ``arena/gunicorn_conf.py`` (``DEBUG=0``), and drives it
from 50 client threads for 30 seconds with a mix of what visitors open, spread over the
data as readers spread (``MIX``, :func:`_paths`): a game's page (its ladder: any page of any
game's, one in five in another order than by rating), the match list page (seven in ten one
of its first three pages, two any of its pages, one a bot's list), a match page (with its
embedded replay and the viewer shell) and a replay download (each four in five of the
newest 200 matches', one in five any match's or replay's). Only the first pages of the
ladders and the match list and the newest match pages are opened once before measuring (a
server that has run a while has rendered them); the rest is rendered as it is asked for.
Only 127.0.0.1 is ever contacted, and the run stops by itself.

Two kinds of client, each run against the same server (``--mode``, default both):

* ``keepalive``: like a browser, one connection per client kept open, ``If-None-Match`` /
  ``If-Modified-Since`` sent for a page seen before, gzip asked for;
* ``new`` (``--new-connections``): a new TCP connection for every request, closed after it,
  and no validators: every request is a first visit by a new browser.

Prints, per kind of client (``keepalive`` or ``newconn``)::

    web_load_<kind>_rps: N req/s            completed requests per second over the run
    web_load_<kind>_p99_ms: N ms            99th percentile latency, request sent to body read
    web_load_<kind>_median_ms: N ms
    web_load_<kind>_server_cpu_ms: N ms     gunicorn's CPU time (all processes) per request
    web_load_<kind>_client_cpu_ms: N ms     this generator's CPU time per request
    web_load_<kind>_db_cpu_ms: N ms         PostgreSQL's (the server's connections) per request

and, on stderr, each kind of request's count, median and p99, and the share answered 304.
Goal on a 2-core machine: at least 300 req/s with p99 under 250 ms, for both clients.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/arena_bench \
    REDIS_URL=redis://127.0.0.1:6379/0 \
        .venv/bin/python benchmarks/web_load.py --apart

``--apart`` pins the generator to the last CPU and gunicorn to all the others (on two
cores: gunicorn on CPU 0, the generator on CPU 1), so the two never compete for a core;
``--server-cpus`` / ``--client-cpus`` name the CPUs by hand (``--server-cpus 0-2
--client-cpus 3`` on four cores). PostgreSQL and Redis are not pinned: they run wherever
the system puts them. ``REDIS_URL`` is the production cache (anonymous pages and ladder
versions); without
it the server falls back to a file cache. Like ``api_load.py`` it needs PostgreSQL (default
``arena_bench`` on 127.0.0.1); the database named in DATABASE_URL is dropped and created
again (``--keep`` leaves it for a second run with ``--no-seed``).
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import statistics
import tempfile
import threading
import time
from collections import Counter

import api_load  # the seeding and server helpers (this directory is on sys.path)

MIX = (("ladder", 3), ("match_list", 2), ("match_page", 3), ("replay", 3))
MODES = {"keepalive": "keepalive", "new": "newconn"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=500)
    parser.add_argument("--matches", type=int, default=5_000)
    parser.add_argument("--replays", type=int, default=2_000, help="matches with a replay")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0, help="per kind of client")
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument(
        "--mode", choices=["keepalive", "new", "both"], default="both", help="kind of client"
    )
    parser.add_argument(
        "--new-connections",
        action="store_const",
        const="new",
        dest="mode",
        help="same as --mode new: a new connection (and no validators) per request",
    )
    parser.add_argument("--server-cpus", help="CPUs gunicorn may run on (taskset list: 0-2)")
    parser.add_argument("--client-cpus", help="CPUs this load generator may run on (3)")
    parser.add_argument(
        "--apart",
        action="store_true",
        help="pin this generator to the last CPU and gunicorn to the others",
    )
    parser.add_argument("--workers", type=int, help="gunicorn processes (WEB_WORKERS)")
    parser.add_argument("--threads", type=int, help="threads per process (WEB_THREADS)")
    parser.add_argument(
        "--sync-workers",
        type=int,
        default=0,
        help="plain sync gunicorn workers instead of arena/gunicorn_conf.py (for comparison)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument(
        "--no-seed", action="store_true", help="reuse a database kept by --keep (and keep it)"
    )
    args = parser.parse_args()
    if args.apart:
        if args.server_cpus or args.client_cpus:
            parser.error("--apart chooses the CPUs: leave out --server-cpus and --client-cpus")
        args.server_cpus, args.client_cpus = apart(sorted(os.sched_getaffinity(0)))
    if args.client_cpus:
        os.sched_setaffinity(0, api_load.cpu_list(args.client_cpus))
    modes = ["keepalive", "new"] if args.mode == "both" else [args.mode]
    with tempfile.TemporaryDirectory(prefix="arena-web-load-") as data_dir:
        url = os.environ.get("DATABASE_URL") or api_load.DEFAULT_URL
        results = run(args, url, data_dir, modes)
    api_load.log(
        f"conditions: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the end, "
        f"server CPUs {args.server_cpus or 'all'}, client CPUs {args.client_cpus or 'all'}"
    )
    for mode, (latencies, statuses, elapsed, server_cpu, client_cpu, db_cpu) in results.items():
        every = [ms for values in latencies.values() for ms in values]
        name = MODES[mode]
        for kind, values in sorted(latencies.items()):  # where the time goes, on stderr
            median, p99 = statistics.median(values), api_load.percentile(values, 0.99)
            api_load.log(
                f"{name} {kind}: {len(values)} requests, median {median:.1f} ms, p99 {p99:.0f} ms"
            )
        share = 100 * statuses[304] / max(1, sum(statuses.values()))
        api_load.log(f"{name}: {dict(statuses)} ({share:.0f}% answered 304)")
        print(f"web_load_{name}_rps: {len(every) / elapsed:.0f} req/s")
        print(f"web_load_{name}_p99_ms: {api_load.percentile(every, 0.99):.0f} ms")
        print(f"web_load_{name}_median_ms: {statistics.median(every):.1f} ms")
        print(f"web_load_{name}_server_cpu_ms: {1000 * server_cpu / len(every):.2f} ms")
        print(f"web_load_{name}_client_cpu_ms: {1000 * client_cpu / len(every):.2f} ms")
        print(f"web_load_{name}_db_cpu_ms: {1000 * db_cpu / len(every):.2f} ms")


def apart(cpus: list[int]) -> tuple[str | None, str | None]:
    """The server's and the generator's CPUs (taskset lists) for ``--apart``: the last CPU
    for the generator, the others for gunicorn; with one CPU, no pinning at all."""
    if len(cpus) < 2:
        return None, None
    return ",".join(str(cpu) for cpu in cpus[:-1]), str(cpus[-1])


def run(args: argparse.Namespace, url: str, data_dir: str, modes: list[str]) -> dict:
    env = api_load.server_env(url, data_dir)
    if args.workers:
        env["WEB_WORKERS"] = str(args.workers)
    if args.threads:
        env["WEB_THREADS"] = str(args.threads)
    if not args.no_seed:
        api_load.recreate_database(url)
    api_load.setup_django(env)
    if args.no_seed:
        from arena.models import Replay

        with_replay = list(Replay.objects.order_by("-match_id").values_list("match_id", flat=True))
    else:
        with_replay = seed(bots=args.bots, matches=args.matches, replays=args.replays)
    from django.core.management import call_command
    from django.db import connection

    api_load.clear_cache()  # the pages of another database, or of another run's code
    call_command("collectstatic", interactive=False, verbosity=0)
    paths = _paths(args, with_replay)
    connection.close()  # the server's processes must not share this one
    server = api_load.start_server(env, args.port, args.sync_workers or None, cpus=args.server_cpus)
    results = {}
    try:
        _warm(args.port, args, with_replay)
        for mode in modes:
            fresh = mode == "new"
            _drive(args.port, paths, clients=args.clients, seconds=3.0, fresh=fresh)  # warm up
            server_before = api_load.session_cpu_seconds(server.pid)
            db_before = api_load.database_cpu(url)
            client_before = sum(os.times()[:2])
            started = time.monotonic()
            latencies, statuses = _drive(
                args.port, paths, clients=args.clients, seconds=args.seconds, fresh=fresh
            )
            elapsed = time.monotonic() - started
            results[mode] = (
                latencies,
                statuses,
                elapsed,
                api_load.session_cpu_seconds(server.pid) - server_before,
                sum(os.times()[:2]) - client_before,
                api_load.database_cpu_spent(db_before, api_load.database_cpu(url)),
            )
        return results
    finally:
        api_load.stop_server(server)
        # A database this run did not seed (--no-seed) is someone's kept one: never dropped.
        if not args.keep and not args.no_seed:
            api_load.drop_database(url)


def _warm(port: int, args: argparse.Namespace, with_replay: list[int]) -> None:
    """Open every page of the mix once, so neither kind of client pays for first renderings
    (a server that has run for a while has them); replays need no warming."""
    from engine.registry import GAMES

    pages = max(1, args.bots // len(GAMES) // 50)
    paths = [
        f"/games/{game}/?page={page}" for game in GAMES for page in range(1, min(pages, 5) + 1)
    ]
    paths += [f"/matches/?page={page}" for page in range(1, 21)]
    paths += [f"/matches/{match_id}/" for match_id in with_replay[:200]]
    for path in paths:
        api_load.get(port, path, {"Accept-Encoding": "gzip"})


#: The ladder's other orders a reader picks by its column headers (one request in five).
LADDER_SORTS = ("-matches", "-win_rate", "placing", "interval", "rating")
#: The newest matches, those the match list's first pages link to: most match pages and
#: replays opened are theirs (``RECENT_SHARE``); the rest are any match's, any replay's.
RECENT = 200
RECENT_SHARE = 0.8


def _paths(args: argparse.Namespace, with_replay: list[int]):
    """What each client asks for, spread over the whole of the data as readers spread: any
    page of any game's ladder (one in five in another order than by rating); the match
    list's first three pages mostly, any of its pages or a bot's list otherwise; the newest
    matches' pages and replays mostly (``RECENT_SHARE``), any match's or replay's otherwise,
    so the long tail is rendered and read as asked for."""
    from arena.models import Bot, Match
    from engine.registry import GAMES

    games = list(GAMES)
    pages = {game: max(1, -(-Bot.objects.filter(game=game).count() // 50)) for game in games}
    matches = list(Match.objects.order_by("-id").values_list("id", flat=True))
    bots = list(Bot.objects.values_list("id", flat=True))
    match_pages = max(1, -(-len(matches) // 50))
    replays = sorted(with_replay, reverse=True)
    kinds = [kind for kind, weight in MIX for _ in range(weight)]

    def some(rng: random.Random, ids: list[int]) -> int:
        return rng.choice(ids[:RECENT] if rng.random() < RECENT_SHARE else ids)

    def pick(rng: random.Random) -> tuple[str, str]:
        kind = rng.choice(kinds)
        if kind == "ladder":
            game = rng.choice(games)
            path = f"/games/{game}/?page={rng.randint(1, pages[game])}"
            if rng.random() < 0.2:
                path += f"&sort={rng.choice(LADDER_SORTS)}"
            return kind, path
        if kind == "match_list":
            draw = rng.random()
            if draw < 0.1:
                return kind, f"/matches/?bot={rng.choice(bots)}"
            if draw < 0.3:
                return kind, f"/matches/?page={rng.randint(1, match_pages)}"
            return kind, f"/matches/?page={rng.randint(1, min(3, match_pages))}"
        if kind == "match_page":
            return kind, f"/matches/{some(rng, matches)}/"
        return kind, f"/api/matches/{some(rng, replays)}/replay/"

    return pick


# --- the data: the N-seat model ----------------------------------------------------------

BATCH = 5_000
HISTORY_POINTS = 20  # rating history rows per version on the first ladder pages


def real_replays(game: str, seats: int, count: int) -> list[bytes]:
    """Replays (format 2) of real matches of ``game`` between its built-in bots."""
    from engine import InProcessPlayer, builtin_bot, get_game, play_match
    from engine.replay import dumps

    names = sorted(get_game(game).builtin_bots())
    documents = []
    for seed in range(count):
        players = [
            InProcessPlayer(
                f"{names[(seed + n) % len(names)]}{n}",
                builtin_bot(game, names[(seed + n) % len(names)]),
            )
            for n in range(seats)
        ]
        documents.append(dumps(play_match(game, players, seed=seed).replay))
    return documents


def seed(*, bots: int, matches: int, replays: int) -> list[int]:
    """Fill the database; returns the ids of the matches that have a replay."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from arena.models import (
        Bot,
        BotVersion,
        Match,
        MatchSeat,
        Rating,
        RatingFit,
        RatingHistory,
        Replay,
    )
    from arena.services.ladder import ladder_seats
    from engine.registry import GAMES
    from engine.replay import REPLAY_FORMAT

    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    rng = random.Random(21)
    games = list(GAMES)
    fitted = timezone.now()
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"author{n}", password="!") for n in range(bots // 5)
    )
    created = Bot.objects.bulk_create(
        Bot(
            owner=users[n % len(users)],
            name=f"bot{n}",
            game=games[n % len(games)],
            description="A benchmark bot. " * 20,
        )
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
            validation_log="smoke match vs random: won\n" * 20,
        )
        for n, bot in enumerate(created)
    )
    for bot, version in zip(created, versions, strict=True):
        bot.active_version = version
        bot.is_active = rng.random() > 0.05
    Bot.objects.bulk_update(created, ["active_version", "is_active"], batch_size=BATCH)
    ratings = []
    for version in versions:
        ratings.append(
            api_load.random_rating(rng, version, fitted=fitted, current=True, spread_places=True)
        )
    Rating.objects.bulk_create(ratings, batch_size=BATCH)
    RatingFit.objects.bulk_create(
        RatingFit(
            game=game, fitted=fitted, matches=matches // len(games), versions=bots // len(games)
        )
        for game in games
    )
    log(f"seeded {bots} bots of {len(games)} game(s) in {time.perf_counter() - started:.1f} s")

    by_game = {game: [n for n in range(bots) if created[n].game == game] for game in games}
    seats_of = {game: ladder_seats(game, len(by_game[game])) for game in games}
    for start in range(0, matches, BATCH):
        rows, tables = [], []
        for _ in range(min(BATCH, matches - start)):
            game = rng.choice(games)
            table = rng.sample(by_game[game], seats_of[game])
            rows.append(
                Match(
                    game=game,
                    seat_count=len(table),
                    seed=rng.getrandbits(52),
                    status="done",
                    reason="match_points",
                    games_played=rng.randint(4, 9),
                    duration_s=rng.uniform(2, 30),
                    rated=True,
                )
            )
            tables.append(table)
        Match.objects.bulk_create(rows)
        seat_rows = []
        for match, table in zip(rows, tables, strict=True):
            order = list(range(len(table)))
            rng.shuffle(order)
            for seat, n in enumerate(table):
                mu, sigma = rng.gauss(25, 5), rng.uniform(0.8, 8.3)
                seat_rows.append(
                    MatchSeat(
                        match=match,
                        seat=seat,
                        version=versions[n],
                        bot=created[n],
                        placing=order[seat],
                        score=rng.randint(0, 7),
                        mu_before=mu,
                        sigma_before=sigma,
                        mu_after=mu + rng.uniform(-1, 1),
                        sigma_after=sigma * 0.98,
                    )
                )
        MatchSeat.objects.bulk_create(seat_rows, batch_size=BATCH)
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

    # Sparklines: a rating history (live and displayed, as a refit leaves it) for the
    # versions the first ladder pages show.
    top = sorted(ratings, key=lambda rating: -rating.rating)[: 250 * len(games)]
    recent = list(Match.objects.order_by("-id").values_list("id", flat=True)[:HISTORY_POINTS])
    RatingHistory.objects.bulk_create(
        (
            RatingHistory(
                version_id=rating.version_id,
                bot_id=rating.bot_id,
                game=rating.game,
                match_id=match_id,
                mu=rating.mu + rng.uniform(-2, 2),
                sigma=rating.sigma,
                score=rating.score + rng.uniform(-2, 2),
                rating=rating.rating + rng.uniform(-2, 2),
                rating_sigma=rating.rating_sigma,
            )
            for rating in top
            for match_id in recent
        ),
        batch_size=BATCH,
    )

    documents = {game: real_replays(game, seats_of[game], 12) for game in games}
    newest = list(Match.objects.order_by("-id").values_list("id", "game")[:replays])
    for start in range(0, len(newest), BATCH):
        Replay.objects.bulk_create(
            Replay(
                match_id=match_id,
                data=documents[game][match_id % len(documents[game])],
                size=len(documents[game][match_id % len(documents[game])]),
                format=REPLAY_FORMAT,
            )
            for match_id, game in newest[start : start + BATCH]
        )
    sizes = [len(document) for docs in documents.values() for document in docs]
    api_load.seeding_done(started, len(newest), sizes)
    return [match_id for match_id, _ in newest]


def log(message: str) -> None:
    api_load.log(message)


# --- the load ----------------------------------------------------------------------------


def _drive(
    port: int, pick, *, clients: int, seconds: float, fresh: bool
) -> tuple[dict[str, list[float]], Counter]:
    """Latencies (ms) by kind of every request the clients completed within ``seconds``,
    and the statuses. ``fresh``: a new connection and no validators for every request."""
    deadline = time.monotonic() + seconds
    latencies: dict[str, list[float]] = {kind: [] for kind, _ in MIX}
    statuses: Counter = Counter()
    failures: list[str] = []
    lock = threading.Lock()

    def client(number: int) -> None:
        rng = random.Random(number)
        seen: dict[str, tuple[str | None, str | None]] = {}  # a browser's cache validators
        mine: list[tuple[str, float]] = []
        codes: Counter = Counter()
        connection = None
        while time.monotonic() < deadline:
            kind, path = pick(rng)
            headers = {"Accept-Encoding": "gzip"}
            if fresh:
                headers["Connection"] = "close"
            else:
                etag, modified = seen.get(path, (None, None))
                if etag:
                    headers["If-None-Match"] = etag
                if modified:
                    headers["If-Modified-Since"] = modified
            began = time.perf_counter()
            try:
                if connection is None:
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                connection.request("GET", path, headers=headers)
                response = connection.getresponse()
                response.read()
            except (OSError, http.client.HTTPException) as exc:
                failures.append(f"{type(exc).__name__} {path}")
                if connection is not None:
                    connection.close()
                connection = None
                continue
            mine.append((kind, (time.perf_counter() - began) * 1000))
            codes[response.status] += 1
            if response.status not in (200, 304):
                failures.append(f"{response.status} {path}")
            elif not fresh:
                seen[path] = (response.getheader("ETag"), response.getheader("Last-Modified"))
            if fresh or response.getheader("Connection", "").lower() == "close":
                connection.close()
                connection = None
        if connection is not None:
            connection.close()
        with lock:
            for kind, ms in mine:
                latencies[kind].append(ms)
            statuses.update(codes)

    api_load.run_clients(client, clients, failures, "web_load")
    return latencies, statuses


if __name__ == "__main__":
    main()
