"""The seat at the table: what the match runner needs from anything that plays.

A *player* wraps one bot for one match. The runner never talks to bot code directly; it
talks to a :class:`Player`, which may run the bot in this process (trusted built-in bots,
benchmarks) or in a sandboxed process (`sandbox.SandboxedPlayer`, the default for anything
uploaded). Both speak the same bot API (see ``docs/bot-api.md``): the observation goes in as
a JSON-able dict and the action comes back as a JSON-able dict.

Anything a bot does wrong surfaces as a :class:`BotFault`, never as another exception, so
the runner can turn it into a lost match with a reason instead of a crash.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from engine.game import MATCH_HOOKS

__all__ = ["MATCH_HOOKS", "BotFault", "FaultKind", "Player"]


class FaultKind(enum.StrEnum):
    """Why a bot lost a match without finishing it.

    The values are stable strings: they appear in replays, the API and the CLI summary.
    """

    TIMEOUT = "timeout"  # over its CPU or wall-clock limit with the matching bank spent
    CRASH = "crash"  # raised an exception, exited, or failed to import
    MEMORY = "memory"  # hit its memory limit
    ILLEGAL_MOVE = "illegal_move"  # a well-formed message whose move breaks the rules
    BAD_OUTPUT = "bad_output"  # act() returned a non-dict, non-JSON, oversize or NUL text
    PROTOCOL = "protocol"  # a malformed, forged, out-of-order message, or a closed channel
    FORBIDDEN = "forbidden"  # a refused system call or access (network, exec, ...)


class BotFault(Exception):
    """A bot failed; the bot's seat loses the match.

    ``detail`` is a short, public explanation written by the platform (it goes into the
    public replay). ``private`` holds what only the bot's owner may see, such as the bot's
    own traceback; it never goes into a replay.
    """

    def __init__(self, kind: FaultKind | str, detail: str, *, private: str = "") -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = FaultKind(kind)
        self.detail = detail
        self.private = private


@runtime_checkable
class Player(Protocol):
    """One bot in one match. Implementations: ``InProcessPlayer``, ``sandbox.SandboxedPlayer``.

    Life cycle: ``start`` once, then ``act`` whenever the bot must move and ``notify`` for
    the hooks it defined, then ``close`` at least once (also after a fault; a second call
    does nothing). ``start``, ``act`` and ``notify`` raise :class:`BotFault` on any failure
    of the bot.

    ``trusted`` players (in-process, trusted code) skip the action schema check unless the
    rules refuse an action. ``last_move_late`` says whether the last ``act`` ran over its
    per-move time (drawing on the time bank), for games whose rules replace a late move.
    """

    name: str
    trusted: bool
    last_move_late: bool

    def start(self, info: Mapping[str, Any], hooks: Sequence[str] = MATCH_HOOKS) -> None:
        """Load the bot and deliver ``on_match_start(info)`` if the bot defines it.

        ``hooks`` are the hooks the game offers (the match's and the game's own); the bot
        is asked for those of them it defines.
        """

    def act(self, observation: Mapping[str, Any]) -> dict[str, Any]:
        """Ask the bot for an action; returns the bot's reply, not yet checked by the rules."""

    def notify(self, hook: str, payload: Mapping[str, Any]) -> None:
        """Deliver an optional hook (``on_game_end``, a game's own) if the bot defines it."""

    def close(self) -> None:
        """Release the bot (stop its process). Never raises."""

    def output(self) -> str:
        """The bot's own captured stdout/stderr (capped). Private to the bot's owner."""

    def take_output(self) -> str:
        """What the bot printed since the last call: the runner files it under the step."""
