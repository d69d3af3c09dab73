"""The third-party packages a bot may import: the one list, read by every part that cares.

A bot imports the standard library and these packages, at these versions, and nothing
else. The list is enforced the same way on an author's laptop and in the arena:

* the upload check (:mod:`engine.botfiles`, run by the arena on every upload and by the
  local runner on every bot file) refuses a bot whose code imports anything else
  unconditionally, with one line naming the import;
* the sandbox (:mod:`sandbox.packages`) installs exactly these versions for its own
  interpreter (``make run``, ``make test`` and the Docker image do it; authors run
  ``python -m engine packages --install``) and shows that directory, read-only, to every bot;
  nothing else outside the standard library is visible in the jail.

docs/bot-api.md lists them (a test keeps it in step with this module).
"""

from __future__ import annotations

__all__ = ["BOT_PACKAGES", "allowed_names", "requirements", "summary"]

#: Import name -> pinned version (the PyPI name is the import name for every package here).
BOT_PACKAGES: dict[str, str] = {
    "numpy": "2.4.6",
}


def requirements() -> list[str]:
    """The pins as pip requirements: ``["numpy==2.4.6"]``."""
    return [f"{name}=={version}" for name, version in sorted(BOT_PACKAGES.items())]


def allowed_names() -> frozenset[str]:
    """Top-level module names a bot may import besides the standard library."""
    return frozenset(BOT_PACKAGES)


def summary() -> str:
    """ "the standard library and numpy 2.4.6", for messages to authors."""
    pinned = ", ".join(f"{name} {version}" for name, version in sorted(BOT_PACKAGES.items()))
    return f"the standard library and {pinned}" if pinned else "the standard library only"
