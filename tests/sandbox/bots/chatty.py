"""Prints 10 KiB per move: output must be capped per match."""


def act(observation):
    print("y" * 10 * 1024)
    return {}
