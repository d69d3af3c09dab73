"""Each decision spins for 30 ms of CPU, over a tiny per-move limit."""

import time


def act(observation):
    end = time.thread_time() + 0.03
    while time.thread_time() < end:
        pass
    cards = observation["hand"][:3]
    if observation["role"] == "liar":
        return {"cards": cards, "face_up": 0}
    return {"cards": cards, "challenge": False}
