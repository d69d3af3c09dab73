"""Reads whose cost must not grow with the ladder or a bot's history (issue 37, 10,000 bots
and 1,000,000 matches): the ladder's order kept per ladder version, a version's rank found
in it, a bot's head-to-head over its newest matches, its recent matches by index, and the
bot page's fixed handful of queries."""

from __future__ import annotations

import random

import pytest
from django.core.cache import cache
from django.test import Client

from arena.freshness import ladder_changed, ladder_version
from arena.models import Bot, Match, Rating, RatingHistory
from arena.selectors import ladder
from arena.selectors.head_to_head import bot_head_to_head_table
from arena.selectors.ladder import (
    LADDER_SORTS,
    ladder_for_game,
    ladder_page,
    ladder_rank,
    ladder_rows,
    ladder_sorted,
)
from arena.selectors.matches import bot_recent_matches
from tests.arena.factories import BotVersionFactory, MatchFactory, RatingFactory
from tests.arena.web.data import bot_make

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
    monkeypatch.setattr("arena.selectors.head_to_head.HEAD_TO_HEAD_MATCHES", 3)
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
    monkeypatch.setattr("arena.selectors.head_to_head.HEAD_TO_HEAD_MATCHES", 5)
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


# --- the bot page at scale: a fixed handful of reads, each by an index ---------------------


def _rated_bot(name: str = "subject") -> Bot:
    bot = bot_make(name=name)
    RatingFactory(version=bot.active_version, rating=30.0)
    ladder_changed("lie21")
    return bot


def _chart_point(bot: Bot, version, match: Match, rating: float) -> None:
    RatingHistory.objects.create(
        version=version,
        bot=bot,
        game=bot.game,
        match=match,
        mu=25,
        sigma=3,
        score=16,
        rating=rating,
        rating_sigma=2,
    )


def test_the_bot_page_costs_eight_queries_however_long_its_history(
    client, django_assert_max_num_queries
):
    bot = _rated_bot()
    rivals = [bot_make(name=f"rival{n}") for n in range(4)]
    for n in range(12):
        match = MatchFactory(
            versions=[bot.active_version, rivals[n % 4].active_version], placings=(n % 2, 1 - n % 2)
        )
        _chart_point(bot, bot.active_version, match, 25.0 + n)
    client.get(f"/bots/{bot.pk}/")  # the ladder's order is computed once per ladder version
    # The bot, its versions with their ratings, its chart, its recent matches (ids, rows,
    # seats), its head-to-head with the opponents' names, its comparison.
    with django_assert_max_num_queries(8):
        page = client.get(f"/bots/{bot.pk}/").content.decode()
    assert "rank 1" in page
    assert page.count('data-opponent="') == 4
    assert "after each of the last 12 rated matches" in page


def test_a_current_version_older_than_the_versions_shown_is_still_ranked(client):
    bot = _rated_bot()  # its version 1 is on the ladder
    for _ in range(21):  # newer uploads that never became valid: the page shows the newest 20
        BotVersionFactory(bot=bot, status="invalid", activate=False)
    page = client.get(f"/bots/{bot.pk}/").content.decode()
    assert "Version 1 is on the" in page and "rank 1" in page
    assert 'data-version="1"' not in page  # not among the versions listed


def test_the_chart_names_versions_older_than_those_listed(client):
    bot = _rated_bot()
    rival = bot_make(name="rival")
    first = bot.active_version
    for n in range(2):
        match = MatchFactory(versions=[first, rival.active_version], placings=(0, 1))
        _chart_point(bot, first, match, 20.0 + n)
    newer = BotVersionFactory(bot=bot, status="valid")
    for _ in range(21):
        BotVersionFactory(bot=bot, status="invalid", activate=False)
    for n in range(2):
        match = MatchFactory(versions=[newer, rival.active_version], placings=(1, 0))
        _chart_point(bot, newer, match, 22.0 + n)
    page = client.get(f"/bots/{bot.pk}/").content.decode()
    # The marker where version 2 took over from version 1 (read by its own small query).
    assert '<text x="' in page and ">v2</text>" in page


def test_a_head_to_head_shows_its_most_played_and_counts_every_opponent():
    me = bot_make(name="me")
    rivals = [bot_make(name=f"r{n}") for n in range(3)]
    for n, rival in enumerate(rivals):
        for _ in range(n + 1):
            MatchFactory(versions=[me.active_version, rival.active_version], placings=(0, 1))
    table = bot_head_to_head_table(bot=me, limit=2)
    assert [(row.opponent.name, row.played, row.wins) for row in table.rows] == [
        ("r2", 3, 3),
        ("r1", 2, 2),
    ]
    assert table.rows[0].opponent.owner_name == rivals[2].owner.username
    assert (table.opponents, table.matches, table.capped) == (3, 6, False)
    assert len(bot_head_to_head_table(bot=me).rows) == 3
    with pytest.raises(ValueError):
        bot_head_to_head_table(bot=me, limit=0)


