"""The filesystem broker of a laptop (no ``REDIS_URL``), reading its queues in order.

Kombu's virtual transports poll a worker's queues round robin: after taking a message from
one queue, the next poll starts at the next queue. With Redis the arena asks for the
``priority`` order instead (``queue_order_strategy``), so a worker always takes a playground
match before a validation, and a validation before ladder or tournament work
(``CELERY_TASK_QUEUES`` in ``arena/settings.py``). This transport gives the filesystem broker
the same order: every poll starts at the worker's first queue.
"""

from __future__ import annotations

from queue import Empty
from typing import Any

from kombu.transport import filesystem
from kombu.utils.scheduling import FairCycle

__all__ = ["Transport"]


class InOrder(FairCycle):
    """A cycle over queues that starts every poll at the first one (their priority)."""

    def get(self, callback: Any, **kwargs: Any) -> Any:
        self.pos = 0
        return super().get(callback, **kwargs)


class Channel(filesystem.Channel):
    def _reset_cycle(self) -> None:
        self._cycle = InOrder(self._get_and_deliver, self._active_queues, Empty)


class Transport(filesystem.Transport):
    Channel = Channel
