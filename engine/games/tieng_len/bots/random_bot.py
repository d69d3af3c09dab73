"""random: plays a uniformly random legal action (a pass included, when allowed).

The baseline every bot should beat. Built-in bots are ordinary bot files: they import only
the standard library, so they run unchanged in the sandbox and in the local runner.
"""

import random

_rng = random.Random(0)  # replaced by the seat's own seed when the match starts


def on_match_start(info):
    # The platform gives each seat its own seed, so a match replays byte for byte.
    global _rng
    _rng = random.Random(info["seed"])


def act(observation):
    actions = observation["legal_actions"]
    return actions[int(_rng.random() * len(actions))]
