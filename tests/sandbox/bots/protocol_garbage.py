"""Attack: write garbage on the reply descriptor, then answer normally."""

import os


def protocol_fds():
    """The protocol descriptors, as an attacker finds them: the interpreter's original argv."""
    import sys
    return int(sys.orig_argv[-2]), int(sys.orig_argv[-1])  # (requests in, replies out)

def act(observation):
    _, replies = protocol_fds()
    os.write(replies, b"\x00\xffgarbage that is not json\n")
    return {}
