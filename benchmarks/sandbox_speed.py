"""How fast the sandbox is, next to running the same bot in this process.

Prints exactly these lines (medians)::

    sandbox_startup: N ms      jail + interpreter + import bot + on_match_start (random bot)
    sandbox_startup_numpy: N ms  the same for the random bot with ``import numpy`` on top
    sandbox_decision: N us     one act() round trip, freeze/thaw included
    inprocess_decision: N us   the same act() in this process
    sandbox_match: N ms        a whole Lie 21 best-of-seven, random vs random, both sandboxed
    inprocess_match: N ms      the same match in this process

Targets: startup <= 50 ms, decision <= 150 us, sandboxed match <= 100 ms; a bot that does
not import numpy pays nothing for its being installed (compare ``sandbox_startup`` with the
packages directory missing: ``ARENA_SANDBOX_PACKAGES_DIR=/nonexistent``). The observations
are real ones, recorded from an in-process match. Run: ``.venv/bin/python
benchmarks/sandbox_speed.py`` (as root or not; ARENA_SANDBOX_* settings apply).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sandbox import SandboxConfig, SandboxedPlayer, SandboxUnavailable, check_available

GAME = "lie21"
STARTS = 40
DECISIONS = 5000
MATCHES = 40


def _random_bot() -> Path:
    return Path(__file__).resolve().parents[1] / "engine/games/lie21/bots/random_bot.py"


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1e3


def bench_startup(config: SandboxConfig, bot: Path | None = None) -> float:
    samples = []
    for index in range(STARTS):
        player = SandboxedPlayer(f"bench-{index}", bot or _random_bot(), config=config)
        began = time.perf_counter()
        player.start({"seed": index, "seat": 0})
        samples.append(time.perf_counter() - began)
        player.close()
    return _median_ms(samples)


#: Used only if the engine's runner is missing: a Lie 21 observation of the usual shape.
SYNTHETIC = {
    "hand": ["AS", "7H", "QD", "2C", "9S", "KH", "5D"],
    "role": "liar",
    "trump_suit": "S",
    "game_number": 1,
    "match_points": [0, 0],
    "games": [],
}


def record_observations(engine: Any) -> list[dict[str, Any]]:
    """Real observations of the random bot's seat, from in-process matches."""
    seen: list[dict[str, Any]] = []

    class Recorder(engine.InProcessPlayer):
        def act(self, observation: Any) -> dict[str, Any]:
            seen.append(observation)
            return super().act(observation)

    seed = 0
    while len(seen) < 200:
        players = [Recorder("a", _random_bot()), engine.InProcessPlayer("b", _random_bot())]
        engine.play_match(GAME, players, seed=seed)
        seed += 1
    return seen


def bench_decisions(player: Any, observations: list[dict[str, Any]]) -> float:
    player.start({"seed": 1, "seat": 0})
    samples = []
    try:
        for index in range(DECISIONS):
            observation = observations[index % len(observations)]
            began = time.perf_counter()
            player.act(observation)
            samples.append(time.perf_counter() - began)
    finally:
        player.close()
    return statistics.median(samples) * 1e6


def bench_match(engine: Any, make_player: Any) -> float:
    samples = []
    for seed in range(MATCHES):
        players = [make_player("a"), make_player("b")]
        began = time.perf_counter()
        result = engine.play_match(GAME, players, seed=seed)
        samples.append(time.perf_counter() - began)
        if result.error is not None:
            raise SystemExit(f"benchmark match {seed} failed: {result.error}")
    return _median_ms(samples)


def _engine() -> Any:
    """The engine package if its match runner and in-process player exist yet, else None."""
    try:
        import engine
    except ImportError:
        return None
    ready = hasattr(engine, "play_match") and hasattr(engine, "InProcessPlayer")
    return engine if ready else None


def main() -> None:
    config = SandboxConfig.from_env()
    try:
        check_available(config)
    except SandboxUnavailable as exc:
        raise SystemExit(f"sandbox unavailable: {exc}") from None
    engine = _engine()
    bot = _random_bot()

    print(f"sandbox_startup: {bench_startup(config):.1f} ms", flush=True)
    if config.packages_installed:
        with tempfile.TemporaryDirectory(prefix="bench-numpy-") as folder:
            numpy_bot = Path(folder) / "numpy_bot.py"
            numpy_bot.write_text("import numpy\n" + bot.read_text())
            startup = bench_startup(config, numpy_bot)
        print(f"sandbox_startup_numpy: {startup:.1f} ms", flush=True)
    else:
        print("note: bot packages not installed: sandbox_startup_numpy skipped", file=sys.stderr)
    observations = record_observations(engine) if engine else [SYNTHETIC]
    sandboxed = SandboxedPlayer("bench", bot, config=config)
    print(f"sandbox_decision: {bench_decisions(sandboxed, observations):.0f} us", flush=True)
    if engine is None:
        print(
            "note: engine.play_match/InProcessPlayer missing: other figures skipped",
            file=sys.stderr,
        )
        return
    in_process = engine.InProcessPlayer("bench", bot)
    print(f"inprocess_decision: {bench_decisions(in_process, observations):.1f} us", flush=True)
    sandbox_ms = bench_match(engine, lambda name: SandboxedPlayer(name, bot, config=config))
    print(f"sandbox_match: {sandbox_ms:.1f} ms", flush=True)
    inprocess_ms = bench_match(engine, lambda name: engine.InProcessPlayer(name, bot))
    print(f"inprocess_match: {inprocess_ms:.2f} ms", flush=True)


if __name__ == "__main__":
    main()
