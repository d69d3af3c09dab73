"""random: plays a uniformly random legal decision. The baseline every bot should beat.

Built-in bots are ordinary bot files: they import only the standard library, so they run
unchanged in the sandbox and in the local runner, exactly like an uploaded bot.
"""

import random

_rng = random.Random(0)  # replaced by the match's seed for this seat


def on_match_start(info: dict) -> None:
    # The platform gives each seat its own seed, so a match replays byte for byte.
    global _rng
    _rng = random.Random(info["seed"])


def act(observation: dict) -> dict:
    legal = observation["legal_actions"]
    return legal[int(_rng.random() * len(legal))]
