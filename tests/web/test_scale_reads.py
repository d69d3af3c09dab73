"""Reads whose cost must not grow with the ladder or a bot's history (issue 37, 10,000 bots
and 1,000,000 matches): the ladder's order kept per ladder version, a version's rank found
in it, a bot's head-to-head over its newest matches, its recent matches by index."""

from __future__ import annotations

import random

import pytest
from django.core.cache import cache
from django.test import Client

from arena.models import Bot, Match, Rating
from arena.selectors import ladder
from arena.selectors.ladder import ladder_for_game, ladder_rank, ladder_rows
from arena.selectors.pages import bot_head_to_head_table, bot_recent_matches
from arena.services.freshness import ladder_changed
from tests.arena.factories import BotVersionFactory, MatchFactory, RatingFactory
from tests.web.data import bot_make

pytestmark = pytest.mark.django_db


def ladder_of(rng: random.Random, size: int) -> None:
    """``size`` Lie 21 bots with ratings drawn from few values (ties), some inactive, some
    with an older version whose rating is not current."""
    for n in range(size):
        version = BotVersionFactory(bot__game="lie21", bot__is_active=rng.random() > 0.2)
        RatingFactory(version=version, rating=rng.choice([20.0, 22.5, 25.0, 25.0, 31.0]))
        if n % 4 == 0:
            old = BotVersionFactory(bot=version.bot, number=version.number + 1)
            RatingFactory(version=old, current=False, rating=rng.uniform(10, 40))
    ladder_changed("lie21")


@pytest.mark.parametrize("seed", range(4))
def test_the_ladders_kept_order_ranks_as_the_database_does(seed, monkeypatch):
    monkeypatch.setattr(ladder, "ORDER_CHUNK", 3)  # pages and ranks across chunk edges
    rng = random.Random(seed)
    ladder_of(rng, 17)
    expected = [(rating.pk, rating.rank) for rating in ladder_for_game(game="lie21")]
    for offset in range(len(expected) + 2):
        for limit in (1, 2, 5, 50):
            rows = ladder_rows(game="lie21", offset=offset, limit=limit)
            assert [(row["id"], row["rank"]) for row in rows] == expected[offset : offset + limit]
    ranks = dict(expected)
    for rating in Rating.objects.select_related("bot"):
        assert ladder_rank(rating=rating) == ranks.get(rating.pk), rating


def test_the_ladders_order_follows_the_ladders_version(django_assert_max_num_queries):
    ladder_of(random.Random(7), 6)
    top = ladder_rows(game="lie21", offset=0, limit=1)[0]
    with django_assert_max_num_queries(1):  # the page's rows only: the order is kept
        assert ladder_rows(game="lie21", offset=0, limit=1)[0]["id"] == top["id"]
    challenger = RatingFactory(version__bot__game="lie21", rating=99.0)
    assert ladder_rows(game="lie21", offset=0, limit=1)[0]["id"] == top["id"]  # not told yet
    ladder_changed("lie21")  # what every write of a rating does once it commits
    assert ladder_rows(game="lie21", offset=0, limit=1)[0]["id"] == challenger.pk
    assert ladder_rank(rating=Rating.objects.select_related("bot").get(pk=challenger.pk)) == 1


def test_a_ladder_order_whose_chunks_were_lost_is_computed_again(monkeypatch):
    monkeypatch.setattr(ladder, "ORDER_CHUNK", 2)
    ladder_of(random.Random(3), 9)
    expected = [rating.pk for rating in ladder_for_game(game="lie21")]
    order, _ = ladder._order("lie21")
    cache.delete(f"{order.key}:1")  # evicted: the order is there, one of its chunks is not
    rows = ladder_rows(game="lie21", offset=0, limit=len(expected))
    assert [row["id"] for row in rows] == expected


def test_a_bots_head_to_head_is_counted_over_its_newest_matches(monkeypatch, client):
    monkeypatch.setattr("arena.selectors.pages.HEAD_TO_HEAD_MATCHES", 3)
    me, old_rival, new_rival = (bot_make(name=name) for name in ("me", "old", "new"))
    for _ in range(2):
        MatchFactory(versions=[me.active_version, old_rival.active_version], placings=(0, 1))
    for _ in range(3):
        MatchFactory(versions=[new_rival.active_version, me.active_version], placings=(0, 1))
    MatchFactory(
        versions=[me.active_version, old_rival.active_version],
        placings=None,
        status=Match.Status.QUEUED,
    )  # not finished: not counted, not in the cap
    table = bot_head_to_head_table(bot=me)
    assert [(row.opponent.name, row.played, row.losses) for row in table.rows] == [("new", 3, 3)]
    assert (table.matches, table.capped, table.opponents) == (3, True, 1)
    page = client.get(f"/bots/{me.pk}/").content.decode()
    assert "Counted over its newest 3 finished matches." in page
    monkeypatch.setattr("arena.selectors.pages.HEAD_TO_HEAD_MATCHES", 5)
    table = bot_head_to_head_table(bot=me)
    assert (table.matches, table.capped, table.opponents) == (5, False, 2)
    assert "Counted over its newest" not in client.get(f"/bots/{me.pk}/").content.decode()


def test_a_bot_in_two_seats_of_one_match_is_counted_once_from_its_first():
    me = bot_make(name="me", game="highcard")
    second = BotVersionFactory(bot=me, number=2, status="valid")
    rival = bot_make(name="rival", game="highcard")
    MatchFactory(versions=[me.active_version, rival.active_version, second], placings=(2, 1, 0))
    (row,) = bot_head_to_head_table(bot=me).rows
    assert (row.opponent.name, row.played, row.wins, row.losses) == ("rival", 1, 0, 1)


def test_a_bots_recent_matches_are_its_newest_in_any_seat_each_once():
    me, rival = bot_make(name="me", game="highcard"), bot_make(name="rival", game="highcard")
    second = BotVersionFactory(bot=me, number=2, status="valid")
    made = [
        MatchFactory(versions=[me.active_version, rival.active_version], placings=(0, 1)),
        MatchFactory(
            versions=[rival.active_version, me.active_version, second], placings=(0, 1, 2)
        ),
        MatchFactory(versions=[rival.active_version, rival.active_version], placings=(0, 1)),
        MatchFactory(
            versions=[second, rival.active_version], status=Match.Status.QUEUED, placings=None
        ),
    ]
    newest = bot_recent_matches(bot=me, limit=2)
    assert [match.pk for match in newest] == [made[3].pk, made[1].pk]
    assert [match.pk for match in bot_recent_matches(bot=me)] == [
        made[3].pk,
        made[1].pk,
        made[0].pk,
    ]
    assert bot_recent_matches(bot=Bot.objects.get(pk=rival.pk), limit=1)[0].pk == made[3].pk


@pytest.fixture
def client() -> Client:
    return Client()
