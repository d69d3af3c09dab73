"""No network at all: not the host's services on loopback, not the internet."""

from __future__ import annotations

import time

from engine.players import FaultKind
from tests.sandbox.conftest import expect_fault


def test_connecting_to_the_hosts_redis_is_forbidden(sandbox):
    player = sandbox("socket_redis.py")
    player.start({})
    fault = expect_fault(player, FaultKind.FORBIDDEN, lambda: player.act({}))
    assert "PermissionError" in fault.private
    assert "socket" in fault.private


def test_connecting_to_the_internet_is_forbidden_at_once(sandbox):
    player = sandbox("socket_internet.py")
    player.start({})
    began = time.monotonic()
    expect_fault(player, FaultKind.FORBIDDEN, lambda: player.act({}))
    assert time.monotonic() - began < 1.5  # refused at once, not a 2 s connect timeout
