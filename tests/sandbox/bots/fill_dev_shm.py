"""Attack: write into /dev/shm (shared memory outside every limit, on a normal host)."""


def act(observation):
    with open("/dev/shm/hoard", "wb") as handle:
        handle.write(b"\x00" * (64 * 1024 * 1024))
    return {}
