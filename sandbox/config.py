"""How this host runs sandboxes: operator settings, read from ``ARENA_SANDBOX_*``.

Limits say what a bot may use; this says *how* the host isolates it (which interpreter,
which uid, which cgroup). It is per deployment, not per match, so it comes from the
environment of the worker (see ``docs/sandbox.md`` for every variable).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping
from dataclasses import dataclass

from sandbox.errors import SandboxUnavailable

__all__ = ["CGROUP_MODES", "MODES", "SandboxConfig"]

#: ``bubblewrap``: the full sandbox. ``unsafe``: the bot runs as a plain child process with
#: rlimits only, for local development; every run prints a warning.
MODES = ("bubblewrap", "unsafe")
#: ``auto``: use a cgroup when the host lets us create one, else rlimits only.
#: ``required``: refuse to run without one. ``off``: never use one.
CGROUP_MODES = ("auto", "required", "off")

_SWITCH = {"on": True, "1": True, "true": True, "yes": True}
_SWITCH |= {"off": False, "0": False, "false": False, "no": False}
_DEBIAN_PYTHONS = ("/usr/bin/python3.11", "/usr/bin/python3")
_NOBODY = 65534


def _default_python() -> str:
    # Debian's real interpreter starts in ~10 ms. sys.executable may be a venv or pyenv
    # build that lives under a home directory the bot's uid cannot read: only a fallback.
    for candidate in _DEBIAN_PYTHONS:
        if os.path.exists(candidate):
            return candidate
    return os.path.realpath(sys.executable)


def _default_bwrap() -> str:
    return shutil.which("bwrap") or "/usr/bin/bwrap"


@dataclass(frozen=True, slots=True)
class SandboxConfig:
    """Host-level sandbox settings. Build it with :meth:`from_env` in workers."""

    #: One of :data:`MODES`.
    mode: str = "bubblewrap"
    #: Interpreter that runs bots (its stdlib, and the packages below, are all a bot sees).
    python: str = ""
    #: The bubblewrap binary.
    bwrap: str = ""
    #: Host uid/gid the bot runs as when the worker runs as root (never root itself). A
    #: non-root worker cannot change uid: its bots run as the worker's uid, confined by
    #: their own user namespace.
    bot_uid: int = _NOBODY
    bot_gid: int = _NOBODY
    #: Where the packages every bot may import (``engine.botpackages``: numpy) are
    #: installed for ``python``; "" = ``sandbox.packages.default_dir(python)``. Shown
    #: read-only at ``sandbox.jail.PACKAGES_DIR`` and put on the bot's ``sys.path`` when it
    #: holds a finished install (the arena's workers refuse to start without one).
    packages_dir: str = ""
    #: Directories of operator-approved third-party packages, made visible read-only at
    #: the same path and appended to the bot's ``sys.path``. None by default.
    extra_python_paths: tuple[str, ...] = ()
    #: One of :data:`CGROUP_MODES`.
    cgroup: str = "auto"
    #: Where per-bot cgroups are made, as a path inside the cgroup hierarchy: relative paths
    #: (the default ``arena-sandbox``, or ``../bots``) start at the worker's own cgroup,
    #: absolute ones at the hierarchy's root.
    cgroup_root: str = "arena-sandbox"
    #: Directory for each bot's private copy of its files ("" = the system temp dir). It
    #: must be traversable by ``bot_uid``.
    work_dir: str = ""
    #: Microseconds the host busy-reads for a reply before it sleeps. Spinning saves the
    #: wake-up latency of a sleeping host (most of a fast round trip), at the price of a
    #: core. Worth it for one match at a time; a worker running as many matches as it has
    #: cores does better without (the arena's workers use 0 unless this is set).
    spin_us: int = 200
    #: Jails a process keeps started ahead of need (``sandbox.pool``), per kind of jail: a
    #: bot then starts in a jail launched while the previous match was played. 0 (the
    #: default) starts every jail when its bot starts; the arena's workers use 6 (the
    #: largest table) unless this is set.
    prestart: int = 0
    #: Run each bot on the CPU its host thread is on when the bot starts (when the host
    #: may run on more than one): a match is a strict ping-pong, host and bots taking
    #: turns (every bot is stopped while it is not its turn), so it never needs two
    #: cores, and on one it hands over without waking another CPU. Off leaves the bots
    #: wherever the scheduler puts them. See docs/sandbox.md, "Decisions".
    colocate: bool = True

    def __post_init__(self) -> None:
        if not self.python:
            object.__setattr__(self, "python", _default_python())
        if not self.bwrap:
            object.__setattr__(self, "bwrap", _default_bwrap())
        if not self.packages_dir:
            from sandbox.packages import default_dir

            object.__setattr__(self, "packages_dir", str(default_dir(self.python)))
        object.__setattr__(self, "extra_python_paths", tuple(self.extra_python_paths))
        if self.mode not in MODES:
            raise ValueError(f"sandbox mode must be one of {', '.join(MODES)}, not {self.mode!r}")
        if self.cgroup not in CGROUP_MODES:
            raise ValueError(
                f"sandbox cgroup mode must be one of {', '.join(CGROUP_MODES)}, not {self.cgroup!r}"
            )
        if self.spin_us < 0:
            raise ValueError(f"spin_us must be 0 or more, not {self.spin_us}")
        if self.prestart < 0:
            raise ValueError(f"prestart must be 0 or more, not {self.prestart}")
        for path in (*self.extra_python_paths, self.packages_dir):
            if not os.path.isabs(path):
                raise ValueError(f"extra python path must be absolute: {path!r}")

    @property
    def unsafe(self) -> bool:
        return self.mode == "unsafe"

    @property
    def packages_installed(self) -> bool:
        """Whether ``packages_dir`` holds a finished install of the pinned bot packages
        (read at each jail start: a stat and a small read)."""
        from sandbox.packages import missing

        return missing(self.packages_dir) is None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> SandboxConfig:
        """Read ``ARENA_SANDBOX_*`` variables; unset ones keep their defaults.

        A malformed value raises :class:`SandboxUnavailable` naming the variable, so a
        worker refuses to start instead of running bots with a setting it misread.
        """
        env = os.environ if environ is None else environ
        kwargs: dict[str, object] = {}
        text = {
            "ARENA_SANDBOX_MODE": "mode",
            "ARENA_SANDBOX_PYTHON": "python",
            "ARENA_SANDBOX_BWRAP": "bwrap",
            "ARENA_SANDBOX_CGROUP": "cgroup",
            "ARENA_SANDBOX_CGROUP_ROOT": "cgroup_root",
            "ARENA_SANDBOX_WORK_DIR": "work_dir",
            "ARENA_SANDBOX_PACKAGES_DIR": "packages_dir",
        }
        for var, field in text.items():
            value = env.get(var, "").strip()
            if value:
                kwargs[field] = value.lower() if field in {"mode", "cgroup"} else value
        numeric = {
            "ARENA_SANDBOX_UID": "bot_uid",
            "ARENA_SANDBOX_GID": "bot_gid",
            "ARENA_SANDBOX_SPIN_US": "spin_us",
            "ARENA_SANDBOX_PRESTART": "prestart",
        }
        for var, field in numeric.items():
            value = env.get(var, "").strip()
            if value:
                try:
                    kwargs[field] = int(value)
                except ValueError:
                    raise SandboxUnavailable(f"{var}={value!r} is not a whole number") from None
        switch = env.get("ARENA_SANDBOX_COLOCATE", "").strip().lower()
        if switch:
            if switch not in _SWITCH:
                raise SandboxUnavailable(
                    f"ARENA_SANDBOX_COLOCATE={switch!r} is not one of on, off, 1, 0, true, false"
                )
            kwargs["colocate"] = _SWITCH[switch]
        paths = env.get("ARENA_SANDBOX_EXTRA_PYTHON_PATHS", "").strip()
        if paths:
            kwargs["extra_python_paths"] = tuple(p for p in paths.split(os.pathsep) if p)
        try:
            return cls(**kwargs)  # type: ignore[arg-type]
        except ValueError as exc:
            raise SandboxUnavailable(f"bad ARENA_SANDBOX_* setting: {exc}") from None
