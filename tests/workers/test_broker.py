"""The laptop's filesystem broker serves a worker's queues in their order, as Redis does:
a playground match before a validation, a validation before ladder work (arena/broker.py).
Kombu's own filesystem transport goes round the queues instead, which this test shows."""

from __future__ import annotations

from pathlib import Path

import pytest
from kombu import Connection, Exchange, Queue
from kombu.transport import filesystem

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


def test_the_settings_use_it_without_redis(settings) -> None:
    if settings.CELERY_BROKER_URL.startswith("filesystem://"):
        assert settings.CELERY_BROKER_TRANSPORT == "arena.broker:Transport"
