"""Closes its stdout and stderr at import, then plays on; prints when asked to."""

import os
import sys

os.close(1)
os.close(2)


def act(observation):
    if observation.get("print"):
        print("nobody reads this", flush=True)  # OSError: its own stdout is closed
        sys.stderr.write("nor this\n")
    return {"still": "playing"}
