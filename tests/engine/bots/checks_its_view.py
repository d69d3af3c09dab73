"""Fails loudly if what it is given was tampered with."""


def act(observation):
    for hand in observation["history"]:
        assert "winner" in hand, "history entry emptied by someone else"
    assert len(observation["match_points"]) == 2
    for game in observation["games"]:
        assert len(game["scores"]) == 2
    cards = observation["hand"][:3]
    if observation["role"] == "liar":
        return {"cards": cards, "face_up": 0}
    return {"cards": cards, "challenge": True}
