"""Calls sys.exit() in a move."""

import sys


def act(observation):
    sys.exit(0)
