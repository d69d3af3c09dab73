"""Leaves with os._exit() in a move (no Python cleanup, no report)."""

import os


def act(observation):
    os._exit(3)
