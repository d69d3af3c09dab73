"""Ladder play: placement tables for a new version, and the capped periodic tick that seats
the bots the ratings know least, at tables of the game's size, avoiding repeat meetings."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from arena.models import Bot, Match, MatchSeat, Rating
from arena.services import ladder
from arena.services.ladder import ladder_placement, ladder_seats, ladder_tick
from tests.workers import bots

pytestmark = pytest.mark.django_db


def seats_of(match: Match) -> list[int]:
    return list(match.seats.order_by("seat").values_list("bot_id", flat=True))


@pytest.fixture
def field(make_bot) -> list[Bot]:
    """Six rated bots, mu 10, 15 ... 35, all with high sigma."""
    field = [make_bot(f"bot{i}") for i in range(6)]
    for i, bot in enumerate(field):
        Rating.objects.filter(bot=bot).update(mu=10 + 5 * i)
    return field


def test_placement_plays_the_nearest_rated_bots_once(field, make_bot):
    newcomer = make_bot("newcomer")  # default mu 25: nearest are 25, 20, 30, then 15 or 35
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


def test_the_tick_seats_the_least_certain_bots_first(field, monkeypatch):
    """A quarter of the focal picks go to the least certain ratings (Halite's 25/65/10 mix):
    the same bot, on the same seeds, plays more when its rating is in doubt than when it is
    settled."""
    monkeypatch.setattr(ladder, "TICK_BATCH", 1)
    doubtful = field[5]
    ticks = 40

    def times_seated(in_doubt: Bot) -> int:
        Rating.objects.update(mu=25.0, sigma=2.0)
        Rating.objects.filter(bot=in_doubt).update(sigma=8.0)
        seated = 0
        for seed in range(ticks):
            for match in ladder_tick(rng=random.Random(seed)):
                seated += doubtful.pk in seats_of(match)
            Match.objects.all().delete()
        return seated

    in_doubt, settled = times_seated(doubtful), times_seated(field[0])
    assert in_doubt >= ticks // 4, "every 'uncertain' pick is the one bot in doubt"
    assert in_doubt > settled, (in_doubt, settled)


def test_the_same_pair_does_not_meet_again_and_again(field, monkeypatch):
    monkeypatch.setattr(ladder, "TICK_BATCH", 1)
    Rating.objects.update(mu=25.0, sigma=5.0)
    pairs: Counter[frozenset[int]] = Counter()
    for seed in range(30):
        (match,) = ladder_tick(rng=random.Random(seed))
        pairs[frozenset(seats_of(match))] += 1
        Match.objects.filter(pk=match.pk).update(status="done")
    assert len(pairs) >= 8, pairs  # of the 15 possible pairs
    assert max(pairs.values()) <= 6, pairs


def test_tables_have_the_games_size_with_distinct_bots(make_bot):
    """High Card (the tests' three-seat game): tables of three, chosen by match quality."""
    highcard = [make_bot(f"hc{i}", bots.HIGHCARD, game="highcard") for i in range(7)]
    for i, bot in enumerate(highcard):
        Rating.objects.filter(bot=bot).update(mu=15 + 2 * i)
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
