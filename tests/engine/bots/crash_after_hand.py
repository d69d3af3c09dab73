"""Plays first-three-cards, and raises in on_hand_end after the hand named in CRASH_AFTER."""

CRASH_AFTER = 1


def on_hand_end(observation):
    if observation["game_number"] == 1 and len(observation["history"]) == CRASH_AFTER:
        raise RuntimeError("boom")


def act(observation):
    cards = observation["hand"][:3]
    if observation["role"] == "liar":
        return {"cards": cards, "face_up": 0}
    return {"cards": cards, "challenge": True}
