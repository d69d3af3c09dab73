"""Pausing a version from the ladder when its own faults pass the rate over its recent
matches: the rule, the ladder leaving it out, the page and the API saying why, and the way
back (a new upload)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from arena.models import Match, MatchSeat
from arena.services.ladder import ladder_placement, ladder_tick
from arena.services.matches import match_play
from arena.services.pausing import version_pause_if_faulty
from arena.services.validation import version_validate
from tests.arena import bots
from tests.arena.recorded import match_queued
from tests.workers.fixtures import version_add

pytestmark = pytest.mark.django_db


def fake_result(
    mine, theirs, *, fault_seat: int | None, minutes_ago: int, mine_at: int = 0, kind="crash"
) -> Match:
    """A recorded match of ``mine`` (at seat ``mine_at``), ended by the fault of
    ``fault_seat`` (None: a clean result)."""
    versions = [mine, theirs] if mine_at == 0 else [theirs, mine]
    match = match_queued(
        versions,
        seed=minutes_ago,
        kind="ladder",
        status="done",
        reason="match_points" if fault_seat is None else "fault",
        finished_at=timezone.now() - timedelta(minutes=minutes_ago),
    )
    for seat in (0, 1):
        MatchSeat.objects.filter(match=match, seat=seat).update(
            placing=1 if seat == fault_seat else 0 if fault_seat is not None else seat,
            fault=kind if seat == fault_seat else "",
        )
    return match


def test_the_rule_counts_own_faults_over_the_last_ten_matches(make_bot):
    mine, theirs = make_bot("mine").active_version, make_bot("theirs").active_version
    for minute in range(100, 95, -1):  # 5 faults long ago: out of the window
        fake_result(mine, theirs, fault_seat=0, minutes_ago=minute)
    # The last 10: 4 own faults, 1 of the opponent, 5 clean.
    for minute in range(10, 0, -1):
        fault = 0 if minute <= 4 else 1 if minute == 5 else None
        fake_result(mine, theirs, fault_seat=fault, minutes_ago=minute)
    assert version_pause_if_faulty(version_id=mine.pk) is False
    assert version_pause_if_faulty(version_id=theirs.pk) is False  # 1 of 10
    # One more own fault, at seat B this time: 5 of the last 10.
    fake_result(mine, theirs, fault_seat=1, mine_at=1, minutes_ago=0, kind="timeout")
    assert version_pause_if_faulty(version_id=mine.pk) is True
    mine.refresh_from_db()
    assert mine.paused_at is not None
    assert mine.pause_reason.startswith("paused from the ladder: 5 of its last 10 matches")
    assert "(crash 4, timeout 1)" in mine.pause_reason
    theirs.refresh_from_db()
    assert theirs.paused_at is None


def test_too_few_matches_do_not_pause(make_bot):
    mine, theirs = make_bot("mine").active_version, make_bot("theirs").active_version
    for minute in (3, 2, 1):
        fake_result(mine, theirs, fault_seat=0, minutes_ago=minute)
    assert version_pause_if_faulty(version_id=mine.pk) is False


def test_a_crashing_bot_is_paused_shown_and_comes_back_with_a_new_upload(make_bot, client, owner):
    crashy = make_bot("crashy", bots.CRASH_IN_ACT)
    others = [make_bot(name) for name in ("anna", "bert", "cleo", "dora")]
    for index, other in enumerate(others):
        match = match_queued([crashy.active_version, other.active_version], seed=index + 1)
        played = match_play(match_id=match.pk, worker="test")
        seat = played.seats.get(seat=0)
        assert (seat.fault, seat.placing) == ("crash", 1)
        crashy.active_version.refresh_from_db()
        assert crashy.active_version.is_paused == (index == 3)  # the fourth match pauses it
    version = crashy.active_version
    assert "4 of its last 4 matches ended in its own fault (crash 4)" in version.pause_reason

    # Off the ladder: no placement, no tick matches.
    assert ladder_placement(bot_id=crashy.pk) == []
    for match in ladder_tick():
        assert crashy.pk not in set(match.seats.values_list("bot_id", flat=True))

    # The API and the page say so, to everyone.
    body = client.get(f"/api/bots/{crashy.pk}/").json()
    assert body["paused"] is True
    assert body["pause_reason"] == version.pause_reason
    (row,) = client.get(f"/api/bots/{crashy.pk}/versions/").json()["results"]
    assert row["paused_at"] is not None and row["pause_reason"] == version.pause_reason
    page = client.get(reverse("bot", args=[crashy.pk])).content.decode()
    assert "Paused from the ladder." in page
    assert "upload a new version to return" in page
    version_page = client.get(reverse("bot-version", args=[crashy.pk, version.number]))
    assert "Paused from the ladder" in version_page.content.decode()

    # The way back: a new version that validates plays again.
    fixed = version_add(crashy, bots.GOOD)
    assert version_validate(version_id=fixed.pk).status == "valid"
    crashy.refresh_from_db()
    assert crashy.active_version == fixed
    body = client.get(f"/api/bots/{crashy.pk}/").json()
    assert body["paused"] is False and body["pause_reason"] is None
    assert (
        "Paused from the ladder."
        not in client.get(reverse("bot", args=[crashy.pk])).content.decode()
    )
    assert ladder_placement(bot_id=crashy.pk)  # placement matches again
