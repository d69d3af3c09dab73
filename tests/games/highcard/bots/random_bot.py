"""random: a uniformly random legal move (High Card, the tests' game)."""

import random

_rng = random.Random(0)


def on_match_start(info):
    global _rng
    _rng = random.Random(info["seed"])


def act(observation):
    return _rng.choice(observation["legal_actions"])
