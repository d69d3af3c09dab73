"""Attack: import the engine (to tamper with the game), the project, third-party packages."""

import importlib
import sys

NAMES = ["engine", "engine.players", "arena", "workers", "sandbox", "django", "celery",
         "seccomp", "redis", "psycopg", "approved_pkg"]


def act(observation):
    sys.path.extend(["/work/main", "/usr/lib/python3/dist-packages",
                     "/usr/local/lib/python3.11/dist-packages"])
    imported = {}
    for name in NAMES:
        try:
            module = importlib.import_module(name)
            imported[name] = getattr(module, "__file__", "?") or "?"
        except Exception as exc:  # noqa: BLE001
            imported[name] = type(exc).__name__
    import json  # the standard library is fine
    return {"imported": imported, "json": json.dumps([1])}
