"""Errors of the sandbox itself, as opposed to faults of the bot it runs.

A bot's failure is always an ``engine.players.BotFault`` (the bot's seat loses). These
exceptions mean the *platform* could not run the bot at all: the match must not be scored
against either bot, and an operator has something to fix.
"""

from __future__ import annotations

__all__ = ["SandboxError", "SandboxUnavailable"]


class SandboxError(RuntimeError):
    """The sandbox failed for a reason that is not the bot's fault (e.g. bwrap died)."""


class SandboxUnavailable(SandboxError):
    """This host cannot run sandboxed bots; ``str(error)`` is one line saying what to do."""
