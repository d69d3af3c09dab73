"""Django's PostgreSQL backend, checking a kept connection without asking the server.

With persistent connections (``CONN_MAX_AGE``) Django checks a connection before the first
query of each request (``CONN_HEALTH_CHECKS``) by running ``SELECT 1``: one more round trip
to PostgreSQL for every request that reads anything, as long as the query it guards when
the request reads one row (a match's state, a replay), and under load each round trip also
waits for the database process to be scheduled.

A connection that has sat idle between requests needs no round trip to be found alive:
the client already knows whether it is idle, open and unbroken, and a server that went
away (restarted, killed the backend, closed the socket) has left something to read on the
socket, a termination notice or the end of the stream. Only then, or whenever the client is
unsure, is Django's own ``SELECT 1`` check run, and a dead connection replaced before the
request uses it, as before.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg import pq

__all__ = ["DatabaseWrapper"]


class DatabaseWrapper(base.DatabaseWrapper):
    # Django's BaseDatabaseWrapper sets these (CONN_HEALTH_CHECKS); its stubs leave them out.
    health_check_enabled: bool
    health_check_done: bool

    def close_if_health_check_failed(self) -> None:
        if (
            self.connection is not None
            and self.health_check_enabled
            and not self.health_check_done
            and _quietly_alive(self.connection)
        ):
            self.health_check_done = True
            return
        super().close_if_health_check_failed()


def _quietly_alive(connection: object) -> bool:
    """Whether an idle connection is open with nothing waiting on its socket (a server that
    left has sent a notice or closed it). False means "not sure": ask the server."""
    try:
        if connection.closed or connection.broken:  # type: ignore[attr-defined]
            return False
        info = connection.info  # type: ignore[attr-defined]
        if info.status != pq.ConnStatus.OK or info.transaction_status != pq.TransactionStatus.IDLE:
            return False
        readable, _, _ = select.select([connection.fileno()], [], [], 0)  # type: ignore[attr-defined]
    except (OSError, ValueError, AttributeError):
        return False
    return not readable
