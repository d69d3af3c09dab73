"""Prints 100 MB, then answers normally."""

import sys


def act(observation):
    line = "x" * (1024 * 1024 - 1)
    for _ in range(100):
        sys.stdout.write(line + "\n")
    return {"printed_mib": 100}
