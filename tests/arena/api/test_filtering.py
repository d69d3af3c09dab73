"""arena.api.filtering.FilterBackend: a list request naming no filter skips django-filter's
filter set; one naming any goes through it, strict as before."""

from __future__ import annotations

import pytest

from arena.models import Match
from arena.selectors.filters import BotFilter, MatchFilter, apply_filters
from tests.arena.helpers import assert_error
from tests.arena.web.data import bot_make, match_record, user_make

pytestmark = pytest.mark.django_db


@pytest.fixture
def filter_sets_built(monkeypatch):
    built = []
    for filterset in (MatchFilter, BotFilter):
        real = filterset.__init__

        def counting(self, *args, real=real, **kwargs):
            built.append(type(self).__name__)
            real(self, *args, **kwargs)

        monkeypatch.setattr(filterset, "__init__", counting)
    return built


@pytest.fixture
def two_matches():
    alpha, beta = bot_make(user_make("alice"), name="alpha"), bot_make(user_make("bob"))
    gamma = bot_make(user_make("carol"), name="gamma")
    return match_record(alpha, beta), match_record(beta, gamma), alpha


def test_a_page_without_filters_builds_no_filter_set(anon_client, filter_sets_built, two_matches):
    for path in ("/api/matches/", "/api/matches/?page=1", "/api/bots/?page_size=5"):
        response = anon_client.get(path)
        assert response.status_code == 200, path
    assert filter_sets_built == []
    assert [row["id"] for row in anon_client.get("/api/matches/").json()["results"]] == [
        two_matches[1].pk,
        two_matches[0].pk,
    ]


def test_a_filter_named_goes_through_the_filter_set(anon_client, filter_sets_built, two_matches):
    first, _, alpha = two_matches
    response = anon_client.get(f"/api/matches/?bot={alpha.pk}&page=1")
    assert [row["id"] for row in response.json()["results"]] == [first.pk]
    assert filter_sets_built == ["MatchFilter"]
    assert_error(anon_client.get("/api/matches/?status="), 400)
    assert_error(anon_client.get("/api/matches/?bot=abc"), 400)
    assert anon_client.get("/api/bots/?search=alp").json()["count"] == 1


def test_apply_filters_without_filters_is_the_queryset(filter_sets_built, two_matches):
    queryset = Match.objects.order_by("-id")
    assert apply_filters(MatchFilter, queryset, {}) is queryset
    assert apply_filters(MatchFilter, queryset, None) is queryset
    assert filter_sets_built == []
    narrowed = apply_filters(MatchFilter, queryset, {"bot": str(two_matches[2].pk)})
    assert list(narrowed) == [two_matches[0]]
