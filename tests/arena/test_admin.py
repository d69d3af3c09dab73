"""The admin: every model staff see (``STAFF_MODELS``) has a changelist that loads, in a
constant number of queries."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from arena.models import BotVersion, RatingHistory, Tournament
from arena.services.accounts import STAFF_MODELS
from tests.arena.factories import (
    BotVersionFactory,
    MatchFactory,
    MatchLogFactory,
    RatingFactory,
    ReplayFactory,
    TournamentEntryFactory,
    TournamentScheduleFactory,
)


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


@pytest.mark.parametrize("model", STAFF_MODELS)
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


def _tournament_form(**fields):
    return {
        "name": "Open",
        "game": "lie21",
        "format": "swiss",
        "seed": 5,
        "matches_per_pairing": 1,
        "rated": "on",
        "byes": "[]",
        "entry": "all",
        "entries-TOTAL_FORMS": 0,
        "entries-INITIAL_FORMS": 0,
        "signups-TOTAL_FORMS": 0,
        "signups-INITIAL_FORMS": 0,
        **fields,
    }


def test_the_admin_saves_a_swiss_with_its_options(admin_client):
    response = admin_client.post(
        reverse("admin:arena_tournament_add"), _tournament_form(rounds=3, matches_per_pairing=2)
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert (tournament.format, tournament.rounds, tournament.matches_per_pairing) == ("swiss", 3, 2)


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"format": "round_robin", "rounds": 3}, "rounds are set for Swiss tournaments only"),
        (
            {"game": "liars", "format": "double_elimination", "table_size": 4},
            "double elimination is played at two seats",
        ),
        ({"game": "lie21", "table_size": 3}, "this game is played at tables of 2 seats"),
        ({"matches_per_pairing": 0}, "matches per pairing must be 1-20"),
        ({"entry": "signup"}, "a sign-up tournament needs a deadline"),
        ({"entry": "top"}, "the top of the ladder needs an entry limit"),
    ],
)
def test_the_admin_refuses_options_the_services_refuse(admin_client, fields, error):
    response = admin_client.post(reverse("admin:arena_tournament_add"), _tournament_form(**fields))
    assert response.status_code == 200
    assert error in response.content.decode()
    assert not Tournament.objects.exists()
