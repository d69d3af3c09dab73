"""A bot that imports numpy (one of engine.botpackages), computes with it, and probes what the
package directory lets it do: each observation names one thing to try."""

import os
import sys

import numpy as np


def act(observation):
    what = observation.get("try", "compute")
    if what == "compute":
        a = np.arange(12, dtype=np.float64).reshape(3, 4)
        product = a @ a.T  # through OpenBLAS
        return {
            "sum": float(product.sum()),
            "eig": round(float(np.linalg.eigvalsh(product).max()), 6),
            "version": np.__version__,
            "file": np.__file__,
            "threads": os.environ.get("OPENBLAS_NUM_THREADS"),
            "environ": sorted(os.environ),
            "path": sys.path[1:],
        }
    if what == "write":  # into the shared package directory: must be refused
        with open(os.path.join(os.path.dirname(np.__file__), "__init__.py"), "a") as handle:
            handle.write("# tampered\n")
        return {"wrote": True}
    if what == "memory":  # numpy's own allocation under the memory limit
        np.ones(observation["bytes"] // 8)
        return {"allocated": True}
    return {"unknown": what}
