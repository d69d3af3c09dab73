"""Attack: an infinite loop while being imported."""

while True:
    pass


def act(observation):
    return {}
