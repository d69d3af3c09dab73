"""IdsFirstPaginator: same pages as Django's Paginator, fewer costs."""

from __future__ import annotations

import pytest
from django.core.paginator import Paginator

from arena.models import Match
from arena.selectors.matches import match_list
from arena.selectors.pagination import IdsFirstPaginator
from tests.arena.factories import BotVersionFactory, MatchFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def matches() -> list[Match]:
    a, b = BotVersionFactory().bot, BotVersionFactory().bot
    return [MatchFactory(versions=[a.active_version, b.active_version]) for _ in range(7)]


@pytest.mark.parametrize(("per_page", "orphans"), [(3, 0), (3, 1), (7, 0), (10, 2)])
def test_it_pages_like_django_s_paginator(matches, per_page, orphans):
    ours = IdsFirstPaginator(match_list(), per_page, orphans=orphans)
    django = Paginator(match_list(), per_page, orphans=orphans)

    assert ours.num_pages == django.num_pages
    for number in ours.page_range:
        assert list(ours.page(number)) == list(django.page(number))


def test_it_loads_a_page_in_three_queries_after_the_count(matches, django_assert_num_queries):
    paginator = IdsFirstPaginator(match_list(), 5)
    assert paginator.count == 7

    with django_assert_num_queries(3):  # the ids, the rows, their seats
        names = [[s.bot.owner.username for s in m.seats.all()] for m in paginator.page(2)]

    assert [len(seats) for seats in names] == [2, 2]


def test_it_keeps_the_count_for_a_while(matches, django_assert_num_queries):
    IdsFirstPaginator(match_list(), 5).count  # noqa: B018
    MatchFactory()

    with django_assert_num_queries(0):
        assert IdsFirstPaginator(match_list(), 5).count == 7
    assert IdsFirstPaginator(match_list(filters={"status": "done"}), 5).count == 8  # new query
