"""Attack: allocate far more memory than allowed, at once."""


def act(observation):
    hoard = bytearray(8 * 1024**3)
    return {"size": len(hoard)}
