"""Attack: look for the host's secrets everywhere the jail lets it look."""

import os

SKIP = ("/proc", "/sys", "/usr", "/dev")  # /dev/ptmx would block a read


def act(observation):
    texts = {"os.environ": repr(dict(os.environ))}
    for pid in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if pid.isdigit() or pid == "self":
            for name in ("environ", "cmdline"):
                try:
                    with open(f"/proc/{pid}/{name}", "rb") as handle:
                        texts[f"/proc/{pid}/{name}"] = handle.read().decode("latin-1")
                except OSError:
                    pass
    for top, dirs, files in os.walk("/"):
        dirs[:] = [d for d in dirs if os.path.join(top, d) not in SKIP]
        for name in files:
            path = os.path.join(top, name)
            try:
                with open(path, "rb") as handle:
                    texts[path] = handle.read(1 << 20).decode("latin-1")
            except OSError:
                pass
    needles = observation["needles"]
    found = {path: n for path, text in texts.items() for n in needles if n in text}
    try:
        with open("/proc/self/environ", "rb") as handle:
            raw_env = handle.read().decode("latin-1").replace("\0", "|")  # no NUL in a reply
    except OSError:
        raw_env = None
    return {"found": found, "looked_at": len(texts), "environ": dict(os.environ),
            "raw_environ": raw_env}
