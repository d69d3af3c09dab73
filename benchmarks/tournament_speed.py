"""How fast the worker pipeline plays a tournament, against playing it in one process.

An 8-bot round robin (28 best-of-7 matches) of sandboxed built-in bots (copies of random,
greedy and heuristic) is played twice:

* **pipeline**: ``tournament_start`` fans the matches out through a real Redis to two
  Celery worker processes, which claim, play, record and rate each one; timed from the
  start until the tournament is finished and every match rated;
* **sequential**: the same 28 matches (same versions, same seeds) played one after the
  other in this process by ``engine.play_match`` with ``sandbox.SandboxedPlayer``.

Everything runs against scratch state: a SQLite file in a temporary directory (or, with
``--database-url postgres://...``, a scratch database created and dropped on that server)
and Redis database 14 (``--redis-url``), which is flushed. Prints exactly::

    pipeline: N matches/min
    sequential: N matches/min
    pipeline_vs_sequential: N x
    pipeline_vs_sequential_best: N x

The pipeline is timed ``--repeat`` times (default 5), each run between two runs of the
sequential side (``--repeat`` + 1 of them). ``pipeline_vs_sequential`` compares each
pipeline run with the mean of its two neighbours and takes the median of those ratios (see
:func:`paired_ratio`); ``pipeline_vs_sequential_best`` is the fastest run of each side, the
figure this benchmark printed alone until 2026-11; ``pipeline`` and ``sequential`` are each
side's median run.

The sequential side starts its bots the way the tree's workers do: from jails started
while the previous match was played, where the tree has them (``ARENA_SANDBOX_PRESTART``).

``--compare REF`` runs the same benchmark for another tree too (a directory, or a commit
checked out in a temporary worktree), each tree in a process of its own with its own
scratch database, Redis database (the next number) and workers, alternating the two run
by run (sequential of one, of the other, pipeline of one, of the other, ...) so both meet
the same load; it prints this tree's figures, the other's as ``<name>_base``, and
``sequential_vs_base`` and ``pipeline_vs_base`` (this tree's matches per minute over the
other's).

Usage: ``python benchmarks/tournament_speed.py [--workers 2] [--repeat 5] [--redis-url URL]
[--database-url URL] [--compare REF]``. The targets on a 2-core machine, on PostgreSQL and
Redis (issue 38): the pipeline at least 1.8 times the sequential side
(``pipeline_vs_sequential``), and the sequential side at least 1.6 times the commit before
that work, 7471de4 (``sequential_vs_base`` with ``--compare 7471de4``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from itertools import pairwise
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from celery_worker import worker_argv
from engine_checkout import checkout

ROOT = Path(__file__).resolve().parent.parent
#: The tree whose arena, engine and sandbox run here (``--serve`` sets another).
TREE = ROOT

BOTS = ["random", "greedy", "heuristic", "random", "greedy", "heuristic", "random", "greedy"]
TOURNAMENT_SEED = 2024


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument(
        "--separate",
        action="store_true",
        help="one Celery worker per process instead of one worker with a pool of them",
    )
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/14")
    parser.add_argument(
        "--database-url",
        default="",
        help="a PostgreSQL server URL to create a scratch database on (default: SQLite)",
    )
    parser.add_argument("--timeout", type=float, default=300, help="give up after N seconds")
    parser.add_argument("--compare", metavar="REF", help="another tree: a directory or a commit")
    parser.add_argument("--serve", metavar="TREE", help=argparse.SUPPRESS)
    parser.add_argument(
        "--repeat",
        type=int,
        default=5,
        help="pipeline runs, each between two sequential runs (default 5): the machine's "
        "speed drifts by tens of percent within seconds",
    )
    return parser.parse_args()


def scratch_postgres(url: str) -> tuple[str, str, str]:
    """Create a scratch database on ``url``'s server: (its URL, maintenance URL, name)."""
    import psycopg

    parts = urlsplit(url)
    name = f"arena_bench_{os.getpid()}"
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}")), admin, name


def drop_postgres(admin: str, name: str) -> None:
    import psycopg

    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def configure(
    scratch: Path,
    args: argparse.Namespace,
    database_url: str,
    *,
    log_level: str = "WARNING",
    **settings: str,
) -> dict[str, str]:
    """The environment of this process and of the workers: everything points at scratch
    (``settings`` besides; ``BENCH_LOG_LEVEL`` over ``log_level``)."""
    env = {
        "DJANGO_SETTINGS_MODULE": "arena.settings",
        "SECRET_KEY": "benchmark-only",
        "DEBUG": "0",
        "ARENA_DATA_DIR": str(scratch),
        "REDIS_URL": args.redis_url,
        "ARENA_DEMO_TOURNAMENT": "0",
        "LOG_LEVEL": os.environ.get("BENCH_LOG_LEVEL", log_level),
        "PYTHONPATH": str(TREE),
        **settings,
    }
    if database_url:
        env["DATABASE_URL"] = database_url
    else:
        os.environ.pop("DATABASE_URL", None)
    os.environ.update(env)
    return {**os.environ, **env}


