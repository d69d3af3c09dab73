"""Attack: flood the reply descriptor with well-formed lines until the host stops reading."""

import os
import sys


def act(observation):
    replies = int(sys.orig_argv[-1])
    line = b'{"t":"action","action":{},"seq":1}\n' * 1000
    for _ in range(2000):  # ~70 MB, far past any pipe buffer
        os.write(replies, line)
    return {}
