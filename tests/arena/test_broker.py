"""A worker reads its queues in their order: the tournaments' control tasks, then a
playground match, then a validation, then ladder work. On Redis the settings' kombu
``queue_order_strategy`` does it; the laptop's filesystem broker does it through
arena/broker.py, as kombu's own filesystem transport goes round the queues instead (both
shown here)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from kombu import Connection, Exchange, Queue
from kombu.transport import filesystem

from tests.workers.processes import redis_url, require_redis

ROOT = Path(__file__).resolve().parents[2]

ORDER = ["playground", "validation", "celery"]


def _taken(transport: str, folder: Path) -> list[str]:
    """What a consumer of the three queues takes, one message at a time."""
    filesystem.Transport.global_state.clear()  # bindings are kept per process: start afresh
    for name in ("queue", "processed", "control"):
        (folder / name).mkdir(exist_ok=True)
    options = {
        "data_folder_in": str(folder / "queue"),
        "data_folder_out": str(folder / "queue"),
        "processed_folder": str(folder / "processed"),
        "control_folder": str(folder / "control"),
    }
    exchange = Exchange("celery", type="direct")
    queues = [Queue(name, exchange, routing_key=name) for name in ORDER]
    taken: list[str] = []
    with Connection("filesystem://", transport=transport, transport_options=options) as conn:
        producer = conn.Producer()

        def send(queue: str) -> None:
            producer.publish({"q": queue}, exchange=exchange, routing_key=queue, declare=queues)

        def take() -> None:
            conn.drain_events(timeout=2)

        with conn.Consumer(
            queues, callbacks=[lambda body, msg: (taken.append(body["q"]), msg.ack())]
        ):
            send("validation")
            take()  # the cycle has just served the middle queue
            send("celery")
            send("playground")
            take()
            take()
    return taken


@pytest.mark.parametrize(
    ("transport", "expected"),
    [
        ("arena.broker:Transport", ["validation", "playground", "celery"]),
        ("filesystem", ["validation", "celery", "playground"]),  # kombu's: round robin
    ],
)
def test_the_queues_are_read_in_their_order(tmp_path: Path, transport, expected) -> None:
    assert _taken(transport, tmp_path) == expected


def _broker_settings(tmp_path: Path, redis: str | None) -> dict:
    """The broker settings of an arena started with ``REDIS_URL=redis`` (None: a laptop's
    ``make run``, which has no Redis), read from a fresh interpreter."""
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
    env |= {"DEBUG": "1", "ARENA_DATA_DIR": str(tmp_path)}
    env |= {"DJANGO_SETTINGS_MODULE": "arena.settings"} | ({"REDIS_URL": redis} if redis else {})
    script = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "print(json.dumps({'url': s.CELERY_BROKER_URL, "
        "'transport': getattr(s, 'CELERY_BROKER_TRANSPORT', None), "
        "'options': s.CELERY_BROKER_TRANSPORT_OPTIONS, "
        "'queues': [q.name for q in s.CELERY_TASK_QUEUES]}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_settings_use_it_without_redis(tmp_path: Path) -> None:
    broker = _broker_settings(tmp_path, None)
    assert broker["url"].startswith("filesystem://")
    assert broker["transport"] == "arena.broker:Transport"
    assert broker["queues"][:4] == ["control", *ORDER]


@pytest.mark.slow
@pytest.mark.redis
def test_redis_serves_the_queues_in_the_order_the_settings_give(tmp_path: Path) -> None:
    """With Redis, the settings' ``queue_order_strategy`` makes kombu read control, then
    playground, then validation, then ladder work, whatever was sent first."""
    url = redis_url()
    require_redis(url)
    broker = _broker_settings(tmp_path, url)
    assert broker["url"] == url
    order = broker["queues"]
    assert order == ["control", *ORDER]
    exchange = Exchange("order-test", type="direct")
    queues = [Queue(f"order-test-{name}", exchange, routing_key=name) for name in order]
    taken: list[str] = []
    with Connection(url, transport_options=broker["options"]) as conn:
        producer = conn.Producer()

        def send(name: str) -> None:
            producer.publish({"q": name}, exchange=exchange, routing_key=name, declare=queues)

        with conn.Consumer(
            queues, callbacks=[lambda body, msg: (taken.append(body["q"]), msg.ack())]
        ):
            send("playground")
            conn.drain_events(timeout=5)  # a round robin would now put playground last
            for name in ("celery", "validation", "playground"):
                send(name)
            for _ in range(3):
                conn.drain_events(timeout=5)
        for queue in queues:
            queue(conn.default_channel).delete()
    assert taken == ["playground", "playground", "validation", "celery"]
