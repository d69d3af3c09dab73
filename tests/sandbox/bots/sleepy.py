"""Sleeps info["sleep_s"] (default 0.25) of wall-clock time every decision, burns no CPU."""

import time

sleep_s = 0.25


def on_match_start(info):
    global sleep_s
    sleep_s = info.get("sleep_s", 0.25)


def on_hand_end(observation):
    time.sleep(sleep_s)


def act(observation):
    time.sleep(sleep_s)
    if "hand" not in observation:  # called directly by a test
        return {"slept": sleep_s}
    cards = observation["hand"][:3]  # a legal Lie 21 move
    if observation["role"] == "liar":
        return {"cards": cards, "face_up": 0}
    return {"cards": cards, "challenge": False}
