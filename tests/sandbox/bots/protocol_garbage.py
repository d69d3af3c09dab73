"""Attack: write garbage on the reply descriptor, then answer normally."""

import os


def protocol_fds():
    """The protocol descriptors, as an attacker finds them: the bootstrap's last two args."""
    with open("/proc/self/cmdline", "rb") as handle:
        args = [a for a in handle.read().split(b"\0") if a]
    return int(args[-2]), int(args[-1])  # (requests in, replies out)

def act(observation):
    _, replies = protocol_fds()
    os.write(replies, b"\x00\xffgarbage that is not json\n")
    return {}
