"""Burns a fixed amount of CPU per move (info["burn_s"]) to draw on the time bank."""

import time

burn_s = 0.0


def on_match_start(info):
    global burn_s
    burn_s = info["burn_s"]


def act(observation):
    start = time.process_time()
    while time.process_time() - start < burn_s:
        pass
    return {"burned": burn_s}
