"""A bot that crashes in the third hand of its first game (for the fault display tests)."""


def act(observation):
    if observation["hand_number"] == 3:
        print("about to fail")
        raise RuntimeError("PRIVATE-CRASH-DETAIL")
    cards = observation["hand"][:3]
    if observation["role"] == "liar":
        return {"cards": cards, "face_up": 0}
    return {"cards": cards, "challenge": True}
