"""Run an uploaded bot in an isolated process and talk to it one decision at a time.

Public surface::

    from sandbox import Limits, SandboxConfig, SandboxedPlayer, check_available

    check_available(SandboxConfig.from_env())      # one clear line if this host cannot
    player = SandboxedPlayer("alice", "uploads/alice/bot.py", limits=Limits())
    player.start(info); player.act(observation); player.close()

Layers (see ``docs/sandbox.md``): bubblewrap namespaces and a minimal read-only file
system (no /proc), an unprivileged uid, a seccomp deny-list, rlimits, a per-bot cgroup,
CPU-time and wall-clock limits with banks and a per-match wall-clock cap, SIGSTOP between
turns, and a capped JSON-lines protocol on dedicated pipes whose every message after start-up
is checked as the bot's claim. With ``SandboxConfig(prestart=N)`` (``ARENA_SANDBOX_PRESTART``)
a process keeps jails started ahead of need (``sandbox.pool``), each serving one bot once.
Standard library only (plus ``engine.players``); no Django, no Celery.
"""

from __future__ import annotations

from sandbox.availability import check_available, check_packages, limits_in_force
from sandbox.config import CGROUP_MODES, MODES, SandboxConfig
from sandbox.errors import SandboxError, SandboxUnavailable
from sandbox.limits import Limits
from sandbox.player import SandboxedPlayer

__all__ = [
    "CGROUP_MODES",
    "MODES",
    "Limits",
    "SandboxConfig",
    "SandboxError",
    "SandboxUnavailable",
    "SandboxedPlayer",
    "check_available",
    "check_packages",
    "limits_in_force",
]
