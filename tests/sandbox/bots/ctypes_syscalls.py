"""Attack: raw system calls through ctypes, bypassing Python's wrappers; reports errnos."""

import ctypes

libc = ctypes.CDLL(None, use_errno=True)
SIGCHLD = 17
CALLS = {  # x86_64 numbers
    "socket": (41, 2, 1, 0),
    "fork": (57,),
    "vfork": (58,),
    "clone": (56, SIGCHLD, 0, 0, 0, 0),
    "clone3": (435, 0, 0),
    "execve": (59, 0, 0, 0),
    "unshare": (272, 0x40000000),
    "mount": (165, 0, 0, 0, 0, 0),
    "ptrace": (101, 0, 0, 0, 0),
    "bpf": (321, 0, 0, 0),
    "io_uring_setup": (425, 1, 0),
    "memfd_create": (319, 0, 0),
    "kill_other": (62, 2, 9),
    "kexec_load": (246, 0, 0, 0, 0),
}


def act(observation):
    result = {}
    for name, (number, *args) in CALLS.items():
        ctypes.set_errno(0)
        value = libc.syscall(ctypes.c_long(number), *[ctypes.c_long(a) for a in args])
        result[name] = [value, ctypes.get_errno()]
    return result
