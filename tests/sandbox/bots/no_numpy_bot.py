"""A bot that does not import numpy: it must not get it loaded for free, nor pay for it."""

import sys


def act(observation):
    return {"numpy_loaded": "numpy" in sys.modules, "modules": len(sys.modules)}
