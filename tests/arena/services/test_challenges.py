"""Challenges and version comparisons: unrated matches, quotas, and the score with its doubt."""

from __future__ import annotations

import pytest
from django.utils import timezone

from arena.algorithms.intervals import score_share
from arena.errors import Forbidden, InvalidInput, TooManyRequests
from arena.models import Challenge, Match, RatingHistory
from arena.selectors.challenges import _summarize, challenge_summary, version_comparison
from arena.services.challenges import (
    challenge_create,
    comparison_baseline,
    comparison_start,
)
from arena.services.validation import version_validate
from tests.arena import bots
from tests.workers.fixtures import version_add

pytestmark = pytest.mark.django_db


def test_a_challenge_plays_unrated_duplicate_matches_and_says_how_sure_it_is(
    make_bot, run_on_commit, owner, monkeypatch
):
    from engine.registry import get_game

    monkeypatch.setattr(type(get_game("lie21")), "duplicate_helps", True)
    mine, rival = make_bot("mine", bots.RANDOM), make_bot("rival", bots.GOOD, user=None)
    with run_on_commit():
        challenge = challenge_create(
            user=owner,
            version_id=mine.active_version_id,
            rival_version_ids=[rival.active_version_id],
            matches=6,
        )
    matches = list(Match.objects.filter(challenge=challenge))
    assert len(matches) == 6
    assert {m.kind for m in matches} == {"challenge"} and not any(m.ranked for m in matches)
    keys = [m.duplicate_key for m in matches]
    assert len(set(keys)) == 3 and all(keys), "three deals, each played from both seats"
    for key in set(keys):
        pair = [m for m in matches if m.duplicate_key == key]
        assert pair[0].seed == pair[1].seed
        orders = [list(m.seats.order_by("seat").values_list("bot_id", flat=True)) for m in pair]
        assert orders[0] == orders[1][::-1], "the same deal with the seats swapped"
    assert {m.status for m in Match.objects.filter(challenge=challenge)} == {"done"}
    assert not RatingHistory.objects.exists(), "challenges change no rating"
    summary = challenge_summary(challenge=challenge)
    assert summary.done and summary.played == 6 and summary.failed == 0
    assert 0 <= summary.low <= summary.score <= summary.high <= 1
    assert summary.wins + summary.draws + summary.losses == 6


def test_who_may_challenge_whom(make_bot, owner, other_user):
    mine = make_bot("mine")
    theirs = make_bot("theirs", user=other_user)
    with pytest.raises(Forbidden):
        challenge_create(
            user=other_user,
            version_id=mine.active_version_id,
            rival_version_ids=[theirs.active_version_id],
            matches=2,
        )
    hidden = version_add(theirs, bots.CHATTY, status="valid")  # theirs moved on to v2
    old = theirs.versions.get(number=1)
    with pytest.raises(InvalidInput, match="cannot be challenged"):
        challenge_create(
            user=owner, version_id=mine.active_version_id, rival_version_ids=[old.pk], matches=2
        )
    other_game = make_bot("hc", bots.HIGHCARD, game="highcard", user=other_user)
    with pytest.raises(InvalidInput, match="same game"):
        challenge_create(
            user=owner,
            version_id=mine.active_version_id,
            rival_version_ids=[other_game.active_version_id],
            matches=2,
        )
    # Its own earlier version is fair game.
    earlier = mine.active_version
    newer = version_add(mine, bots.CHATTY, status="valid")
    challenge = challenge_create(
        user=owner, version_id=newer.pk, rival_version_ids=[earlier.pk], matches=2
    )
    assert challenge.opponents == [earlier.pk]
    assert hidden.status == "valid"


def test_the_daily_quota_holds(make_bot, owner, settings):
    settings.ARENA_CHALLENGE_MATCHES_PER_DAY = 10
    mine, rival = make_bot("mine"), make_bot("rival")
    ask = {"user": owner, "version_id": mine.active_version_id}
    challenge_create(**ask, rival_version_ids=[rival.active_version_id], matches=8)
    with pytest.raises(TooManyRequests, match="2 left"):
        challenge_create(**ask, rival_version_ids=[rival.active_version_id], matches=4)
    with pytest.raises(InvalidInput, match="1 to 100"):
        challenge_create(**ask, rival_version_ids=[rival.active_version_id], matches=0)
    assert Challenge.objects.count() == 1


