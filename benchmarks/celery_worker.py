"""The command line of a scratch Celery worker, for the tournament benchmark's workers
(``tournament_speed.py``, and the benchmarks that start workers through it) and the test
harness's (``tests/workers/processes.py``).

It lives here, not in ``workers/``: the benchmark's ``--compare`` runs its own code against
another commit's tree, whose ``workers/`` may not have it; the tests import it as
``benchmarks.celery_worker``, the benchmarks as ``celery_worker`` (this folder is a script's
first path entry).
"""

from __future__ import annotations

import sys


def worker_argv(nodename: str, *, concurrency: int, queues: str | None = None) -> list[str]:
    """``celery -A workers worker`` with a prefork pool of ``concurrency`` processes, named
    ``nodename`` (``name@%h``), on ``queues`` (comma-separated; all of them when None),
    without gossip, mingle or heartbeat (the events workers exchange with each other)."""
    return [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "workers",
        "worker",
        "--loglevel=INFO",
        f"--concurrency={concurrency}",
        "--pool=prefork",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "-n",
        nodename,
        *(["-Q", queues] if queues else []),
    ]
