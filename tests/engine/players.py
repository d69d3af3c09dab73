"""Players the engine's tests seat around a built-in bot to watch it."""

from __future__ import annotations

import gc
import time
from typing import Any

from engine import InProcessPlayer


class TimedPlayer(InProcessPlayer):
    """An in-process bot that keeps the CPU time of each of its decisions in ``times``.

    The garbage collector is off during a decision: a full collection of the test process's
    heap (the objects of every test run before in it) took 0.3 s once, and is not the bot's time.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.times: list[float] = []

    def act(self, observation: Any) -> dict[str, Any]:
        collecting = gc.isenabled()
        gc.disable()
        try:
            began = time.thread_time()
            action = super().act(observation)
            self.times.append(time.thread_time() - began)
        finally:
            if collecting:
                gc.enable()
        return action


class WrappedPlayer:
    """A seat that passes every call it does not define itself to ``inner``, an in-process
    bot: a test's wrapper defines the calls it watches or changes."""

    trusted = True
    last_move_late = False

    def __init__(self, inner: InProcessPlayer) -> None:
        self.inner = inner
        self.name = inner.name

    def __getattr__(self, name: str) -> Any:
        if name == "inner":  # not set yet (a copy being made): no endless lookup
            raise AttributeError(name)
        return getattr(self.inner, name)
