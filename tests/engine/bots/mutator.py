"""Scribbles over everything it is given (harmless to anyone but itself)."""


def act(observation):
    for hand in observation["history"]:
        hand.clear()
    observation["match_points"].append(99)
    for game in observation["games"]:
        game["scores"].append(1)
    cards = sorted(observation["hand"])[:3]
    observation["hand"].clear()
    if observation["role"] == "liar":
        return {"cards": cards, "face_up": 0}
    return {"cards": cards, "challenge": True}
