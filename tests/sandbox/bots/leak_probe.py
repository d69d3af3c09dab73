"""Attack: leave something behind for the next bot, or look for what an earlier one left.

``act({"mode": "plant"})`` writes a file in /tmp, sets a variable, patches a standard
module and adds one of its own; ``act({"mode": "probe"})`` reports what it finds of those,
and what its jail holds.
"""

import json
import os
import sys
import types


def act(observation):
    if observation["mode"] == "plant":
        with open("/tmp/planted", "w") as handle:
            handle.write("from an earlier bot")
        os.environ["PLANTED"] = "1"
        json.PLANTED = True
        sys.modules["planted"] = types.ModuleType("planted")
        return {"planted": True}
    return {
        "tmp": sorted(os.listdir("/tmp")),
        "bot": sorted(os.listdir("/bot")),
        "env": dict(os.environ),
        "json_patched": hasattr(json, "PLANTED"),
        "module": "planted" in sys.modules,
        "pid": os.getpid(),
        "marker": observation.get("marker"),
    }
