"""Whole matches through the engine's runner with sandboxed players."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from engine.players import FaultKind
from tests.sandbox.conftest import BOTS, FAST, REPO

engine = pytest.importorskip("engine")
RANDOM_BOT = REPO / "engine" / "games" / "lie21" / "bots" / "random_bot.py"
#: Moves of the built-in bots take microseconds; keep the suite's small limits otherwise.
MATCH_LIMITS = dataclasses.replace(FAST, move_timeout_s=1.0, time_bank_s=1.0)


def beside_random_bot(bot_file: str, directory: Path) -> Path:
    """A directory bot: ``bot_file`` as bot.py, with the built-in random bot next to it."""
    directory.mkdir()
    shutil.copy(BOTS / bot_file, directory / "bot.py")
    shutil.copy(RANDOM_BOT, directory / "random_bot.py")
    return directory


def test_sandboxed_match_plays_exactly_like_the_in_process_one(sandbox):
    sandboxed = engine.play_match(
        "lie21",
        [
            sandbox(RANDOM_BOT, name="a", limits=MATCH_LIMITS),
            sandbox(RANDOM_BOT, name="b", limits=MATCH_LIMITS),
        ],
        seed=11,
        record_timing=False,
    )
    in_process = engine.play_match(
        "lie21",
        [engine.InProcessPlayer("a", RANDOM_BOT), engine.InProcessPlayer("b", RANDOM_BOT)],
        seed=11,
        record_timing=False,
    )
    assert sandboxed.error is None
    assert sandboxed.replay == in_process.replay


def test_bot_importing_the_engine_to_tamper_cannot_change_the_game(sandbox, tmp_path):
    # The tamperer plays exactly like the random bot; if its tampering had any effect the
    # match would differ from the same match between two untouched random bots.
    bot = beside_random_bot("engine_tamper.py", tmp_path / "tamperer")
    tamperer = sandbox(bot, name="a", limits=MATCH_LIMITS)
    result = engine.play_match(
        "lie21",
        [tamperer, sandbox(RANDOM_BOT, name="b", limits=MATCH_LIMITS)],
        seed=5,
        record_timing=False,
    )
    reference = engine.play_match(
        "lie21",
        [engine.InProcessPlayer("a", RANDOM_BOT), engine.InProcessPlayer("b", RANDOM_BOT)],
        seed=5,
        record_timing=False,
    )
    assert result.error is None
    assert result.replay == reference.replay
    report = tamperer.output()
    assert "('engine', 'ModuleNotFoundError')" in report
    assert "('modules', [])" in report
    assert "('rigged', 0)" in report


def test_bot_that_plays_five_games_then_crashes_loses_with_a_crash(sandbox, tmp_path):
    options = {"target": 99, "sweep_at": 999}  # no early end: the match reaches game six
    bot = beside_random_bot("five_then_crash.py", tmp_path / "crasher")
    crasher = sandbox(bot, name="crasher", limits=MATCH_LIMITS)
    result = engine.play_match(
        "lie21",
        [crasher, sandbox(RANDOM_BOT, name="random", limits=MATCH_LIMITS)],
        seed=3,
        options=options,
    )
    assert result.games_played == 5
    assert result.winner == 1
    assert result.reason == "fault"
    error = result.error
    assert (error.seat, error.kind, error.game) == (0, FaultKind.CRASH, 6)
    assert error.detail == "the bot raised RuntimeError in act()"
    assert "crashing after five games" in error.private
    assert "crashing after five games" not in str(result.replay)
