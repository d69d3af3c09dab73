"""Running a *trusted* bot inside this process: built-in bots, benchmarks, quick local tests.

No isolation at all: the bot can do anything this process can. Uploaded bots always run in
``sandbox.SandboxedPlayer``. What this player does offer is the same bot API, the same
fault kinds and (after the fact, since a running call cannot be interrupted) the same time
rules, so a bot behaves here as it will in the arena.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import sys
import time
import traceback
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

from engine.botfiles import ENTRY_FILE
from engine.game import MATCH_HOOKS
from engine.players import BotFault, FaultKind

__all__ = ["InProcessPlayer"]

_module_ids = itertools.count()
# Compiled bot code by path: a benchmark plays thousands of matches with the same two bot
# files, and compiling them (or even a stat to see they changed) costs more than a game.
# A bot file edited while this process runs is therefore not reloaded.
_code_cache: dict[str, CodeType] = {}
_OUTPUT_CAP = 64 * 1024
#: The sys module's namespace: ``act`` swaps the standard streams in it.
_SYS = vars(sys)


def _compiled(path: str) -> CodeType:
    code = _code_cache.get(path)
    if code is None:
        with open(path, "rb") as handle:
            code = _code_cache[path] = compile(handle.read(), path, "exec")
    return code


class _CappedBuffer(io.StringIO):
    """Keeps the first ``_OUTPUT_CAP`` characters a bot prints and counts the rest."""

    dropped = 0

    def write(self, text: str) -> int:
        room = _OUTPUT_CAP - self.tell()
        if room > 0:
            super().write(text[:room])
        self.dropped += max(0, len(text) - max(room, 0))
        return len(text)


class InProcessPlayer:
    """A bot file (or a directory with ``bot.py``) loaded as a module in this process."""

    trusted = True  # in-process means trusted code: the rules check its actions directly

    def __init__(
        self,
        name: str,
        bot_path: str | Path,
        *,
        move_timeout_s: float | None = None,
        time_bank_s: float = 0.0,
        capture_output: bool = True,
    ) -> None:
        path = os.fspath(bot_path)  # plain strings: Path objects cost more than a whole move
        self.name = name
        self._path = path if path.endswith(".py") else os.path.join(path, ENTRY_FILE)
        self._move_timeout_s = move_timeout_s
        self._bank_s = time_bank_s
        self._buffer = _CappedBuffer() if capture_output else None
        self._module: ModuleType | None = None
        self._act: Any = None
        self._modules_before: frozenset[str] = frozenset()
        self.hooks: frozenset[str] = frozenset()
        self.last_move_late = False
        self._taken = 0  # characters handed out by take_output(); -1 once past the cap

    def start(self, info: Mapping[str, Any], hooks: Sequence[str] = MATCH_HOOKS) -> None:
        module = ModuleType(f"_arena_bot_{next(_module_ids)}")
        module.__file__ = self._path
        code = self._guard("import", _compiled, self._path)
        bot_dir = os.path.dirname(self._path)
        self._modules_before = frozenset(sys.modules)
        sys.path.insert(0, bot_dir)  # so a zipped bot can import its sibling modules
        try:
            self._guard("import", exec, code, module.__dict__)
        finally:
            with contextlib.suppress(ValueError):
                sys.path.remove(bot_dir)
        act = getattr(module, "act", None)
        if not callable(act):
            name = os.path.basename(self._path)  # the author's file, as tracebacks name it
            raise BotFault(FaultKind.CRASH, f"{name} defines no act() function")
        self._module, self._act = module, act
        namespace = module.__dict__
        self.hooks = frozenset([h for h in hooks if callable(namespace.get(h))])
        if "on_match_start" in self.hooks:
            self._guard("on_match_start", module.on_match_start, dict(info))

    def act(self, observation: Mapping[str, Any]) -> dict[str, Any]:
        # The hot path of every in-process match: _guard's work written out inline.
        # The streams are swapped as items of sys's namespace (what setting sys.stdout
        # does), which CPython 3.11 runs as specialised dict stores: a module attribute's
        # store is not specialised, and four of them were a sixth of this call's cost.
        buffer = self._buffer
        if buffer is not None:
            streams = _SYS
            saved = streams["stdout"], streams["stderr"]
            streams["stdout"] = streams["stderr"] = buffer
        timed = self._move_timeout_s is not None
        began = time.thread_time() if timed else 0.0
        try:
            action = self._act(observation)
        except MemoryError:
            raise BotFault(FaultKind.MEMORY, "the bot ran out of memory in act") from None
        except (Exception, SystemExit) as exc:
            raise self._crash("act", exc) from None
        finally:
            if buffer is not None:
                streams["stdout"], streams["stderr"] = saved
        if timed:
            self._charge(time.thread_time() - began)
        if type(action) is not dict:
            raise BotFault(
                FaultKind.BAD_OUTPUT, f"act() returned {type(action).__name__}, not a dict"
            )
        return action

    def notify(self, hook: str, payload: Mapping[str, Any]) -> None:
        if hook in self.hooks and self._module is not None:
            began = time.thread_time()
            self._guard(hook, getattr(self._module, hook), payload)
            self._charge(time.thread_time() - began)

    def close(self) -> None:
        self._module = self._act = None
        # A zipped bot's sibling modules went into sys.modules when it imported them: drop
        # them, so the next match loads them fresh (and another bot does not find them).
        # Only modules that appeared since the bot was loaded: the caller's own script and
        # modules may live in the same folder as the bot.
        # The set difference is taken in C: a Python loop over every loaded module cost a
        # good part of a whole in-process match.
        bot_dir = os.path.dirname(os.path.abspath(self._path)) + os.sep
        for name in sys.modules.keys() - self._modules_before:
            origin = getattr(sys.modules.get(name), "__file__", None) or ""
            if origin.startswith(bot_dir):
                del sys.modules[name]

    def output(self) -> str:
        buffer = self._buffer
        if buffer is None:
            return ""
        if buffer.dropped:
            more = f"{buffer.dropped} more characters were dropped"
            return f"{buffer.getvalue()}\n[output truncated: {more}]\n"
        return buffer.getvalue()

    def take_output(self) -> str:
        """What the bot printed since the last call (within the cap), for per-step logs.

        The call that first finds the cap reached ends with a marker; later ones are empty.
        """
        buffer = self._buffer
        if buffer is None or self._taken < 0:
            return ""
        text = buffer.getvalue()
        new, self._taken = text[self._taken :], len(text)
        if buffer.dropped:
            self._taken = -1  # marked: nothing more will be kept
            cap = f"the bot's output reached its {_OUTPUT_CAP}-character cap for the match"
            return f"{new}\n[output truncated: {cap}; the rest is dropped]\n"
        return new

    def _charge(self, used_s: float) -> None:
        """Draw an overrun from the time bank; past the bank the bot has timed out."""
        limit = self._move_timeout_s
        if limit is None or used_s <= limit:
            self.last_move_late = False
            return
        self.last_move_late = True
        self._bank_s -= used_s - limit
        if self._bank_s < 0:
            raise BotFault(
                FaultKind.TIMEOUT,
                f"a decision took {used_s:.2f} s of CPU (limit {limit:g} s) "
                "and the time bank is spent",
            )

    def _guard(self, what: str, func: Any, *args: Any) -> Any:
        buffer = self._buffer
        if buffer is not None:  # swapped by hand: contextlib costs more than a whole move
            saved = sys.stdout, sys.stderr
            sys.stdout = sys.stderr = buffer
        try:
            return func(*args)
        except MemoryError:
            raise BotFault(FaultKind.MEMORY, f"the bot ran out of memory in {what}") from None
        except (Exception, SystemExit) as exc:
            raise self._crash(what, exc) from None
        finally:
            if buffer is not None:
                sys.stdout, sys.stderr = saved

    def _crash(self, what: str, exc: BaseException) -> BotFault:
        """The fault for an exception the bot raised; its traceback is for the owner only."""
        trace = "".join(traceback.format_exception(exc, limit=-20))
        if self._buffer is not None:
            self._buffer.write(trace)
        return BotFault(
            FaultKind.CRASH, f"the bot raised {type(exc).__name__} in {what}", private=trace
        )
