"""The sandbox the local runner plays bot files in, found as a plug-in.

The engine says what it needs from a sandbox (:class:`LocalSandbox`) and imports none: the
distribution that provides one declares it in the ``bluff_arena.sandbox`` entry-point group
(the engine's own ``pyproject.toml`` names ``sandbox.local:SANDBOX``). So the layers point one
way, the sandbox importing the engine's player interface and never the reverse, and
``python -m engine play`` still plays bots in the sandbox by default.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from engine.entrypoints import group_entry_points
from engine.players import Player

__all__ = ["GROUP", "LocalSandbox", "PackagesState", "SandboxMissing", "local_sandbox"]

#: The entry-point group a sandbox registers under.
GROUP = "bluff_arena.sandbox"

#: Makes the player of one bot file: (name shown, path of the file) -> player.
PlayerMaker = Callable[[str, str | os.PathLike[str]], Player]


class SandboxMissing(RuntimeError):
    """Bots cannot be sandboxed on this host; the message is one line saying what to do."""


@dataclass(frozen=True, slots=True)
class PackagesState:
    """Where the sandbox's interpreter finds the packages bots may import, and what is wrong
    with them (None when they are all there)."""

    python: str
    where: str
    problem: str | None


class LocalSandbox(Protocol):
    """What the local runner and CLI use of a sandbox."""

    def player_maker(self) -> tuple[PlayerMaker, dict[str, Any]]:
        """A maker of sandboxed players and the time limits they enforce (recorded in every
        replay); raises :class:`SandboxMissing` when this host cannot sandbox bots."""
        ...

    def packages(self, *, install: bool) -> PackagesState:
        """The bot packages' state for the sandbox's interpreter, installing them first with
        ``install`` (RuntimeError with one line when that fails)."""
        ...


def local_sandbox() -> LocalSandbox:
    """The registered sandbox (the first of the group), or :class:`SandboxMissing`."""
    for point in group_entry_points(GROUP):
        try:
            sandbox: LocalSandbox = point.load()
        except ImportError as exc:
            raise SandboxMissing(
                f"the sandbox {point.value} could not be loaded ({exc}); "
                "run trusted bots with --in-process"
            ) from None
        return sandbox
    raise SandboxMissing(
        "no sandbox is installed (the bluff_arena.sandbox entry point); "
        "run trusted bots with --in-process"
    )