def test_a_new_version_is_compared_with_the_previous_one(make_bot, run_on_commit, settings):
    settings.ARENA_COMPARISON_MATCHES = 4
    bot = make_bot("evolving", bots.GOOD)
    first = bot.active_version
    second = version_add(bot, bots.RANDOM)
    with run_on_commit():
        assert version_validate(version_id=second.pk).status == "valid"
    comparison = Challenge.objects.get(kind="comparison")
    assert (comparison.version_id, comparison.opponents) == (second.pk, [first.pk])
    matches = Match.objects.filter(challenge=comparison)
    assert matches.count() == 4 and {m.kind for m in matches} == {"comparison"}
    summary = challenge_summary(challenge=comparison)
    assert summary.played == 4 and summary.score is not None
    assert comparison_start(version_id=second.pk) is None, "once per version"
    # Issue 32: a self-match's seats name their versions, in the replay as on the page.
    from arena.selectors.matches import replay_bytes
    from engine import replay as replay_io

    replay = replay_io.loads(replay_bytes(match_id=matches.first().pk))
    names = sorted(seat["name"] for seat in replay["seats"])
    owner = bot.owner.username
    assert names == [f"{owner}/evolving v1", f"{owner}/evolving v2"]


def test_without_duplicate_sets_the_seats_still_alternate(make_bot, owner):
    mine, rival = make_bot("mine"), make_bot("rival")
    challenge = challenge_create(
        user=owner,
        version_id=mine.active_version_id,
        rival_version_ids=[rival.active_version_id],
        matches=4,
    )
    firsts = [
        m.seats.get(seat=0).bot_id for m in Match.objects.filter(challenge=challenge).order_by("id")
    ]
    assert firsts == [mine.pk, rival.pk, mine.pk, rival.pk]
    assert not any(
        Match.objects.filter(challenge=challenge).values_list("duplicate_key", flat=True)
    )


@pytest.mark.parametrize(
    ("scores", "significant"),
    [
        ([0.0, 0.0], False),  # two losses prove little
        ([1.0, 1.0], False),
        ([1.0, 0.0, 1.0], False),
        ([1.0] * 8, True),
        ([1.0] * 7 + [0.0], True),
        ([1.0, 0.0] * 10, False),
        ([0.0] * 12 + [1.0], True),
    ],
)
def test_the_interval_holds_the_score_and_short_runs_are_not_significant(scores, significant):
    matches = {i: {"id": i, "status": "done", "duplicate_key": ""} for i in range(len(scores))}
    seats = {
        i: [
            {"match_id": i, "version_id": 1, "placing": 0 if score else 1},
            {"match_id": i, "version_id": 2, "placing": 1 if score else 0},
        ]
        for i, score in enumerate(scores)
    }
    summary = _summarize(1, matches, seats)
    assert summary.score == pytest.approx(sum(scores) / len(scores))
    assert 0 <= summary.low <= summary.score <= summary.high <= 1
    assert summary.high - summary.low > 0, "never a zero-width interval"
    assert summary.significant is significant


def test_a_partial_duplicate_set_weighs_the_matches_it_played():
    """Issue 32: nine full duplicate sets (six won, three level) and one cut short after a lost
    match read 75%, the set of one weighted like a set of two. Each match counts once."""
    matches, seats = {}, {}
    outcomes = [(f"set{n}", [0, 0]) for n in range(6)]
    outcomes += [(f"set{n}", [0, 1]) for n in range(6, 9)]
    outcomes.append(("set9", [1]))  # the last set: one match played, lost
    match_id = 0
    for key, placings in outcomes:
        for placing in placings:
            match_id += 1
            matches[match_id] = {"id": match_id, "status": "done", "duplicate_key": key}
            seats[match_id] = [
                {"match_id": match_id, "version_id": 1, "placing": placing},
                {"match_id": match_id, "version_id": 2, "placing": 1 - placing},
            ]
    summary = _summarize(1, matches, seats)
    assert summary.played == 19 and summary.units == 10
    assert summary.score == pytest.approx(15 / 19)  # 78.9%, not (6 + 1.5 + 0) / 10
    share = score_share([(1.0, 2)] * 6 + [(0.5, 2)] * 3 + [(0.0, 1)])
    assert (summary.low, summary.high) == (share.low, share.high), "the one documented method"


def test_the_comparison_skips_a_paused_or_invalid_previous_version(make_bot, settings):
    """Issue 32: a new version was compared with the version just before it even when that
    one was paused for its faults, which made "significantly better" cheap."""
    settings.ARENA_COMPARISON_MATCHES = 2
    bot = make_bot("evolving", bots.GOOD)
    first = bot.active_version
    second = version_add(bot, bots.RANDOM, status="valid")
    second.paused_at, second.pause_reason = timezone.now(), "crashed in 8 of its last 10"
    second.save()
    version_add(bot, bots.RANDOM, status="invalid")
    fourth = version_add(bot, bots.RANDOM, status="valid")
    assert comparison_baseline(version=fourth) == first
    comparison = comparison_start(version_id=fourth.pk)
    assert comparison.opponents == [first.pk]
    seen = version_comparison(version=fourth)
    assert (seen.version, seen.previous) == (4, 1)
    assert seen.skipped == "v2 (paused), v3 (invalid)"
