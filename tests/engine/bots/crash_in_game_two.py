"""Plays like random, then raises in the first move of game 2."""

import random


def act(observation):
    if observation["game_number"] == 2:
        raise RuntimeError("secret-internal-state-of-the-bot")
    cards = random.Random(len(observation["history"])).sample(observation["hand"], 3)
    if observation["role"] == "liar":
        return {"cards": cards, "face_up": 0}
    return {"cards": cards, "challenge": False}
