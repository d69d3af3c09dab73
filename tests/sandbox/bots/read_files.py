"""Attack: try to read host files whose paths come in info["paths"]; reports what it saw."""

import os

paths = []


def on_match_start(info):
    paths.extend(info.get("paths", []))


def act(observation):
    seen = {}
    for path in paths + ["/etc/passwd", "/etc/shadow", "/proc/1/environ", "/root", "/home"]:
        try:
            if os.path.isdir(path):
                seen[path] = "dir:" + ",".join(sorted(os.listdir(path))[:5])
            else:
                with open(path, "rb") as handle:
                    # NULs become "|": a reply may not carry NUL characters.
                    seen[path] = "read:" + handle.read(200).decode("latin-1").replace("\0", "|")
        except OSError as exc:
            seen[path] = type(exc).__name__
    return {"seen": seen, "root": sorted(os.listdir("/")), "cwd": os.getcwd()}
