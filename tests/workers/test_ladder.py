"""Ladder play: placement matches for a new version, and the capped periodic tick."""

from __future__ import annotations

import random

import pytest

from arena.models import Bot, Match, Rating
from arena.services import ladder
from arena.services.ladder import ladder_placement, ladder_tick

pytestmark = pytest.mark.django_db


@pytest.fixture
def field(make_bot) -> list[Bot]:
    """Six rated bots, mu 10, 15 ... 35, all with high sigma."""
    bots = [make_bot(f"bot{i}") for i in range(6)]
    for i, bot in enumerate(bots):
        Rating.objects.filter(bot=bot).update(mu=10 + 5 * i)
    return bots


def test_placement_plays_the_nearest_rated_bots_once(field, make_bot):
    newcomer = make_bot("newcomer")  # default mu 25: nearest are 25, 20, 30, then 15 or 35
    matches = ladder_placement(bot_id=newcomer.pk)
    assert len(matches) == ladder.PLACEMENT_MATCHES == 4
    opponents = {match.bot_b_id for match in matches}
    assert {field[3].pk, field[2].pk, field[4].pk} < opponents
    assert all(m.kind == "ladder" and m.version_a == newcomer.active_version for m in matches)
    assert ladder_placement(bot_id=newcomer.pk) == []  # a redelivered task adds nothing


def test_placement_skips_bots_that_cannot_play(make_bot):
    newcomer = make_bot("newcomer")
    make_bot("pending", valid=False)
    retired = make_bot("retired")
    Bot.objects.filter(pk=retired.pk).update(is_active=False)
    assert ladder_placement(bot_id=newcomer.pk) == []


def test_the_tick_pairs_unsettled_bots_and_respects_the_cap(field, monkeypatch):
    monkeypatch.setattr(ladder, "QUEUE_CAP", 5)
    first = ladder_tick(rng=random.Random(1))
    assert len(first) == ladder.TICK_BATCH - 1  # 6 bots make at most 3 disjoint pairs
    busy = [bot for match in first for bot in (match.bot_a_id, match.bot_b_id)]
    assert len(busy) == len(set(busy))  # no bot in two open matches
    assert ladder_tick(rng=random.Random(2)) == []  # every bot is busy now
    Match.objects.update(status="done")
    second = ladder_tick(rng=random.Random(3))
    assert len(second) == 3
    Match.objects.update(status="queued")
    assert Match.objects.filter(kind="ladder", status="queued").count() == 6
    assert ladder_tick(rng=random.Random(4)) == []  # 6 open >= cap 5


def test_the_tick_leaves_settled_bots_alone(field):
    Rating.objects.update(sigma=ladder.SIGMA_SETTLED)
    assert ladder_tick() == []


def test_the_tick_task_plays_its_matches(field, run_on_commit):
    from workers.tasks import ladder_tick as task

    with run_on_commit():
        task.delay()
    assert set(Match.objects.values_list("status", flat=True)) == {"done"}
    assert Match.objects.filter(rated=True).count() == Match.objects.count() > 0
