"""This package as the engine's local sandbox (the ``bluff_arena.sandbox`` plug-in).

``python -m engine play`` and the local tournament play bot files here by default; the
engine finds this object through its entry point (``engine.sandboxes``) and never imports
the sandbox by name.
"""

from __future__ import annotations

import os
from typing import Any

from engine.players import Player
from engine.sandboxes import PackagesState, PlayerMaker, SandboxMissing
from sandbox.availability import check_available
from sandbox.config import SandboxConfig
from sandbox.errors import SandboxUnavailable
from sandbox.limits import Limits
from sandbox.packages import install as install_packages
from sandbox.packages import missing
from sandbox.player import SandboxedPlayer

__all__ = ["SANDBOX", "LocalSandbox"]


class LocalSandbox:
    """Sandboxed players with the default limits, configured from the environment."""

    def player_maker(self) -> tuple[PlayerMaker, dict[str, Any]]:
        try:
            config = SandboxConfig.from_env()
            check_available(config)
        except SandboxUnavailable as exc:
            raise SandboxMissing(f"{exc} (or run trusted bots with --in-process)") from None
        limits = Limits()

        def make(name: str, path: str | os.PathLike[str]) -> Player:
            return SandboxedPlayer(name, path, limits=limits, config=config)

        return make, limits.time_limits()

    def packages(self, *, install: bool) -> PackagesState:
        config = SandboxConfig.from_env()
        if install:
            install_packages(config.python, config.packages_dir)
        return PackagesState(
            python=str(config.python),
            where=str(config.packages_dir),
            problem=missing(config.packages_dir),
        )


#: The object the entry point names.
SANDBOX = LocalSandbox()
