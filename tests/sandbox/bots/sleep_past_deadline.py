"""Attack: sleeps instead of answering (uses no CPU, so only the wall guard catches it)."""

import time


def act(observation):
    time.sleep(60)
    return {}
