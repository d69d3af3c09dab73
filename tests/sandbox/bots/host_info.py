"""Attack: learn about the host: mount sources, kernel config and symbols, hardware."""

import ctypes

PATHS = [
    "/proc/self/mountinfo", "/proc/1/mountinfo", "/proc/self/mounts", "/proc/config.gz",
    "/proc/kallsyms", "/proc/modules", "/proc/cmdline", "/proc/version", "/proc/cpuinfo",
    "/proc/meminfo", "/proc/self/environ", "/proc/sys/kernel/hostname",
    "/sys/kernel/notes", "/sys/class/net", "/boot", "/etc/hostname",
]


def act(observation):
    seen = {}
    for path in PATHS:
        try:
            with open(path, "rb") as handle:
                # NULs become "|": a reply may not carry NUL characters.
                seen[path] = handle.read(2000).decode("latin-1").replace("\0", "|")
        except OSError as exc:
            seen[path] = type(exc).__name__
    # statmount(2)/listmount(2) (Linux 6.8) name each mount's source path without /proc.
    libc = ctypes.CDLL(None, use_errno=True)
    request = (ctypes.c_uint64 * 4)(32, 0, 0, 0)  # size, mount id, params, spare
    buffer = ctypes.create_string_buffer(65536)
    calls = {}
    for name, number in (("statmount", 457), ("listmount", 458)):
        result = libc.syscall(number, ctypes.byref(request), buffer, 512, 0)
        calls[name] = [result, ctypes.get_errno()]
    return {"seen": seen, "calls": calls}
