"""Players the engine's tests seat around a built-in bot to watch it."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from engine import InProcessPlayer


class TimedPlayer(InProcessPlayer):
    """An in-process bot that keeps the CPU time of each of its decisions in ``times``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.times: list[float] = []

    def act(self, observation: Any) -> dict[str, Any]:
        began = time.thread_time()
        action = super().act(observation)
        self.times.append(time.thread_time() - began)
        return action


class WrappedPlayer:
    """A seat that passes every call to ``inner``, an in-process bot: a test's wrapper
    overrides the calls it watches or changes."""

    trusted = True
    last_move_late = False

    def __init__(self, inner: InProcessPlayer) -> None:
        self.inner = inner
        self.name = inner.name

    @property
    def hooks(self) -> Any:
        return self.inner.hooks

    def start(self, info: Mapping[str, Any], hooks: Any = ()) -> None:
        self.inner.start(info, hooks)

    def act(self, observation: Any) -> dict[str, Any]:
        return self.inner.act(observation)

    def notify(self, hook: str, payload: Any) -> None:
        self.inner.notify(hook, payload)

    def close(self) -> None:
        self.inner.close()

    def output(self) -> str:
        return self.inner.output()

    def take_output(self) -> str:
        return self.inner.take_output()
