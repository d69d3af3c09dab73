"""Attack: start threads until something stops it."""

import threading

stop = threading.Event()
threads = []


def act(observation):
    while True:
        thread = threading.Thread(target=stop.wait, daemon=True)
        thread.start()
        threads.append(thread)
