"""Lie 21: prints every move, and fails as The Liar of hand 3, before its lie: the table still
shows hand 2 when the game stops (issue 32: the heading named hand 2, the fault box hand 3)."""


def on_match_start(info):
    print("hello from seat", info["seat"])


def act(observation):
    cards = observation["hand"][:3]
    print("hand", observation["hand_number"], observation["role"])
    if observation["hand_number"] == 3 and observation["role"] == "liar":
        raise RuntimeError("my bug in hand 3")
    if observation["role"] == "liar":
        return {"cards": cards, "face_up": 0}
    return {"cards": cards, "challenge": False}
