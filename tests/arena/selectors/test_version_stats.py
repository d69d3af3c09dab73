"""Per-version statistics and chances, from real recorded matches."""

from __future__ import annotations

import pytest

from arena.selectors.stats import version_chances, version_stats
from tests.arena import bots
from tests.arena.recorded import match_played

pytestmark = pytest.mark.django_db


def test_a_versions_stats_come_from_its_matches_and_replays(make_bot, settings):
    mine, theirs = make_bot("mine", bots.RANDOM), make_bot("theirs", bots.RANDOM)
    versions = [mine.active_version, theirs.active_version]
    for seed in range(3):
        match_played(
            versions if seed % 2 else versions[::-1], seed=seed, bots=["heuristic", "random"]
        )
    stats = version_stats(version=mine.active_version)
    assert stats.matches == 3 and stats.sample == 3
    assert stats.faults == {} and stats.fault_rate == 0.0
    assert 1 <= stats.mean_place <= 2
    assert stats.decisions > 0 and 0 <= stats.decision_ms_mean <= stats.decision_ms_max
    assert {"bluff_rate", "challenge_rate", "challenge_success"} <= set(stats.game_stats)
    chances = version_chances(version=mine.active_version)
    assert [c.bot_name for c in chances["met"]] == ["theirs"]
    assert chances["met"][0].met == 3
    assert 0 < chances["met"][0].probability < 1
    assert [c.bot_name for c in chances["top"]] == ["theirs"]