# --- the site's ladder pages: ids from the kept order (or one narrow query), rows by key ---

SORTS = [f"{way}{key}" for key in LADDER_SORTS for way in ("-", "")]


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_every_ladder_page_in_every_order_is_the_databases(seed, monkeypatch):
    monkeypatch.setattr(ladder, "ORDER_CHUNK", 4)  # pages and ranks across chunk edges
    rng = random.Random(seed)
    ladder_of(rng, 23)
    for rating in Rating.objects.filter(current=True):  # records to sort by, with ties
        rating.matches = rng.choice([0, 3, 3, 10])
        rating.wins = rng.randint(0, rating.matches)
        rating.placing_sum = rng.randint(0, 2 * rating.matches)
        rating.save()
    ladder_changed("lie21")
    for sort in SORTS:
        expected_order, key = ladder_sorted(game="lie21", sort=sort)
        expected = [(rating.pk, rating.rank) for rating in expected_order]
        if sort == "rating":  # worst first: the ladder read backwards (ties: the later first)
            expected = list(reversed([(r.pk, r.rank) for r in ladder_for_game(game="lie21")]))
        for per_page in (1, 5, 50):
            shown = []
            for number in range(1, 30):
                page, used = ladder_page(game="lie21", sort=sort, number=number, per_page=per_page)
                assert used == key
                if page.number < number:
                    break
                shown += [(rating.pk, rating.rank) for rating in page]
            assert shown == expected, (sort, per_page)


def test_a_ladder_page_reads_two_queries_at_most(django_assert_max_num_queries):
    ladder_of(random.Random(1), 12)
    ladder_page(game="lie21", sort=None, number=1)  # the order, kept once per version
    with django_assert_max_num_queries(1):  # the rows by key
        page, _ = ladder_page(game="lie21", sort=None, number=1, per_page=5)
        assert [rating.rank for rating in page] == [1, 2, 3, 4, 5]
    with django_assert_max_num_queries(2):  # the page's ids in that order, then the rows
        page, _ = ladder_page(game="lie21", sort="-matches", number=2, per_page=5)
        assert len(page) == 5


def test_a_ladder_pages_entries_read_as_their_ratings(db):
    """A page's plain entries (LadderEntry) give what the Rating models gave the templates."""
    rng = random.Random(5)
    ladder_of(rng, 9)
    builtin = Bot.objects.filter(is_active=True).first()
    builtin.is_builtin = True
    builtin.save()
    for n, rating in enumerate(Rating.objects.filter(current=True)):
        rating.rating_sigma = [0.4, 2.5, 2.6, 8.3][n % 4]
        rating.matches = [0, 3, 10][n % 3]
        rating.wins = min(rating.matches, n % 4)
        rating.placing_sum = min(rating.matches, n)
        rating.save()
    ladder_changed("lie21")
    page, _ = ladder_page(game="lie21", sort="-matches", number=1)
    models = Rating.objects.select_related("bot__owner", "version").in_bulk(
        [entry.pk for entry in page]
    )
    assert len(page) == len(ladder_for_game(game="lie21"))
    for entry in page:
        rating = models[entry.pk]
        for name in ("id", "version_id", "bot_id", "rating", "rating_low", "rating_high"):
            assert getattr(entry, name) == getattr(rating, name), name
        assert (entry.provisional, entry.mean_place) == (rating.provisional, rating.mean_place)
        assert entry.win_ratio == rating.win_rate
        assert (entry.bot.name, entry.bot.is_builtin) == (rating.bot.name, rating.bot.is_builtin)
        assert entry.bot.owner.username == rating.bot.owner.username
        assert entry.version.number == rating.version.number
    assert any(entry.provisional for entry in page) and not all(e.provisional for e in page)
    assert any(entry.bot.is_builtin for entry in page)


def test_a_ladder_order_by_another_column_is_sorted_once_per_ladder_version(
    django_assert_num_queries, monkeypatch
):
    monkeypatch.setattr(ladder, "ORDER_CHUNK", 4)
    ladder_of(random.Random(2), 14)
    ladder_page(game="lie21", sort="-matches", number=1, per_page=3)  # sorted and kept
    for number in (2, 3):
        with django_assert_num_queries(1):  # the rows by key alone
            page, _ = ladder_page(game="lie21", sort="-matches", number=number, per_page=3)
            assert len(page) == 3
    cache.delete(f"arena:ladder-sorted:lie21:{ladder_version('lie21')}:-matches:1")
    with django_assert_num_queries(2):  # a chunk evicted: sorted again, then the rows
        ladder_page(game="lie21", sort="-matches", number=2, per_page=3)
    rating = Rating.objects.filter(current=True, bot__is_active=True).order_by("matches").first()
    rating.matches = 10_000
    rating.save()
    ladder_changed("lie21")
    page, _ = ladder_page(game="lie21", sort="-matches", number=1, per_page=3)
    assert page[0].pk == rating.pk  # the new version's order
