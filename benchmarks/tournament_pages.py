"""How fast a finished tournament's page answers: a big round robin and a big Swiss.

Two finished Lie 21 tournaments are built in a scratch database through the real services
(``tournament_create`` / ``tournament_start`` / ``tournament_finish``, round after round for
the Swiss), their matches' results written as a worker would record them (placings and
match points from the bots' strengths), so the standings, crosstable and rounds the page
shows are the real ones:

- a round robin of 32 bots with 3 matches per pairing: 496 pairings, 1,488 matches;
- a Swiss of 64 bots over 7 rounds: 224 matches.

Then each page is requested ``--requests`` times through Django's test client (the whole
stack but the socket: middleware, the cache, the template), after one request to warm the
caches, and the slowest 1% is reported: what readers of a finished tournament get, its
results drawn once and kept. Then a quarter as many requests with the cache emptied
before each (``drawn``): every one reads the stored standings and lays out the crosstable
and rounds again, as the first reader after a deployment or an hour does. Prints::

    tournament_page_p50_ms_round_robin_32: N ms
    tournament_page_p99_ms_round_robin_32: N ms
    tournament_page_drawn_p50_ms_round_robin_32: N ms
    tournament_page_drawn_p99_ms_round_robin_32: N ms
    ... the same for swiss_64
    tournament_page_p99_ms: N ms        (the larger of the two p99s: the issue's figure)
    tournament_page_drawn_p99_ms: N ms  (the same, every request drawn afresh)

Runs on a scratch PostgreSQL database (``--database-url postgres://...``, created and
dropped) or, without one, a SQLite file in a temporary directory (said on stderr).

Usage: ``python benchmarks/tournament_pages.py [--database-url URL] [--requests 200]``.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: Each bot's strength: the chance it places ahead of a bot of strength 0 (logistic).
SEED = 31


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", ""))
    parser.add_argument("--database-name", default="tournament_pages_bench")
    parser.add_argument("--requests", type=int, default=200)
    return parser.parse_args()


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def scratch_postgres(url: str, name: str) -> tuple[str, str]:
    import psycopg

    parts = urlsplit(url)
    admin = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}")), admin


def configure(scratch: Path, database_url: str) -> None:
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "arena.settings",
            "SECRET_KEY": "benchmark-only",
            "DEBUG": "0",
            "ALLOWED_HOSTS": "testserver",
            "ARENA_DATA_DIR": str(scratch),
            "ARENA_DEMO_TOURNAMENT": "0",
            "LOG_LEVEL": "WARNING",
        }
    )
    os.environ.pop("REDIS_URL", None)  # the filesystem queue under scratch takes the tasks
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    else:
        os.environ.pop("DATABASE_URL", None)
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    # DEBUG off wants collectstatic's manifest for {% static %}; the scratch run has none, so
    # static URLs come from the plain storage (a name, as the manifest's lookup is: the same
    # work per link, without writing collectstatic's files into the checkout).
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }

    call_command("migrate", verbosity=0)


def make_bots(count: int, rng: random.Random) -> dict[int, float]:
    """``count`` Lie 21 bots with a valid version each; their strengths by bot id."""
    from django.contrib.auth import get_user_model

    from arena.models import Bot, BotVersion
    from arena.services.ratings import rating_activate

    owner = get_user_model().objects.create_user(f"bench{count}")
    strengths = {}
    for number in range(count):
        bot = Bot.objects.create(owner=owner, name=f"bot-{count}-{number:02d}", game="lie21")
        version = BotVersion.objects.create(
            bot=bot, number=1, filename="bot.py", kind="py", sha256="0" * 64, size=1, status="valid"
        )
        Bot.objects.filter(pk=bot.pk).update(active_version=version)
        rating_activate(version=version)
        strengths[bot.pk] = rng.gauss(0, 1)
    return strengths


def play_open_matches(tournament_id: int, strengths: dict[int, float], rng: random.Random) -> int:
    """Write a result for every queued match of the tournament, as recording would."""
    import math

    from django.db import transaction
    from django.utils import timezone

    from arena.models import Match, MatchSeat

    matches = list(Match.objects.filter(tournament_id=tournament_id, status="queued"))
    seats = list(MatchSeat.objects.filter(match__in=matches).order_by("match_id", "seat"))
    by_match: dict[int, list] = {}
    for seat in seats:
        by_match.setdefault(seat.match_id, []).append(seat)
    now = timezone.now()
    with transaction.atomic():
        for match in matches:
            a, b = by_match[match.pk]
            edge = strengths[a.bot_id] - strengths[b.bot_id]
            a_wins = rng.random() < 1 / (1 + math.exp(-edge))
            a.placing, b.placing = (0, 1) if a_wins else (1, 0)
            winner_points = 4
            loser_points = rng.randint(0, 3)
            a.score, b.score = (
                (winner_points, loser_points) if a_wins else (loser_points, winner_points)
            )
            match.status, match.reason, match.finished_at = "done", "match_points", now
            match.started_at, match.duration_s = now, 0.05
        MatchSeat.objects.bulk_update(seats, ["placing", "score"])
        Match.objects.bulk_update(
            matches, ["status", "reason", "finished_at", "started_at", "duration_s"]
        )
    return len(matches)


def build(format: str, bots: int, matches_per_pairing: int, rng: random.Random) -> int:
    """A finished tournament of ``bots`` new bots; its id."""
    from arena.models import Bot, Tournament
    from arena.services.tournaments import tournament_create, tournament_finish, tournament_start

    Bot.objects.update(is_active=False)  # only this tournament's bots take part
    strengths = make_bots(bots, rng)
    tournament = tournament_create(
        name=f"{format} {bots}",
        game="lie21",
        created_by=None,
        seed=SEED,
        format=format,
        matches_per_pairing=matches_per_pairing,
    )
    tournament_start(tournament_id=tournament.pk)
    played = 0
    while True:
        played += play_open_matches(tournament.pk, strengths, rng)
        if tournament_finish(tournament_id=tournament.pk).status == Tournament.Status.FINISHED:
            break
    log(f"{format} of {bots} bots: {played} matches")
    return tournament.pk


def measure(path: str, requests: int, *, cached: bool = True) -> list[float]:
    """Each request's time in ms; ``cached=False`` empties the cache before each (outside
    the timing), so every request draws the page from the stored standings."""
    from django.core.cache import cache
    from django.test import Client

    client = Client()
    first = client.get(path)
    if first.status_code != 200:
        sys.exit(f"{path} answered {first.status_code}")
    times = []
    for _ in range(requests):
        if not cached:
            cache.clear()
        started = time.perf_counter()
        response = client.get(path)
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200
    return times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    args = parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="arena-tournament-pages-"))
    admin = ""
    database_url = ""
    if args.database_url.startswith("postgres"):
        database_url, admin = scratch_postgres(args.database_url, args.database_name)
    else:
        log("no PostgreSQL URL given (--database-url): measuring on SQLite")
    try:
        configure(scratch, database_url)
        rng = random.Random(SEED)
        cases = {
            "round_robin_32": build("round_robin", 32, 3, rng),
            "swiss_64": build("swiss", 64, 1, rng),
        }
        worst = worst_drawn = 0.0
        for name, tournament_id in cases.items():
            path = f"/tournaments/{tournament_id}/"
            times = measure(path, args.requests)
            p99 = percentile(times, 0.99)
            worst = max(worst, p99)
            print(f"tournament_page_p50_ms_{name}: {statistics.median(times):.1f} ms")
            print(f"tournament_page_p99_ms_{name}: {p99:.1f} ms")
            drawn = measure(path, max(20, args.requests // 4), cached=False)
            worst_drawn = max(worst_drawn, percentile(drawn, 0.99))
            print(f"tournament_page_drawn_p50_ms_{name}: {statistics.median(drawn):.1f} ms")
            print(f"tournament_page_drawn_p99_ms_{name}: {percentile(drawn, 0.99):.1f} ms")
        print(f"tournament_page_p99_ms: {worst:.1f} ms")
        print(f"tournament_page_drawn_p99_ms: {worst_drawn:.1f} ms")
    finally:
        if admin:
            from django.db import connections

            connections.close_all()
            import psycopg

            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{args.database_name}" WITH (FORCE)')
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
