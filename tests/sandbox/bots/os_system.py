"""Attack: os.system and os.posix_spawn; reports what they returned."""

import os


def act(observation):
    result = {"system": os.system("echo escaped > /tmp/escaped")}
    try:
        os.posix_spawn("/usr/bin/python3.11", ["python3.11", "-c", "pass"], {})
        result["posix_spawn"] = "started"
    except OSError as exc:
        result["posix_spawn"] = exc.errno
    result["escaped_file"] = os.path.exists("/tmp/escaped")
    return result
