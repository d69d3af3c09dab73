"""The admin: every model has a changelist that loads, in a constant number of queries."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from arena.models import BotVersion, RatingHistory
from tests.arena.factories import (
    BotVersionFactory,
    MatchFactory,
    MatchLogFactory,
    RatingFactory,
    ReplayFactory,
    TournamentEntryFactory,
    TournamentScheduleFactory,
)

MODELS = [
    "bot",
    "botversion",
    "match",
    "matchseat",
    "replay",
    "matchlog",
    "rating",
    "ratinghistory",
    "tournament",
    "tournamententry",
    "tournamentschedule",
]


@pytest.fixture
def admin_client(client, db):
    user = get_user_model().objects.create_superuser("root", "root@example.com", "root-pass-1")
    client.force_login(user)
    return client


def populate(rows: int) -> None:
    for n in range(rows):
        if n % 2:
            versions = [BotVersionFactory(bot__game="highcard") for _ in range(3)]
            match = MatchFactory(versions=versions, game="highcard", placings=(1, 0, 2))
        else:
            match = MatchFactory()
        log = MatchLogFactory(match=match)
        ReplayFactory(match=match)
        seats = list(match.seats.order_by("seat"))
        RatingFactory(version=seats[0].version)
        RatingHistory.objects.create(
            version=seats[0].version,
            bot=seats[0].bot,
            game=match.game,
            match=match,
            mu=25,
            sigma=8,
            score=1,
        )
        TournamentEntryFactory(version=seats[1].version)
        TournamentScheduleFactory()
        assert log.bot_id == seats[0].bot_id


@pytest.mark.parametrize("model", MODELS)
def test_each_changelist_loads_in_constant_queries(
    admin_client, django_assert_max_num_queries, model
):
    url = reverse(f"admin:arena_{model}_changelist")
    populate(2)
    with django_assert_max_num_queries(30) as small:
        assert admin_client.get(url).status_code == 200
    populate(8)

    with django_assert_max_num_queries(len(small.captured_queries)):
        assert admin_client.get(url).status_code == 200


def test_versions_cannot_be_added_or_edited_by_hand(admin_client):
    log = MatchLogFactory()
    version = BotVersion.objects.get(pk=log.match.seats.get(seat=0).version_id)

    assert admin_client.get(reverse("admin:arena_botversion_add")).status_code == 403
    page = admin_client.get(reverse("admin:arena_botversion_change", args=[version.pk]))

    assert page.status_code == 200
    assert b'name="sha256"' not in page.content  # shown, not editable


def test_a_replay_page_links_to_the_document_instead_of_dumping_bytes(admin_client):
    replay = ReplayFactory()

    page = admin_client.get(reverse("admin:arena_replay_change", args=[replay.pk]))

    assert page.status_code == 200
    assert f"/api/matches/{replay.match_id}/replay/".encode() in page.content
