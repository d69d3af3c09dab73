"""Attack: kill its parent, the host (pid from info) and everything else; reports results."""

import os
import signal

host_pid = 0


def on_match_start(info):
    global host_pid
    host_pid = info["host_pid"]


def _try(pid):
    try:
        os.kill(pid, signal.SIGKILL)
        return "sent"
    except OSError as exc:
        return type(exc).__name__


def act(observation):
    return {
        "ppid": os.getppid(),
        "kill_parent": _try(os.getppid()),
        "kill_host": _try(host_pid),
        "kill_all": _try(-1),
        "kill_pid_2": _try(2),
    }