def setup_database(names: list[str] | None = None) -> list:
    """Migrate the scratch database and add a bot with a valid version for each built-in
    Lie 21 bot of ``names`` (the 8 of ``BOTS``): number n, bot ``<name>-<n>``."""
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.contrib.auth import get_user_model
    from django.core.files.base import ContentFile

    from arena.models import Bot, BotVersion
    from arena.services.ratings import rating_activate
    from engine import builtin_bot

    owner = get_user_model().objects.create_user("bench")
    bots = []
    for number, name in enumerate(names or BOTS, start=1):
        path = builtin_bot("lie21", name)
        data = path.read_bytes()
        bot = Bot.objects.create(owner=owner, name=f"{name}-{number}", game="lie21")
        version = BotVersion(
            bot=bot,
            number=1,
            filename=path.name,
            kind="py",
            sha256=__import__("hashlib").sha256(data).hexdigest(),
            size=len(data),
            status="valid",
        )
        version.file.save(path.name, ContentFile(data), save=False)
        version.save()
        Bot.objects.filter(pk=bot.pk).update(active_version=version)
        rating_activate(version=version)
        bots.append(bot)
    return bots


def pairings() -> list[tuple[object, object, int]]:
    """The tournament's 28 pairings and seeds, as tournament_start will create them."""
    try:
        from arena.algorithms.round_robin import round_robin
    except ImportError:  # older trees (7471de4, the base of issue 38) kept it in services
        from arena.services.pairings import round_robin  # type: ignore[no-redef]
    from arena.models import Bot
    from engine import derive_seed

    bots = {bot.pk: bot for bot in Bot.objects.select_related("active_version").order_by("id")}
    return [
        (
            bots[a].active_version,
            bots[b].active_version,
            derive_seed(TOURNAMENT_SEED, "match", number, a, b),
        )
        for number, (a, b) in enumerate(round_robin(sorted(bots)))
    ]


def sequential(scratch: Path) -> float:
    """Seconds to play the 28 matches one by one in this process, sandboxed."""
    from arena.services import matches
    from engine import play_match
    from sandbox import SandboxConfig, SandboxedPlayer, check_available

    config = SandboxConfig.from_env()
    if (
        "prestart" in type(config).__dataclass_fields__
        and "ARENA_SANDBOX_PRESTART" not in os.environ
    ):
        config = dataclasses.replace(config, prestart=6)  # as the tree's workers start bots
    check_available(config)
    limits = matches.match_limits()
    files = scratch / "sequential"
    games = []
    for index, (version_a, version_b, seed) in enumerate(pairings()):
        if hasattr(matches, "version_files"):  # written once per process, as workers do
            paths = [matches.version_files(version) for version in (version_a, version_b)]
        else:
            paths = [
                matches.version_materialize(version, files / f"{index}-{seat}")
                for seat, version in enumerate((version_a, version_b))
            ]
        games.append((paths, seed))
    started = time.perf_counter()
    for paths, seed in games:
        players = [
            SandboxedPlayer(f"seat{seat}", path, limits=limits, config=config)
            for seat, path in enumerate(paths)
        ]
        play_match("lie21", players, seed=seed)
    return time.perf_counter() - started


def start_workers(
    count: int, env: dict[str, str], scratch: Path, *, separate: bool
) -> list[subprocess.Popen]:
    """``count`` worker processes: one Celery worker with a pool of ``count`` processes (as
    ``manage.py arena_up -c N`` runs it), or with ``separate`` one Celery worker each."""
    workers = []
    pool = 1 if separate else count
    for number in range(1, (count if separate else 1) + 1):
        log = (scratch / f"worker{number}.log").open("wb")
        workers.append(
            subprocess.Popen(
                worker_argv(f"bench{number}@%h", concurrency=pool),
                cwd=TREE,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        )
    deadline = time.monotonic() + 60
    for number, worker in enumerate(workers, start=1):
        log_path = scratch / f"worker{number}.log"
        while " ready." not in log_path.read_text(errors="replace"):
            if worker.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"worker {number} did not start:\n{log_path.read_text()}")
            time.sleep(0.1)
    return workers


