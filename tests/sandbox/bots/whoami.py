"""Reports its identity and limits as the jail sees them."""

import os
import resource
import socket


def act(observation):
    limits = {name: resource.getrlimit(getattr(resource, "RLIMIT_" + name))
              for name in ("AS", "CPU", "NPROC", "NOFILE", "FSIZE", "CORE")}
    with open("/proc/self/status") as handle:
        status = {k: v.strip() for k, _, v in (line.partition(":") for line in handle)}
    return {
        "uid": os.getuid(), "gid": os.getgid(), "pid": os.getpid(), "groups": os.getgroups(),
        "hostname": socket.gethostname(), "limits": limits,
        "caps": status.get("CapEff"), "no_new_privs": status.get("NoNewPrivs"),
        "seccomp": status.get("Seccomp"), "filters": status.get("Seccomp_filters"),
        "procs": sorted(p for p in os.listdir("/proc") if p.isdigit()),
        "ifaces": sorted(os.listdir("/sys/class/net")) if os.path.exists("/sys") else None,
    }
