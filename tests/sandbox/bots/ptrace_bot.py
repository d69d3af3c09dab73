"""Attack: ptrace the host (pid from info) and itself through ctypes; reports errnos."""

import ctypes

libc = ctypes.CDLL(None, use_errno=True)
host_pid = 0


def on_match_start(info):
    global host_pid
    host_pid = info["host_pid"]


def _call(*args):
    ctypes.set_errno(0)
    result = libc.ptrace(*[ctypes.c_long(a) for a in args])
    return [result, ctypes.get_errno()]


def act(observation):
    return {"attach_host": _call(16, host_pid, 0, 0), "traceme": _call(0, 0, 0, 0)}
