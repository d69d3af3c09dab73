"""A thread that computes all the time: it must not get CPU while it is not its turn."""

import threading

counter = 0


def _spin():
    global counter
    while True:
        counter += 1


def on_match_start(info):
    threading.Thread(target=_spin, daemon=True).start()


def act(observation):
    return {"counter": counter}
