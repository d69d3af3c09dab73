"""High Card starter: swap a low card, keep a high one."""


def act(observation):
    return {"swap": observation["card"] < 8}
