"""Keeps what the hooks tell it and checks it on every move."""

calls = []
state = {}


def on_match_start(info):
    calls.append(("start", info["seat"], info["seed"]))
    state["seat"] = info["seat"]


def on_hand_end(observation):
    calls.append(("hand", observation["game_number"], len(observation["history"])))


def on_game_end(result):
    calls.append(("game", result["number"], tuple(result["scores"])))
    assert sum(result["scores"]) == 120
    assert len(result["hands"]) == 7


def act(observation):
    assert observation["seat"] == state["seat"]
    cards = observation["hand"][:3]
    if observation["role"] == "liar":
        return {"cards": cards, "face_up": 2}
    return {"cards": cards, "challenge": True}
