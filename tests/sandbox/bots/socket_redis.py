"""Attack: connect to the host's Redis on 127.0.0.1:6379."""

import socket


def act(observation):
    connection = socket.create_connection(("127.0.0.1", 6379), timeout=2)
    connection.sendall(b"INFO\r\n")
    return {"redis": connection.recv(100).decode()}
