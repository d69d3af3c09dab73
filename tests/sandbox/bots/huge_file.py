"""Attack: write a 1 GiB file."""


def act(observation):
    chunk = b"\x00" * (1024 * 1024)
    with open("/tmp/huge", "wb") as handle:
        for _ in range(1024):
            handle.write(chunk)
    return {}