def stop_workers(workers: list[subprocess.Popen]) -> None:
    for worker in workers:
        if worker.poll() is None:
            worker.send_signal(signal.SIGTERM)
    for worker in workers:
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)


def pipeline(timeout: float) -> float:
    """Seconds from tournament_start until finished and every match rated, via workers.

    The end is read from the rows' own timestamps (``finished_at``, the last rating), so
    this process can poll lazily and leave the two cores to the workers.
    """
    from arena.services.tournaments import tournament_create

    # Every run is a new tournament with the same seed: the same 28 matches each time.
    tournament = tournament_create(
        name="Benchmark", game="lie21", created_by=None, seed=TOURNAMENT_SEED
    )
    started, matches = start_until_rated(tournament, timeout, what="the pipeline", poll=0.25)
    if matches.exclude(status="done").exists() or matches.count() != 28:
        statuses = ", ".join(matches.values_list("status", flat=True))
        sys.exit(f"some matches did not play: {statuses}")
    return seconds_to_rated(tournament, started)


def start_until_rated(tournament: Any, timeout: float, *, what: str, poll: float) -> Any:
    """Start ``tournament`` and wait (``poll`` seconds between looks) until it is finished
    with every match rated: (its start time, its matches). Exits after ``timeout``."""
    from django.utils import timezone

    from arena.models import Match, Tournament
    from arena.services.tournaments import tournament_start

    started = timezone.now()
    tournament_start(tournament_id=tournament.pk)
    deadline = time.monotonic() + timeout
    matches = Match.objects.filter(tournament=tournament)
    while not (
        Tournament.objects.filter(pk=tournament.pk, status="finished").exists()
        and not matches.filter(rated=False).exists()
    ):
        if time.monotonic() > deadline:
            sys.exit(f"{what} did not finish in time (see the worker logs)")
        time.sleep(poll)
    return started, matches


def seconds_to_rated(tournament: Any, started: Any) -> float:
    """Seconds from ``started`` to the later of the tournament's end and its last rating,
    read from the rows' own timestamps (the poll's lateness does not count)."""
    from django.db.models import Max

    from arena.models import RatingHistory

    tournament.refresh_from_db()
    rated = RatingHistory.objects.filter(match__tournament=tournament).aggregate(Max("created"))
    ended = max(tournament.finished_at, rated["created__max"])
    return (ended - started).total_seconds()


def empty_broker(url: str) -> Any:
    """The Redis broker at ``url``, emptied (exits if it does not answer)."""
    import redis

    broker = redis.Redis.from_url(url)
    try:
        broker.ping()
    except redis.RedisError as exc:
        sys.exit(f"needs Redis at {url}: {exc}")
    broker.flushdb()
    return broker


class Session:
    """One tree's scratch database, bots and workers, and its two ways of playing."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.broker = empty_broker(args.redis_url)
        self.scratch = Path(tempfile.mkdtemp(prefix="arena-bench-"))
        os.chmod(self.scratch, 0o755)
        self.pg: list[str] = []
        self.workers: list[subprocess.Popen] = []
        database_url = ""
        if args.database_url:
            database_url, *self.pg = scratch_postgres(args.database_url)
        try:
            env = configure(self.scratch, args, database_url)
            setup_database()
            self.total = len(pairings())
            self.workers = start_workers(args.workers, env, self.scratch, separate=args.separate)
        except BaseException:
            self.close()
            raise

    def sequential(self) -> float:
        return sequential(self.scratch)

    def pipeline(self) -> float:
        from django.db import connections

        connections.close_all()
        return pipeline(self.args.timeout)

    def close(self) -> None:
        stop_workers(self.workers)
        self.broker.flushdb()
        if self.pg:
            from django.db import connections

            connections.close_all()
            drop_postgres(*self.pg)
        if os.environ.get("BENCH_KEEP"):
            print(f"kept {self.scratch}", file=sys.stderr)
        else:
            shutil.rmtree(self.scratch, ignore_errors=True)


def serve(args: argparse.Namespace) -> None:
    """Answer "sequential" and "pipeline" lines with the seconds one run took."""
    global TREE
    TREE = Path(args.serve).resolve()
    sys.path.insert(0, str(TREE))
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # anything else printed goes to stderr, never into the answers
    session = Session(args)
    try:
        print(json.dumps({"total": session.total}), file=out, flush=True)
        for line in sys.stdin:
            seconds = getattr(session, line.strip())()
            print(json.dumps({"seconds": seconds}), file=out, flush=True)
    finally:
        session.close()


class Server:
    """A tree's benchmark session in a process of its own."""

    def __init__(self, tree: Path, args: argparse.Namespace, redis_url: str) -> None:
        argv = [sys.executable, str(Path(__file__).resolve()), "--serve", str(tree)]
        argv += ["--workers", str(args.workers), "--redis-url", redis_url]
        argv += ["--timeout", str(args.timeout)]
        if args.database_url:
            argv += ["--database-url", args.database_url]
        if args.separate:
            argv.append("--separate")
        self.process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=tree
        )
        self.total = self._read()["total"]

    def _read(self) -> dict:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            sys.exit("a benchmark session failed (see above)")
        return json.loads(line)

    def run(self, side: str) -> float:
        assert self.process.stdin is not None
        self.process.stdin.write(side + "\n")
        self.process.stdin.flush()
        return self._read()["seconds"]

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(120)


