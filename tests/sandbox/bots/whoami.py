"""Reports its identity and limits as the jail sees them (there is no /proc to read)."""

import ctypes
import os
import resource
import socket


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def act(observation):
    limits = {name: resource.getrlimit(getattr(resource, "RLIMIT_" + name))
              for name in ("AS", "CPU", "NPROC", "NOFILE", "FSIZE", "CORE")}
    libc = ctypes.CDLL(None, use_errno=True)
    header = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    data = (_CapData * 2)()
    libc.capget(ctypes.byref(header), data)
    caps = (data[1].effective << 32) | data[0].effective
    return {
        "uid": os.getuid(), "gid": os.getgid(), "pid": os.getpid(), "groups": os.getgroups(),
        "hostname": socket.gethostname(), "limits": limits,
        "caps": f"{caps:016x}",
        "no_new_privs": str(libc.prctl(39, 0, 0, 0, 0)),  # PR_GET_NO_NEW_PRIVS
        "seccomp": str(libc.prctl(21, 0, 0, 0, 0)),  # PR_GET_SECCOMP: 2 = filter mode
        "proc": os.path.exists("/proc"),
        "ifaces": sorted(os.listdir("/sys/class/net")) if os.path.exists("/sys") else None,
    }
