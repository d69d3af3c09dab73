"""Validating uploaded versions in the sandbox: each outcome, with the logs the owner sees."""

from __future__ import annotations

import io
import zipfile

import pytest

from arena.models import Bot, BotVersion, Match, Rating
from arena.services.matches import PlatformError
from arena.services.validation import version_validate
from tests.workers import bots
from tests.workers.conftest import version_add

pytestmark = pytest.mark.django_db


@pytest.fixture
def bot(owner) -> Bot:
    return Bot.objects.create(owner=owner, name="candidate")


def validate(bot: Bot, source: str | bytes, **kwargs) -> BotVersion:
    version = version_add(bot, source, **kwargs)
    return version_validate(version_id=version.pk)


def test_it_accepts_a_good_bot_and_makes_it_active(bot, run_on_commit):
    with run_on_commit() as callbacks:
        version = validate(bot, bots.CHATTY)
    assert version.status == "valid"
    assert version.validated_at is not None
    assert version.validation_log.startswith("valid: bot.py imported in the sandbox")
    assert "Smoke match against the built-in random bot" in version.validation_log
    assert "hello from the chatty bot" in version.error_output
    assert "chatty stderr" in version.error_output
    bot.refresh_from_db()
    assert bot.active_version == version
    assert Rating.objects.filter(bot=bot, game="lie21").count() == 1
    assert len(callbacks) == 1  # ladder placement queued
    assert not Match.objects.exists()  # the smoke match is not a Match


def test_it_reports_a_crash_at_import(bot):
    version = validate(bot, bots.CRASH_AT_IMPORT)
    assert version.status == "invalid"
    assert version.validation_log.startswith("invalid: crash at import: ")
    assert "ZeroDivisionError" in version.validation_log
    assert "ZeroDivisionError" in version.error_output  # the traceback, for the owner
    assert "1 / 0" in version.error_output
    bot.refresh_from_db()
    assert bot.active_version is None
    assert not Rating.objects.filter(bot=bot).exists()


def test_it_reports_a_crash_in_act_with_where_it_happened(bot):
    version = validate(bot, bots.CRASH_IN_ACT)
    assert version.status == "invalid"
    assert version.validation_log.startswith("invalid: crash during game 1 hand 1")
    assert "in act()" in version.validation_log
    # The bot's own message is private: in error_output, never in the platform's log.
    assert "the secret strategy blew up" in version.error_output
    assert "secret strategy" not in version.validation_log


def test_it_reports_an_act_that_is_not_a_function(bot):
    version = validate(bot, bots.ACT_NOT_CALLABLE)
    assert version.status == "invalid"
    assert version.validation_log == "invalid: crash at import: bot.py defines no act() function"


def test_it_rejects_a_file_without_act_before_running_it(bot):
    version = validate(bot, bots.NO_ACT)
    assert version.status == "invalid"
    assert version.validation_log.startswith("invalid: the file was rejected: ")
    assert "act(observation)" in version.validation_log


def test_it_reports_an_illegal_move_with_its_details(bot):
    version = validate(bot, bots.ILLEGAL)
    assert version.status == "invalid"
    assert version.validation_log.startswith("invalid: illegal move during game 1 hand 1")
    assert "ZZ" in version.validation_log  # the rules say which card was wrong


def test_it_reports_a_bot_that_never_answers_as_a_timeout(bot, fast_limits):
    version = validate(bot, bots.SLOW)
    assert version.status == "invalid"
    assert version.validation_log.startswith("invalid: timeout during game 1 hand 1")


def test_it_accepts_a_zip_with_helper_modules(bot):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("bot.py", "from strategy import act\n")
        archive.writestr("strategy.py", bots.GOOD)
    version = validate(bot, buffer.getvalue(), filename="mine.zip")
    assert version.kind == "zip"
    assert version.status == "valid", version.validation_log


def test_it_is_idempotent(bot):
    version = validate(bot, bots.CRASH_IN_ACT)
    log = version.validation_log
    again = version_validate(version_id=version.pk)
    assert again.status == "invalid"
    assert again.validation_log == log
    assert again.validated_at == version.validated_at


def test_a_late_older_version_does_not_replace_a_newer_active_one(bot):
    older = version_add(bot, bots.GOOD)
    newer = version_add(bot, bots.CHATTY)
    version_validate(version_id=newer.pk)
    version_validate(version_id=older.pk)
    bot.refresh_from_db()
    assert bot.active_version == newer


def test_a_platform_failure_leaves_the_version_pending(bot, monkeypatch):
    monkeypatch.setenv("ARENA_SANDBOX_BWRAP", "/nonexistent/bwrap")
    version = version_add(bot, bots.GOOD)
    with pytest.raises(PlatformError, match="sandbox unavailable"):
        version_validate(version_id=version.pk)
    version.refresh_from_db()
    assert version.status == "pending"
    assert version.validation_log == ""


def test_the_task_validates_and_places_the_bot(bot, make_bot, run_on_commit):
    from workers.tasks import validate_version

    for name in ("one", "two"):
        make_bot(name)
    version = version_add(bot, bots.GOOD)
    with run_on_commit():
        validate_version.delay(version.pk)
    version.refresh_from_db()
    assert version.status == "valid"
    placement = Match.objects.filter(kind="ladder", version_a=version)
    assert placement.count() == 2
    assert set(placement.values_list("status", flat=True)) == {"done"}
