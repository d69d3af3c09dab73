"""Validation against hostile bots (issue 13): a forged protocol message or a bot that
sleeps under every per-move limit gets a verdict (invalid, with a readable reason), never
an exception that leaves the version pending."""

from __future__ import annotations

import pytest

from arena.models import Bot
from arena.services.validation import version_validate
from tests.workers.conftest import version_add

pytestmark = pytest.mark.django_db

FORGED_FAULT = """
import os, sys

def act(observation):
    os.write(int(sys.orig_argv[-1]), b'{"t":"fault","kind":["crash"]}\\n')
    return {}
"""

SLEEPS_UNDER_THE_MOVE_LIMIT = """
import time

def act(observation):
    time.sleep(0.25)
    cards = observation["hand"][:3]
    if observation["role"] == "liar":
        return {"cards": cards, "face_up": 0}
    return {"cards": cards, "challenge": False}
"""


@pytest.fixture
def bot(owner) -> Bot:
    return Bot.objects.create(owner=owner, name="hostile", game="lie21")


def test_a_forged_fault_message_makes_the_version_invalid_not_pending(bot):
    version = version_validate(version_id=version_add(bot, FORGED_FAULT).pk)
    assert version.status == "invalid"
    assert version.validation_log.startswith("invalid: protocol during game 1")
    assert "malformed fault report" in version.validation_log


def test_a_bot_sleeping_under_the_move_limit_is_invalid_on_wall_clock_time(bot, settings):
    settings.ARENA_MOVE_WALL_S = 0.4
    settings.ARENA_WALL_BANK_S = 0.1
    settings.ARENA_MATCH_WALL_S = 1.0
    version = version_validate(version_id=version_add(bot, SLEEPS_UNDER_THE_MOVE_LIMIT).pk)
    assert version.status == "invalid"
    assert version.validation_log.startswith("invalid: timeout during game 1")
    assert "wall-clock time for the match" in version.validation_log
