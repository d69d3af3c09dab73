"""Attack: an infinite loop in a move."""


def act(observation):
    while True:
        pass