def _next_db(url: str) -> str:
    parts = urlsplit(url)
    number = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{(number + 1) % 16}"))


def report(
    total: int, sequential_runs: list[float], pipeline_runs: list[float], suffix: str = ""
) -> None:
    print(f"pipeline{suffix}: {total / statistics.median(pipeline_runs) * 60:.1f} matches/min")
    print(f"sequential{suffix}: {total / statistics.median(sequential_runs) * 60:.1f} matches/min")
    ratio = paired_ratio(sequential_runs, pipeline_runs)
    print(f"pipeline_vs_sequential{suffix}: {ratio:.2f} x")
    best = min(sequential_runs) / min(pipeline_runs)
    print(f"pipeline_vs_sequential_best{suffix}: {best:.2f} x")


def main() -> None:
    args = parse_args()
    if args.serve:
        serve(args)
        return
    print(f"load average: {Path('/proc/loadavg').read_text().split()[0]}", file=sys.stderr)
    if args.compare:
        compare(args)
        return
    sys.path.insert(0, str(TREE))
    session = Session(args)
    try:
        # Alternate the two sides, starting and ending with the sequential one, so that each
        # pipeline run sits between two sequential runs (the idle workers cost nothing while
        # the sequential side runs).
        sequential_runs = [session.sequential()]
        pipeline_runs = []
        for _ in range(args.repeat):
            pipeline_runs.append(session.pipeline())
            sequential_runs.append(session.sequential())
    finally:
        session.close()
    print(f"load average after: {Path('/proc/loadavg').read_text().split()[0]}", file=sys.stderr)
    report(session.total, sequential_runs, pipeline_runs)


def compare(args: argparse.Namespace) -> None:
    """This tree and ``args.compare``, run by run in turn (see the module docstring)."""
    with checkout(args.compare) as tree:
        servers = {"new": Server(ROOT, args, args.redis_url)}
        try:
            servers["base"] = Server(tree, args, _next_db(args.redis_url))
            runs: dict[str, dict[str, list[float]]] = {
                side: {"sequential": [], "pipeline": []} for side in servers
            }

            def both(kind: str, number: int) -> None:
                order = ["base", "new"] if number % 2 == 0 else ["new", "base"]
                for side in order:
                    runs[side][kind].append(servers[side].run(kind))

            both("sequential", 0)
            for number in range(args.repeat):
                both("pipeline", number)
                both("sequential", number + 1)
                print(f"run {number + 1} of {args.repeat} done", file=sys.stderr)
        finally:
            for server in servers.values():
                server.close()
    print(f"load average after: {Path('/proc/loadavg').read_text().split()[0]}", file=sys.stderr)
    total = servers["new"].total
    new, base = runs["new"], runs["base"]
    report(total, new["sequential"], new["pipeline"])
    report(total, base["sequential"], base["pipeline"], "_base")
    # Each run of this tree sits beside the other tree's run of the same kind and round:
    # the median of their ratios (the other's seconds over this one's).
    for kind in ("sequential", "pipeline"):
        ratio = statistics.median(b / n for b, n in zip(base[kind], new[kind], strict=True))
        print(f"{kind}_vs_base: {ratio:.2f} x")


def paired_ratio(sequential_runs: list[float], pipeline_runs: list[float]) -> float:
    """The median, over the pipeline runs, of the mean of the two sequential runs around a
    pipeline run over that run.

    This machine's speed drifts by tens of percent within seconds: a run is compared only
    with its neighbours, measured under the same drift (averaging the one before and the
    one after cancels a steady one), and the median ignores the runs a burst of the
    machine's own load spoilt.

    >>> paired_ratio([4.0, 6.0, 4.0, 4.0], [2.0, 4.0, 2.5])  # a burst slowed the 2nd run
    1.6
    """
    around = [(before + after) / 2 for before, after in pairwise(sequential_runs)]
    return statistics.median(s / p for s, p in zip(around, pipeline_runs, strict=True))


if __name__ == "__main__":
    main()
