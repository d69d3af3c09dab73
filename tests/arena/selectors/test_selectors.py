"""Selectors the pages will reuse: filters, visibility rules, constant query counts."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from arena.errors import Forbidden, NotFound
from arena.models import RatingHistory
from arena.selectors.bots import (
    bot_list,
    version_rating,
    version_rating_history,
    version_source,
)
from arena.selectors.games import game_get, game_list
from arena.selectors.ladder import ladder_count, ladder_for_game, ladder_rows
from arena.selectors.matches import (
    match_list,
    match_list_with_replay,
    match_log_list,
    match_rows,
    replay_bytes,
)
from engine.registry import GAMES
from tests.arena.factories import (
    BotFactory,
    BotVersionFactory,
    MatchFactory,
    MatchLogFactory,
    RatingFactory,
    ReplayFactory,
)

pytestmark = pytest.mark.django_db


def test_bot_list_takes_page_filters(owner):
    BotFactory(owner=owner, name="alpha")
    BotFactory(name="beta")

    assert [bot.name for bot in bot_list(filters={"owner": "alice"})] == ["alpha"]
    with pytest.raises(ValidationError):
        list(bot_list(filters={"game": "chess"}))


def test_ladder_for_game_ranks_over_the_whole_ladder():
    for n in range(4):
        RatingFactory(mu=20 + n, sigma=1, score=17 + n)
    RatingFactory(mu=40, sigma=1, score=37, current=False)  # a bot's older version
    ladder = ladder_for_game(game="lie21")

    assert [rating.rank for rating in ladder[2:4]] == [3, 4]
    assert [rating.score for rating in ladder] == [20, 19, 18, 17]


def test_ladder_for_game_refuses_an_unknown_game():
    with pytest.raises(NotFound):
        ladder_for_game(game="chess")


@pytest.mark.parametrize("rows", [3, 30])
def test_rendering_a_match_list_page_takes_two_queries(rows):
    """The matches, then every seat of them with its bot, owner and version: whatever the
    number of rows and of seats."""
    versions = [BotVersionFactory(bot__game="highcard") for _ in range(4)]
    for n in range(rows):
        seats = 2 + n % 3
        MatchFactory(versions=versions[:seats], game="highcard", placings=tuple(range(seats)))

    with CaptureQueriesContext(connection) as queries:
        shown = [
            [(s.bot.owner.username, s.bot.name, s.version.number, s.placing) for s in m.seats.all()]
            for m in match_list_with_replay()
        ]

    assert [len(seats) for seats in shown] == [2 + n % 3 for n in reversed(range(rows))]
    assert len(queries) == 2


def test_match_list_with_replay_flags_the_matches_with_one():
    with_replay, without = ReplayFactory().match, MatchFactory()

    flags = {m.pk: m.has_replay for m in match_list_with_replay()}

    assert flags == {with_replay.pk: True, without.pk: False}


def test_match_list_filters_by_bot_in_any_seat_and_by_version():
    versions = [BotVersionFactory(bot__game="highcard") for _ in range(3)]
    three = MatchFactory(versions=versions, game="highcard", placings=(2, 0, 1))
    two = MatchFactory(versions=versions[:2], game="highcard", placings=(0, 1))

    by_bot = match_list(filters={"bot": str(versions[2].bot_id)})
    by_version = match_list(filters={"version": str(versions[0].pk)})

    assert [m.pk for m in by_bot] == [three.pk]
    assert [m.pk for m in by_version] == [two.pk, three.pk]


def test_match_log_list_is_for_owners_and_staff(owner, other_user, staff):
    mine = BotVersionFactory(bot=BotFactory(owner=owner))
    log = MatchLogFactory(match=MatchFactory(versions=[mine, BotVersionFactory()]))
    match = match_list().get(pk=log.match_id)

    assert list(match_log_list(match=match, user=owner)) == [log]
    assert list(match_log_list(match=match, user=staff)) == [log]
    with pytest.raises(Forbidden):
        match_log_list(match=match, user=other_user)


def test_game_list_reads_the_registry():
    games = game_list()

    assert [game.name for game in games] == list(GAMES)
    highcard = game_get(name="highcard")
    assert (highcard.min_players, highcard.max_players, highcard.options) == (2, 4, {"games": 3})
    with pytest.raises(NotFound) as unknown:
        game_get(name="chess")
    assert unknown.value.code == "unknown_game"


def test_version_rating_history_is_capped_oldest_first():
    versions = [BotVersionFactory(bot__game="highcard") for _ in range(2)]
    for version in versions:
        RatingFactory(version=version)
    matches = [MatchFactory(versions=versions, game="highcard", placings=(0, 1)) for _ in range(3)]
    for match in matches:
        RatingHistory.objects.create(
            version=versions[0],
            bot=versions[0].bot,
            game="highcard",
            match=match,
            mu=25,
            sigma=8,
            score=1,
        )

    points = version_rating_history(version=versions[0], limit=2)

    assert [point.match_id for point in points] == [matches[1].pk, matches[2].pk]
    assert version_rating(version=versions[0]).version_id == versions[0].pk
    assert version_rating_history(version=versions[1]) == []


def test_version_source_is_for_the_owner(owner, other_user):
    version = BotVersionFactory(bot=BotFactory(owner=owner))

    assert version_source(version=version, user=owner).startswith(b"def act")
    with pytest.raises(Forbidden):
        version_source(version=version, user=other_user)


def test_replay_bytes_says_which_is_missing():
    match = MatchFactory()

    with pytest.raises(NotFound) as no_replay:
        replay_bytes(match_id=match.pk)
    with pytest.raises(NotFound) as no_match:
        replay_bytes(match_id=match.pk + 1)

    assert (no_replay.value.code, no_match.value.code) == ("no_replay", "not_found")


def test_match_rows_keep_the_order_asked_and_read_two_queries(django_assert_num_queries):
    versions = [BotVersionFactory(bot__game="highcard") for _ in range(3)]
    three = MatchFactory(versions=versions, game="highcard", placings=(2, 0, 1))
    two = ReplayFactory(match=MatchFactory()).match

    with django_assert_num_queries(2):
        rows = match_rows(match_ids=[two.pk, 424242, three.pk])

    assert [row["id"] for row in rows] == [two.pk, three.pk]  # a missing id is left out
    assert [row["has_replay"] for row in rows] == [True, False]
    assert "replay_key" not in rows[0]
    assert [seat["seat"] for seat in rows[1]["seats"]] == [0, 1, 2]
    assert [seat["placing"] for seat in rows[1]["seats"]] == [2, 0, 1]
    assert rows[1]["seats"][0]["bot__name"] == versions[0].bot.name


def test_ladder_rows_rank_over_the_whole_ladder_in_two_queries(django_assert_num_queries):
    ratings = [RatingFactory(mu=20 + n, sigma=1, score=17 + n) for n in range(5)]
    RatingFactory(mu=40, sigma=1, score=37, current=False)  # an older version: not listed

    with django_assert_num_queries(2):
        rows = ladder_rows(game="lie21", offset=1, limit=2)

    assert [(row["rank"], row["id"]) for row in rows] == [(2, ratings[3].pk), (3, ratings[2].pk)]
    assert ladder_count(game="lie21") == 5
    with pytest.raises(NotFound):
        ladder_rows(game="chess", offset=0, limit=1)
