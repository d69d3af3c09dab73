"""Every page costs the same number of SQL queries with 1 row or with many (no N+1).

Each test renders a page over a small data set and counts the queries, then adds many
more rows of every kind the page lists and renders it again under that count.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from arena.models import Bot, Match, RatingHistory, Tournament
from tests.arena.factories import (
    BotVersionFactory,
    MatchFactory,
    RatingFactory,
    TournamentEntryFactory,
    TournamentFactory,
    TournamentScheduleFactory,
)
from tests.arena.web.data import bot_make, match_record, user_make


def _queries(client: Client, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return len(captured)


def _rated(bot: Bot, *, histories: int = 2) -> None:
    RatingFactory(version=bot.active_version)
    for _ in range(histories):
        match = _play(bot, _opponent(bot.game))
        _history(bot, match)


def _history(bot: Bot, match: Match, score: float = 16) -> None:
    RatingHistory.objects.create(
        version=bot.active_version,
        bot=bot,
        game=bot.game,
        match=match,
        mu=25,
        sigma=3,
        score=score,
    )


def _opponent(game: str = "lie21") -> Bot:
    return bot_make(game=game)


def _play(*bots: Bot, **fields) -> Match:
    """A finished match of these bots' active versions (seat i is bots[i])."""
    placings = tuple(range(len(bots)))
    return MatchFactory(versions=[bot.active_version for bot in bots], placings=placings, **fields)


@pytest.fixture
def alice(db):
    return user_make("alice")


@pytest.fixture
def client(alice) -> Client:
    client = Client()
    client.force_login(alice)
    return client


def _check(client: Client, path: Callable[[], str], grow: Callable[[], None], assert_max) -> None:
    few = _queries(client, path())
    grow()
    with assert_max(few):
        response = client.get(path())
    assert response.status_code == 200


@pytest.mark.slow
def test_home(client, django_assert_max_num_queries) -> None:
    bot = bot_make(name="first")
    _rated(bot)
    TournamentScheduleFactory()
    TournamentFactory(status=Tournament.Status.RUNNING)

    def grow() -> None:
        for _ in range(12):
            _rated(bot_make())
        for _ in range(3):
            TournamentScheduleFactory()
            TournamentFactory(status=Tournament.Status.RUNNING)

    _check(client, lambda: "/", grow, django_assert_max_num_queries)


@pytest.mark.slow
def test_ladder(client, django_assert_max_num_queries) -> None:
    _rated(bot_make(), histories=1)

    def grow() -> None:
        for _ in range(25):
            _rated(bot_make(), histories=3)

    _check(client, lambda: "/games/lie21/", grow, django_assert_max_num_queries)


def test_games_list(client, django_assert_max_num_queries) -> None:
    _rated(bot_make(), histories=1)

    def grow() -> None:
        for _ in range(6):
            _rated(bot_make(), histories=1)
            _rated(bot_make(game="highcard"), histories=1)

    _check(client, lambda: "/games/", grow, django_assert_max_num_queries)


@pytest.mark.parametrize("as_owner", [True, False])
def test_bot_page(client, alice, as_owner, django_assert_max_num_queries) -> None:
    bot = bot_make(alice if as_owner else None, name="subject")
    _rated(bot, histories=1)
    _play(bot, _opponent())

    def grow() -> None:
        for _ in range(6):
            BotVersionFactory(bot=bot, status="invalid", validation_log="x", activate=False)
        opponents = [_opponent() for _ in range(6)]
        for i in range(18):  # in both seats
            seats = (bot, opponents[i % 6]) if i % 2 else (opponents[i % 6], bot)
            _play(*seats)
        for _ in range(5):
            _history(bot, _play(bot, opponents[0]), score=1)

    _check(client, lambda: f"/bots/{bot.pk}/", grow, django_assert_max_num_queries)


@pytest.mark.parametrize("game", ["lie21", "highcard"])
def test_match_page(client, alice, game, django_assert_max_num_queries) -> None:
    mine = bot_make(alice, name="mine", game=game)
    seats = 2 if game == "lie21" else 4
    others = [bot_make(game=game) for _ in range(seats - 1)]
    match = match_record(mine, *others, seed=7, logs=[("out", "")] * seats)

    def grow() -> None:
        for seed in range(10):  # every one recorded with each seat's log
            match_record(mine, *others, seed=8 + seed, logs=[("more", "")] * seats)

    _check(client, lambda: f"/matches/{match.pk}/", grow, django_assert_max_num_queries)


def test_tournament_list(client, django_assert_max_num_queries) -> None:
    TournamentEntryFactory()
    TournamentScheduleFactory()

    def grow() -> None:
        for _ in range(8):
            tournament = TournamentFactory()
            for _ in range(3):
                TournamentEntryFactory(tournament=tournament)
        for _ in range(4):
            TournamentScheduleFactory()

    _check(client, lambda: "/tournaments/", grow, django_assert_max_num_queries)


@pytest.mark.parametrize("status", [Tournament.Status.RUNNING, Tournament.Status.FINISHED])
def test_tournament_detail(client, status, django_assert_max_num_queries) -> None:
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    bots: list[Bot] = []

    def enter(count: int) -> None:
        for _ in range(count):
            bot = bot_make()
            TournamentEntryFactory(tournament=tournament, bot=bot, version=bot.active_version)
            for other in bots:
                _play(bot, other, tournament=tournament, kind="tournament")
            bots.append(bot)

    def finish() -> None:
        if status == Tournament.Status.FINISHED:
            from arena.services.tournaments import tournament_finish

            Tournament.objects.filter(pk=tournament.pk).update(status="running", standings=None)
            tournament_finish(tournament_id=tournament.pk)

    enter(2)
    finish()

    def grow() -> None:
        enter(6)
        finish()

    _check(client, lambda: f"/tournaments/{tournament.pk}/", grow, django_assert_max_num_queries)


@pytest.mark.slow
def test_bot_and_match_lists(client, django_assert_max_num_queries) -> None:
    first = bot_make()
    _play(first, bot_make())

    def grow() -> None:
        for _ in range(8):
            _play(bot_make(), bot_make())
            _play(*(bot_make(game="highcard") for _ in range(4)))
            _play(first, bot_make(), rated=True)

    for path in ("/bots/", "/matches/", f"/matches/?bot={first.pk}", "/"):
        _check(client, lambda path=path: path, grow, django_assert_max_num_queries)
