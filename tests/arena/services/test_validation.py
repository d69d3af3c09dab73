"""Validating uploaded versions in the sandbox: each outcome, with the logs the owner sees."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from arena.models import Bot, BotVersion, Match, MatchLog, Rating
from arena.services.matches import PlatformError, match_play
from arena.services.validation import VALIDATION_MIN_GAMES, version_validate
from tests.arena import bots
from tests.arena.recorded import match_queued
from tests.workers.fixtures import tasks_queued, version_add

pytestmark = pytest.mark.django_db


@pytest.fixture
def bot(owner) -> Bot:
    return Bot.objects.create(owner=owner, name="candidate", game="lie21")


def validate(bot: Bot, source: str | bytes, **kwargs) -> BotVersion:
    version = version_add(bot, source, **kwargs)
    return version_validate(version_id=version.pk)


def test_it_accepts_a_good_bot_and_makes_it_active(bot, run_on_commit):
    with run_on_commit() as callbacks:
        version = validate(bot, bots.CHATTY)
    assert version.status == "valid"
    assert version.validated_at is not None
    assert version.validation_log.startswith("valid: bot.py imported in the sandbox")
    assert "complete match(es)" in version.validation_log
    assert "against the built-in random bot" in version.validation_log
    assert "Validation match 1 (seat " in version.validation_log
    assert "hello from the chatty bot" in version.error_output
    assert "chatty stderr" in version.error_output
    bot.refresh_from_db()
    assert bot.active_version == version
    assert Rating.objects.filter(bot=bot, game="lie21").count() == 1
    assert len(tasks_queued(callbacks)) == 1  # ladder placement queued
    assert not Match.objects.exists()  # validation matches are not Matches


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
    version = validate(bot, bots.ACT_NOT_CALLABLE, filename="alice_lie21.py")
    assert version.status == "invalid"
    assert version.validation_log == (
        "invalid: crash at import: alice_lie21.py defines no act() function"
    )


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
    placement = Match.objects.filter(kind="ladder", seats__version=version)
    assert placement.count() == 2
    assert set(placement.values_list("status", flat=True)) == {"done"}


def test_a_bot_that_crashes_from_its_third_game_on_is_invalid(bot):
    version = validate(bot, bots.LATE_CRASHER)
    assert version.status == "invalid", version.validation_log
    assert version.validation_log.startswith("invalid: crash during game 3 hand 1"), (
        version.validation_log
    )
    assert "of validation match" in version.validation_log
    assert "late strategy blew up" in version.error_output


def test_validation_plays_complete_matches(bot):
    version = validate(bot, bots.GOOD)
    assert version.status == "valid"
    games = int(version.validation_log.split(" game(s)")[0].rsplit(" ", 1)[1])
    assert games >= VALIDATION_MIN_GAMES or "5 complete match(es)" in version.validation_log


def _start_info(text: str) -> list[dict]:
    return [
        json.loads(line.split("MATCH-START ", 1)[1])
        for line in text.splitlines()
        if line.startswith("MATCH-START ")
    ]


def test_a_bot_cannot_tell_validation_from_a_real_match(bot, make_bot, owner):
    """What on_match_start receives is the same, but for the seed and seat of each match."""
    version = validate(bot, bots.SPY)
    assert version.status == "valid", version.validation_log
    seen_in_validation = _start_info(version.error_output)
    assert seen_in_validation
    other = make_bot("other")
    match = match_queued([other.active_version, version], seed=12345)
    played = match_play(match_id=match.pk, worker="test")
    assert played.status == "done"
    log = MatchLog.objects.get(match=match, bot=bot)
    (seen_in_match,) = _start_info(log.output)

    def shape(info: dict) -> dict:
        return {key: value for key, value in info.items() if key not in ("seed", "seat")}

    assert sorted(seen_in_match) == sorted(seen_in_validation[0])
    for info in seen_in_validation:
        assert shape(info) == shape(seen_in_match)
        assert info["seat"] in (0, 1)
        assert isinstance(info["seed"], int)


def test_the_sweeper_requeues_a_stuck_validation_twice_then_fails_it(
    bot, django_capture_on_commit_callbacks
):
    from datetime import timedelta

    from django.utils import timezone

    from arena.services.validation import pending_bound_s, requeue_after_s, version_sweep_pending

    stuck = version_add(bot, bots.GOOD)
    fresh = version_add(Bot.objects.create(owner=bot.owner, name="fresh", game="lie21"), bots.GOOD)
    long_ago = timezone.now() - timedelta(seconds=requeue_after_s() + 60)
    BotVersion.objects.filter(pk=stuck.pk).update(created=long_ago)

    def sweep() -> tuple[dict, list]:
        with django_capture_on_commit_callbacks() as callbacks:
            counts = version_sweep_pending()
        return counts, [cb.args[:2] for cb in tasks_queued(callbacks)]

    for requeue in (1, 2):
        counts, queued = sweep()
        assert counts == {"requeued": 1, "failed": 0}
        assert queued == [("validate_version", (stuck.pk,))]
        stuck.refresh_from_db()
        assert stuck.status == "pending"
        assert stuck.validation_requeues == requeue
        assert sweep()[0] == {"requeued": 0, "failed": 0}  # just queued: left alone
        BotVersion.objects.filter(pk=stuck.pk).update(validation_queued_at=long_ago)

    counts, queued = sweep()
    assert counts == {"requeued": 0, "failed": 1}
    assert queued == []
    stuck.refresh_from_db()
    assert stuck.status == "invalid"
    assert stuck.validation_log.startswith("invalid: the platform could not validate")
    assert "through 3 tries" in stuck.validation_log
    assert "Upload it again" in stuck.validation_log
    fresh.refresh_from_db()
    assert fresh.status == "pending" and fresh.validation_requeues == 0
    assert pending_bound_s() == 3 * requeue_after_s()
