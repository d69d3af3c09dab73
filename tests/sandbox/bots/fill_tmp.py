"""Attack: fill /tmp with many files, each under the file-size limit."""


def act(observation):
    chunk = b"\x00" * (1024 * 1024)
    for index in range(10_000):
        with open(f"/tmp/fill-{index}", "wb") as handle:
            handle.write(chunk)
    return {}
