"""The pipeline benchmark's estimator: each pipeline run against the sequential runs around
it, so a drift of the machine's speed cancels and one spoilt run does not decide."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import tournament_speed as bench


def test_a_steady_drift_of_the_machine_cancels() -> None:
    # The machine slows by 10% a run; the pipeline is always 1.6 times as fast.
    speed = [1.0 + 0.1 * run for run in range(11)]  # S P S P ... S, one factor per run
    sequential = [4.0 * speed[run] for run in range(0, 11, 2)]
    pipeline = [4.0 / 1.6 * speed[run] for run in range(1, 11, 2)]
    assert bench.paired_ratio(sequential, pipeline) == pytest.approx(1.6)
    # The fastest run of each side comes from different moments: off by the drift.
    assert min(sequential) / min(pipeline) < 1.5


def test_one_spoilt_run_does_not_decide() -> None:
    sequential = [4.0, 4.0, 4.0, 4.0, 4.0, 4.0]
    pipeline = [2.5, 2.5, 4.0, 2.5, 2.5]  # a burst of the machine's own load in run 3
    assert bench.paired_ratio(sequential, pipeline) == pytest.approx(1.6)


def test_every_pipeline_run_needs_a_sequential_run_after_it() -> None:
    with pytest.raises(ValueError, match="longer"):
        bench.paired_ratio([4.0, 4.0], [2.5, 2.5])
