CALLS = []


def move(observation):
    CALLS.append(1)
    assert len(CALLS) <= 30, "state leaked from an earlier match"
    cards = observation["hand"][:3]
    if observation["role"] == "liar":
        return {"cards": cards, "face_up": 0}
    return {"cards": cards, "challenge": False}
