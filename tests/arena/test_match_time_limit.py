"""The match task's time limit covers the longest a match can take with the bots' limits.

Issue 13, finding 2: a bot sleeping just under its per-call wall guard kept a match running
until the worker's soft time limit voided it. Each seat now has a wall-clock cap for the
match, and the task's limit is above what all seats together can take.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from arena.config import MATCH_OVERHEAD_S, ConfigError, largest_table, match_time_limit
from arena.services import validation
from arena.services.matches import match_limits
from engine.registry import GAMES
from workers.tasks import validate_version

ROOT = Path(__file__).resolve().parents[2]


def test_the_configured_task_limit_covers_the_largest_tables_wall_clock_bounds():
    seats = max(game.max_players for game in GAMES.values())
    assert seats == largest_table() == 6  # Liars
    bound = seats * match_limits().seat_wall_bound_s()
    assert bound + MATCH_OVERHEAD_S <= settings.CELERY_TASK_SOFT_TIME_LIMIT
    assert settings.CELERY_TASK_TIME_LIMIT > settings.CELERY_TASK_SOFT_TIME_LIMIT


def test_the_default_grows_with_the_bound_and_a_low_setting_is_refused(monkeypatch):
    monkeypatch.delenv("ARENA_MATCH_TIME_LIMIT_S", raising=False)
    assert match_time_limit(100.0) == 600  # the default already covers it
    assert match_time_limit(1000.0) == 2000 + MATCH_OVERHEAD_S
    monkeypatch.setenv("ARENA_MATCH_TIME_LIMIT_S", "2100")
    assert match_time_limit(1000.0) == 2100
    monkeypatch.setenv("ARENA_MATCH_TIME_LIMIT_S", "2000")
    with pytest.raises(ConfigError, match="below the 2030 s a match may take"):
        match_time_limit(1000.0)
    with pytest.raises(ConfigError, match=r"below the 6030 s .* \(6 bots x"):
        match_time_limit(1000.0, seats=6)


def test_a_match_wall_cap_the_time_limit_cannot_cover_stops_the_arena(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        DJANGO_SETTINGS_MODULE="arena.settings",
        DEBUG="1",
        ARENA_DATA_DIR=str(tmp_path),
        ARENA_MATCH_WALL_S="900",
        ARENA_MATCH_TIME_LIMIT_S="600",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert result.returncode != 0
    assert "ARENA_MATCH_TIME_LIMIT_S=600 is below" in result.stderr
    assert "ARENA_MATCH_WALL_S" in result.stderr


def test_validation_ends_within_its_task_limit():
    """Validation starts no match after its budget, and a match in progress ends within the
    candidate's wall-clock bound (only the candidate is sandboxed; the reference bot runs
    in-process), so a bot that sleeps gets a verdict before the task's limit voids it."""
    soft_limit = validate_version.soft_time_limit or settings.CELERY_TASK_SOFT_TIME_LIMIT
    bound = match_limits().seat_wall_bound_s()
    assert validation.VALIDATION_BUDGET_S + bound + 5 <= soft_limit
