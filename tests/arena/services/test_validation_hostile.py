"""Validation against hostile bots (issue 13): a forged protocol message of any type the
supervisor's side sends, a bot that sleeps under every per-move limit, exits with any status,
closes or floods its output, gets a verdict (invalid, with a readable reason), never an
exception that leaves the version pending. Run through the real validation service and
sandbox (on PostgreSQL in CI)."""

from __future__ import annotations

import pytest

from arena.models import Bot
from arena.services.validation import version_validate
from tests.workers.fixtures import version_add

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


LEGAL = """
def legal(observation):
    cards = observation["hand"][:3]
    if observation["role"] == "liar":
        return {"cards": cards, "face_up": 0}
    return {"cards": cards, "challenge": False}
"""


def forging(message: bytes | str) -> str:
    """A bot that writes ``message`` (bytes, or the source of an expression making them)
    on its reply channel, then plays a legal move."""
    expression = message if isinstance(message, str) else repr(message)
    return (
        "import os, sys\n"
        + LEGAL
        + "\ndef act(observation):\n"
        + f"    os.write(int(sys.orig_argv[-1]), {expression})\n"
        + "    return legal(observation)\n"
    )


def misbehaving(statement: str) -> str:
    """A bot that runs ``statement`` on its first move (then would play legally)."""
    return (
        "import os, signal, sys, time\n"
        + LEGAL
        + "\ndef act(observation):\n"
        + f"    {statement}\n"
        + "    return legal(observation)\n"
    )


FORGERIES = {
    "fault, well formed": b'{"t":"fault","kind":"timeout","code":"cpu","phase":"act"}\n',
    "fault, unknown kind": b'{"t":"fault","kind":"platform","code":"x"}\n',
    "ready": b'{"t":"ready","hooks":["act"]}\n',
    "prepared": b'{"t":"prepared"}\n',
    "action, wrong seq": b'{"t":"action","action":{"cards":[]},"seq":999999}\n',
    "done": b'{"t":"done","seq":0}\n',
    "error": b'{"t":"error","reason":"the platform failed"}\n',
    "not an object": b"[1, 2, 3]\n",
    "not utf-8": b"\xff\xfe\xfd\n",
    "no newline, 2 MB": "b'x' * 2_000_000",
}

MISBEHAVIOURS = {
    "exit 0": "sys.exit(0)",
    "_exit 0": "os._exit(0)",
    "_exit 1": "os._exit(1)",
    "_exit 137": "os._exit(137)",
    "abort": "os.abort()",
    "segfault": "import ctypes; ctypes.string_at(0)",
    "SIGSTOP to itself, then sleep": "os.kill(os.getpid(), signal.SIGSTOP); time.sleep(5)",
    "close stdout": "os.close(1)",
    "close the reply channel": "os.close(int(sys.orig_argv[-1]))",
    "flood stdout": "sys.stdout.write('y' * 50_000_000)",
}


@pytest.mark.parametrize("message", FORGERIES.values(), ids=FORGERIES.keys())
def test_every_forged_supervisor_message_is_the_bots_fault(bot, fast_limits, message):
    version = version_validate(version_id=version_add(bot, forging(message)).pk)
    assert version.status == "invalid", version.validation_log
    assert version.validation_log.startswith("invalid: protocol"), version.validation_log


@pytest.mark.parametrize("statement", MISBEHAVIOURS.values(), ids=MISBEHAVIOURS.keys())
def test_any_exit_or_output_abuse_gets_a_verdict(bot, fast_limits, settings, statement):
    settings.ARENA_MATCH_WALL_S = 3.0
    version = version_validate(version_id=version_add(bot, misbehaving(statement)).pk)
    assert version.status in ("invalid", "valid"), version.validation_log
    # Flooding stdout is capped, not a fault: the bot still plays (and may pass).
    if "stdout.write" not in statement:
        assert version.status == "invalid", version.validation_log
        assert version.validation_log.startswith("invalid: "), version.validation_log
