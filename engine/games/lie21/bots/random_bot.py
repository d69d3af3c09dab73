"""random: plays a uniformly random legal move. The baseline every bot should beat.

Built-in bots are ordinary bot files: they import only the standard library, so they run
unchanged in the sandbox and in the local runner, exactly like an uploaded bot.
"""

import random

_rng = random  # the module's own generator until the match gives this seat a seed


def on_match_start(info: dict) -> None:
    # The platform gives each seat its own seed, so a match replays byte for byte.
    global _rng
    _rng = random.Random(info["seed"])


def act(observation: dict) -> dict:
    # Three cards drawn in order are uniform over (set of three, face-up choice) pairs, so
    # the first drawn goes face up. Drawing by hand is cheaper than random.sample.
    hand = observation["hand"]  # the bot's own copy: drawn from in place
    draw = _rng.random
    n = len(hand)
    cards = [
        hand.pop(int(draw() * n)),
        hand.pop(int(draw() * (n - 1))),
        hand.pop(int(draw() * (n - 2))),
    ]
    if observation["role"] == "liar":
        return {"cards": cards, "face_up": 0}
    return {"cards": cards, "challenge": draw() < 0.5}
