"""Ladder play: placement tables for a new version, and the capped periodic tick that seats
the pairs the displayed ratings are least sure of, at tables of the game's size."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from arena.models import Bot, Match, MatchSeat, Rating
from arena.services import ladder
from arena.services.ladder import ladder_placement, ladder_seats, ladder_tick
from tests.arena import bots

pytestmark = pytest.mark.django_db


def seats_of(match: Match) -> list[int]:
    return list(match.seats.order_by("seat").values_list("bot_id", flat=True))


@pytest.fixture
def field(make_bot) -> list[Bot]:
    """Six rated bots, rated 10, 15 ... 35, all with wide intervals."""
    field = [make_bot(f"bot{i}") for i in range(6)]
    for i, bot in enumerate(field):
        Rating.objects.filter(bot=bot).update(mu=10 + 5 * i, rating=10 + 5 * i)
    return field


def test_placement_plays_the_nearest_rated_bots_once(field, make_bot):
    newcomer = make_bot("newcomer")  # rated 25 at first: nearest are 25, 20, 30, then 15 or 35
    matches = ladder_placement(bot_id=newcomer.pk)
    assert len(matches) == ladder.PLACEMENT_MATCHES == 4
    opponents = {bot for match in matches for bot in seats_of(match)} - {newcomer.pk}
    assert {field[3].pk, field[2].pk, field[4].pk} < opponents
    assert len(opponents) == 4, "four tables, four different opponents"
    for match in matches:
        assert match.kind == "ladder"
        mine = match.seats.get(bot=newcomer)
        assert mine.version_id == newcomer.active_version_id
    assert ladder_placement(bot_id=newcomer.pk) == []  # a redelivered task adds nothing


def test_placement_skips_bots_that_cannot_play(make_bot):
    newcomer = make_bot("newcomer")
    make_bot("pending", valid=False)
    retired = make_bot("retired")
    Bot.objects.filter(pk=retired.pk).update(is_active=False)
    assert ladder_placement(bot_id=newcomer.pk) == []


def test_the_tick_seats_every_bot_once_and_respects_the_cap(field, monkeypatch):
    monkeypatch.setattr(ladder, "QUEUE_CAP", 5)
    first = ladder_tick(rng=random.Random(1))
    assert len(first) == ladder.TICK_BATCH - 1  # 6 bots make at most 3 disjoint pairs
    busy = [bot for match in first for bot in seats_of(match)]
    assert len(busy) == len(set(busy))  # no bot in two open matches
    assert ladder_tick(rng=random.Random(2)) == []  # every bot is busy now
    Match.objects.update(status="done")
    second = ladder_tick(rng=random.Random(3))
    assert len(second) == 3
    Match.objects.update(status="queued")
    assert Match.objects.filter(kind="ladder", status="queued").count() == 6
    assert ladder_tick(rng=random.Random(4)) == []  # 6 open >= cap 5


def test_the_tick_seats_the_pair_the_ratings_are_least_sure_of(field, monkeypatch):
    """Five bots far apart and settled, two level in the middle of them: the tick seats the
    two level ones, whose order the ratings cannot tell."""
    monkeypatch.setattr(ladder, "TICK_BATCH", 1)
    for rating, bot in zip([50, 40, 30.2, 30, 20, 10], field, strict=True):
        Rating.objects.filter(bot=bot).update(rating=rating, rating_sigma=1.0)
    level = {field[2].pk, field[3].pk}
    seated = Counter()
    for seed in range(20):
        (match,) = ladder_tick(rng=random.Random(seed))
        seated[frozenset(seats_of(match))] += 1
        Match.objects.all().delete()
    assert seated[frozenset(level)] >= 19, seated


@pytest.mark.slow
def test_a_new_version_in_doubt_plays_more_than_a_settled_one(field, monkeypatch):
    """A wide interval is doubt against every neighbour: such a bot is seated often."""
    monkeypatch.setattr(ladder, "TICK_BATCH", 1)
    for k, bot in enumerate(field):
        Rating.objects.filter(bot=bot).update(rating=10 + 5 * k, rating_sigma=1.0)
    ticks = 40

    def times_seated(in_doubt: Bot) -> int:
        Rating.objects.update(rating_sigma=1.0)
        Rating.objects.filter(bot=in_doubt).update(rating_sigma=8.0)
        seated = 0
        for seed in range(ticks):
            for match in ladder_tick(rng=random.Random(seed)):
                seated += field[2].pk in seats_of(match)
            Match.objects.all().delete()
        return seated

    assert times_seated(field[2]) > times_seated(field[0]) + ticks // 4


def test_level_bots_meet_in_turn(field, monkeypatch):
    """Six level bots: every close pair is in doubt, so the tables spread over them."""
    monkeypatch.setattr(ladder, "TICK_BATCH", 1)
    Rating.objects.update(rating=25.0, rating_sigma=5.0)
    pairs: Counter[frozenset[int]] = Counter()
    for seed in range(30):
        (match,) = ladder_tick(rng=random.Random(seed))
        pairs[frozenset(seats_of(match))] += 1
        Match.objects.filter(pk=match.pk).update(status="done")
    assert len(pairs) >= 7, pairs  # of the 15 pairs, all within reach
    assert max(pairs.values()) <= 9, pairs


def test_tables_have_the_games_size_with_distinct_bots(make_bot):
    """High Card (the tests' three-seat game): tables of three, a doubtful pair and its
    nearest neighbour."""
    highcard = [make_bot(f"hc{i}", bots.HIGHCARD, game="highcard") for i in range(7)]
    for i, bot in enumerate(highcard):
        Rating.objects.filter(bot=bot).update(mu=15 + 2 * i, rating=15 + 2 * i)
    assert ladder_seats("highcard", 7) == 3 and ladder_seats("highcard", 2) == 2
    created = ladder_tick(rng=random.Random(5))
    assert created
    seen = []
    for match in created:
        table = seats_of(match)
        assert len(table) == 3 and len(set(table)) == 3
        assert match.game == "highcard" and match.seat_count == 3
        seen += table
    assert len(seen) == len(set(seen)), "a bot sits at one open table at a time"
    assert not MatchSeat.objects.exclude(bot__in=highcard).exists()


def test_the_tick_task_plays_its_matches(field, run_on_commit):
    from workers.tasks import ladder_tick as task

    with run_on_commit():
        task.delay()
    assert set(Match.objects.values_list("status", flat=True)) == {"done"}
    assert Match.objects.filter(rated=True).count() == Match.objects.count() > 0


def test_the_ladder_plays_fresh_deals_even_where_duplicates_cut_variance(make_bot, monkeypatch):
    """Duplicate sets are for head-to-head comparisons; the ladder learns faster from a
    fresh table each time (benchmarks/ranking_convergence.py), so it never plays sets."""
    from engine.registry import get_game

    monkeypatch.setattr(type(get_game("highcard")), "duplicate_helps", True, raising=False)
    for i in range(4):
        make_bot(f"hc{i}", bots.HIGHCARD, game="highcard")
    created = ladder_tick(rng=random.Random(9))
    assert len(created) == 1, "one table of three, played once"
    assert not created[0].duplicate_key
