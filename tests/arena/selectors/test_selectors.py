"""Selectors the pages will reuse: filters, visibility rules, constant query counts."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from arena.selectors.bots import bot_list, version_source
from arena.selectors.ladder import ladder_for_game
from arena.selectors.matches import match_list, match_log_list, replay_bytes
from arena.services.errors import Forbidden, NotFound
from tests.arena.factories import (
    BotFactory,
    BotVersionFactory,
    MatchFactory,
    MatchLogFactory,
    RatingFactory,
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

    ladder = ladder_for_game(game="lie21")

    assert [rating.rank for rating in ladder[2:4]] == [3, 4]
    assert [rating.score for rating in ladder] == [20, 19, 18, 17]


def test_ladder_for_game_refuses_an_unknown_game():
    with pytest.raises(NotFound):
        ladder_for_game(game="chess")


@pytest.mark.parametrize("rows", [3, 30])
def test_rendering_a_match_list_page_takes_one_query(rows):
    a, b = BotVersionFactory().bot, BotVersionFactory().bot
    for _ in range(rows):
        MatchFactory(version_a=a.active_version, version_b=b.active_version)

    with CaptureQueriesContext(connection) as queries:
        shown = [
            (m.bot_a.owner.username, m.bot_b.name, m.version_a.number, m.version_b.number)
            for m in match_list()
        ]

    assert len(shown) == rows
    assert len(queries) == 1


def test_match_log_list_is_for_owners_and_staff(owner, other_user, staff):
    log = MatchLogFactory(match__version_a__bot__owner=owner)
    match = match_list().get(pk=log.match_id)

    assert list(match_log_list(match=match, user=owner)) == [log]
    assert list(match_log_list(match=match, user=staff)) == [log]
    with pytest.raises(Forbidden):
        match_log_list(match=match, user=other_user)


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
