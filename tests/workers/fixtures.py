"""Fixtures of the service and worker tests: bots with stored versions, fast limits, real
workers. A plugin of the root conftest (``pytest_plugins``), as the tests that use them live
both in tests/arena/ (the services they test) and in tests/workers/ (the workers themselves)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.core.files.base import ContentFile
from django.db import connection

from arena.models import Bot, BotVersion
from arena.services.ratings import rating_activate
from tests.arena import bots
from tests.workers.faults import PrivateRedis
from tests.workers.processes import (
    CeleryBeat,
    CeleryWorker,
    redis_url,
    require_redis,
    use_broker,
)

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def media(settings, tmp_path: Path) -> Path:
    """Uploaded bot files go to a fresh directory per test, never into var/ (automatic in
    tests/workers/, and tests/arena/'s own ``media_root`` gives the same directory)."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def fast_limits(settings) -> None:
    """Short move limits, so a bot that never answers times out in well under a second."""
    settings.ARENA_MOVE_TIMEOUT_S = 0.25
    settings.ARENA_TIME_BANK_S = 0.25


def version_add(
    bot: Bot,
    source: str | bytes,
    *,
    filename: str = "bot.py",
    status: str = BotVersion.Status.PENDING,
) -> BotVersion:
    """Store a new version of ``bot`` as an upload would; a valid one becomes active."""
    data = source.encode() if isinstance(source, str) else source
    latest = bot.versions.order_by("-number").first()
    version = BotVersion(
        bot=bot,
        number=latest.number + 1 if latest else 1,
        filename=filename,
        kind=BotVersion.Kind.ZIP if filename.endswith(".zip") else BotVersion.Kind.PY,
        sha256=hashlib.sha256(data).hexdigest(),
        size=len(data),
        status=status,
    )
    version.file.save(filename, ContentFile(data), save=False)
    version.save()
    if status == BotVersion.Status.VALID:
        Bot.objects.filter(pk=bot.pk).update(active_version=version)
        bot.refresh_from_db()
        version.bot = bot
        rating_activate(version=version)
    return version


@pytest.fixture
def make_bot(owner) -> Callable[..., Bot]:
    """``make_bot("name", source, valid=True)``: a bot with one stored version."""

    def make(name: str, source: str = bots.GOOD, *, valid: bool = True, user=None, **fields) -> Bot:
        fields.setdefault("game", "lie21")
        bot = Bot.objects.create(owner=user or owner, name=name, **fields)
        status = BotVersion.Status.VALID if valid else BotVersion.Status.PENDING
        version_add(bot, source, status=status)
        bot.refresh_from_db()
        return bot

    return make


@pytest.fixture
def run_on_commit(django_capture_on_commit_callbacks):
    """Run on-commit callbacks (queued tasks, eager here) inside a ``db`` test."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def tasks_queued(callbacks: list) -> list:
    """The on-commit callbacks that queue a task (``dispatch.enqueue``'s), without the
    others (such as a ladder's cache version being bumped)."""
    return [cb for cb in callbacks if getattr(cb, "func", None) is not None and cb.args]


# --- real workers ---------------------------------------------------------------------


@pytest.fixture
def redis(transactional_db) -> Iterator[str]:
    """A real, empty Redis database as the broker of this process and of its workers."""
    url = redis_url()
    client = require_redis(url)
    client.flushdb()
    with use_broker(url):
        yield url
    client.flushdb()


@pytest.fixture
def worker_env(settings, media: Path) -> dict[str, str]:
    """The environment a worker process needs to share this test's database and files."""
    media.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.workers.worker_settings",
        "ARENA_TEST_EAGER": "0",
        "ARENA_TEST_DATABASE_NAME": str(connection.settings_dict["NAME"]),
        "ARENA_TEST_MEDIA_ROOT": str(media),
        "ARENA_MOVE_TIMEOUT_S": str(settings.ARENA_MOVE_TIMEOUT_S),
        "ARENA_TIME_BANK_S": str(settings.ARENA_TIME_BANK_S),
        "PYTHONPATH": str(REPO),
        "REDIS_URL": redis_url(),  # tests without Redis unset it
    }
    env.pop("CELERY_BROKER_URL", None)
    return env


@pytest.fixture
def start_worker(
    worker_env: dict[str, str], tmp_path: Path
) -> Iterator[Callable[..., CeleryWorker]]:
    """``start_worker(name, concurrency=2, unset=(), **env)``: a worker, stopped at teardown."""
    started: list[CeleryWorker] = []

    def start(
        name: str = "w1",
        *,
        concurrency: int = 2,
        unset: tuple[str, ...] = (),
        queues: str | None = None,
        **env: str,
    ) -> CeleryWorker:
        full = {key: value for key, value in {**worker_env, **env}.items() if key not in unset}
        worker = CeleryWorker(name, full, log_path=tmp_path / f"{name}.log", cwd=REPO)
        worker.start(concurrency=concurrency, queues=queues)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    """A redis-server of this test's own (pausing it stalls no one else)."""
    server = PrivateRedis(tmp_path / "redis")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def start_beat(worker_env: dict[str, str], tmp_path: Path) -> Iterator[Callable[[], CeleryBeat]]:
    """``start_beat()``: celery beat on this test's database, stopped at teardown."""
    started: list[CeleryBeat] = []

    def start() -> CeleryBeat:
        beat = CeleryBeat(worker_env, log_path=tmp_path / "beat.log", cwd=REPO)
        beat.start()
        started.append(beat)
        return beat

    yield start
    for beat in started:
        beat.stop()
