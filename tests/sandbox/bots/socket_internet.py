"""Attack: one connection attempt to a public address (TEST-NET-1, 192.0.2.1:80)."""

import socket


def act(observation):
    connection = socket.create_connection(("192.0.2.1", 80), timeout=2)
    return {"connected": str(connection)}
