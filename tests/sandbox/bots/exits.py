"""Attack: end the process in act() the way info["how"] says."""

import os
import sys

how = ""


def on_match_start(info):
    global how
    how = info["how"]


def act(observation):
    kind, _, arg = how.partition(":")
    if kind == "sys.exit":
        sys.exit(int(arg) if arg.lstrip("-").isdigit() else arg)
    if kind == "os._exit":
        os._exit(int(arg))
    if kind == "raise":
        raise {"KeyboardInterrupt": KeyboardInterrupt, "SystemExit": SystemExit}[arg]()
    if kind == "close":  # close the protocol descriptors (both, or one), then answer
        for fd in sys.orig_argv[-2:] if arg == "both" else [sys.orig_argv[int(arg)]]:
            os.close(int(fd))
        return {}
    if kind == "devnull":  # replace the reply descriptor with /dev/null, then answer
        null = os.open("/dev/null", os.O_WRONLY)
        os.dup2(null, int(sys.orig_argv[-1]))
        return {}
    raise AssertionError(how)
