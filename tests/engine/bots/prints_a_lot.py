import sys


def act(observation):
    print("thinking..." * 1000)
    print("to stderr", file=sys.stderr)
    cards = observation["hand"][:3]
    if observation["role"] == "liar":
        return {"cards": cards, "face_up": 0}
    return {"cards": cards, "challenge": False}
