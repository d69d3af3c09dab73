"""Returns a reply bigger than the message limit."""


def act(observation):
    return {"blob": "x" * (200 * 1024)}
