"""Attack: find the game engine and its state and rig them, then play like the random bot.

The test runs it as a directory bot next to a copy of ``random_bot.py``. In the local
in-process runner this attack works (it rewrites the game's score lists); in the sandbox
there is no engine to find.
"""

import gc
import sys

import random_bot

report = {}


def on_match_start(info):
    try:
        import engine  # noqa: F401

        report["engine"] = "imported"
    except ImportError as exc:
        report["engine"] = type(exc).__name__
    rigged = 0
    for obj in gc.get_objects():
        if isinstance(obj, dict) and "scores" in obj:
            obj["scores"] = [99, 0]
            rigged += 1
    report["rigged"] = rigged
    report["modules"] = sorted(m for m in sys.modules if m.startswith(("engine", "arena")))
    print("tamper report:", sorted(report.items()))
    random_bot.on_match_start(info)


def act(observation):
    return random_bot.act(observation)
