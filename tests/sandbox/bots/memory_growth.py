"""Attack: grow memory a little every move (touching every page) until something stops it."""

hoard = []


def act(observation):
    hoard.append(b"\x01" * (16 * 1024 * 1024))
    return {"mib": 16 * len(hoard)}
