"""Tournaments: read by all, created, started and cancelled by staff; standings contract."""

from __future__ import annotations

import pytest

from arena.models import Match, Tournament
from tests.arena.factories import BotFactory, BotVersionFactory, TournamentFactory, UserFactory
from tests.arena.helpers import assert_error


@pytest.fixture
def bots(owner):
    """Three bots with valid versions, so a tournament can start."""
    return [
        BotVersionFactory(bot=BotFactory(owner=owner, name="alpha")).bot,
        BotVersionFactory(bot=BotFactory(owner=UserFactory(username="carol"), name="gamma")).bot,
        BotVersionFactory(bot=BotFactory(owner=UserFactory(username="dave"), name="delta")).bot,
    ]


def test_staff_create_a_tournament(staff_client):
    response = staff_client.post(
        "/api/tournaments/", {"name": "Spring cup", "seed": 42}, format="json"
    )

    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["name"], body["game"], body["status"], body["seed"]) == (
        "Spring cup",
        "lie21",
        "pending",
        42,
    )
    assert (body["created_by"], body["entries"]) == ("olga", 0)


def test_a_tournament_gets_a_random_seed_when_none_is_given(staff_client):
    body = staff_client.post("/api/tournaments/", {"name": "Cup"}, format="json").json()

    assert isinstance(body["seed"], int)


@pytest.mark.parametrize(
    ("body", "field"),
    [({}, "name"), ({"name": "x", "seed": -1}, "seed"), ({"name": "x", "game": "go"}, "game")],
)
def test_it_refuses_invalid_tournaments(staff_client, body, field):
    assert (
        field
        in assert_error(staff_client.post("/api/tournaments/", body, format="json"), 400)["fields"]
    )


def test_staff_start_a_pending_tournament(staff_client, bots):
    tournament = TournamentFactory()

    response = staff_client.post(f"/api/tournaments/{tournament.pk}/start/")

    assert response.status_code == 200, response.json()
    assert (response.json()["status"], response.json()["entries"]) == ("running", 3)
    assert Match.objects.filter(tournament=tournament).count() == 3


def test_starting_twice_is_a_conflict(staff_client, bots):
    tournament = TournamentFactory()
    staff_client.post(f"/api/tournaments/{tournament.pk}/start/")

    body = assert_error(staff_client.post(f"/api/tournaments/{tournament.pk}/start/"), 409)

    assert body["code"] == "not_pending"


def test_starting_without_enough_bots_is_a_conflict(staff_client):
    tournament = TournamentFactory()

    assert_error(
        staff_client.post(f"/api/tournaments/{tournament.pk}/start/"), 409, "too_few_participants"
    )


def test_staff_cancel_a_tournament_once(staff_client):
    tournament = TournamentFactory()

    first = staff_client.post(f"/api/tournaments/{tournament.pk}/cancel/")
    second = staff_client.post(f"/api/tournaments/{tournament.pk}/cancel/")

    assert first.json()["status"] == "cancelled"
    assert_error(second, 409, "not_cancellable")


def test_actions_on_a_missing_tournament_are_404(staff_client):
    for action in ("start", "cancel"):
        assert_error(staff_client.post(f"/api/tournaments/404/{action}/"), 404, "not_found")
    assert_error(staff_client.get("/api/tournaments/404/standings/"), 404, "not_found")


def test_it_lists_and_filters_tournaments(anon_client):
    TournamentFactory(name="Old", status=Tournament.Status.FINISHED)
    TournamentFactory(name="New")

    names = [t["name"] for t in anon_client.get("/api/tournaments/").json()["results"]]
    pending = anon_client.get("/api/tournaments/?status=pending").json()["results"]

    assert names == ["New", "Old"]
    assert [t["name"] for t in pending] == ["New"]


def test_the_standings_follow_the_contract(staff_client, anon_client, bots):
    tournament = TournamentFactory()
    staff_client.post(f"/api/tournaments/{tournament.pk}/start/")
    first = Match.objects.filter(tournament=tournament).order_by("id").first()
    Match.objects.filter(pk=first.pk).update(
        status="done", outcome="a", reason="match_points", match_points_a=7, match_points_b=2
    )

    body = anon_client.get(f"/api/tournaments/{tournament.pk}/standings/").json()

    assert set(body) == {
        "tournament",
        "status",
        "matches_total",
        "matches_done",
        "rows",
        "crosstable",
    }
    assert (body["tournament"], body["status"]) == (tournament.pk, "running")
    assert (body["matches_total"], body["matches_done"]) == (3, 1)
    assert [row["rank"] for row in body["rows"]] == [1, 2, 3]
    row = body["rows"][0]
    assert set(row) == {
        "rank",
        "bot",
        "version",
        "played",
        "match_points",
        "match_wins",
        "draws",
        "losses",
        "points",
    }
    assert set(row["bot"]) == {"id", "name", "owner"}
    assert body["crosstable"]["bots"] == [row["bot"]["id"] for row in body["rows"]]
    winner, loser = first.bot_a_id, first.bot_b_id
    cell = body["crosstable"]["cells"][f"{winner}-{loser}"]
    assert cell == {"match": first.pk, "status": "done", "result": "win", "match_points": [7, 2]}
    assert body["crosstable"]["cells"][f"{loser}-{winner}"]["result"] == "loss"


def test_a_pending_tournament_has_empty_standings(anon_client):
    tournament = TournamentFactory()

    body = anon_client.get(f"/api/tournaments/{tournament.pk}/standings/").json()

    assert (body["matches_total"], body["rows"]) == (0, [])


def test_a_pending_tournaments_seed_is_kept_from_all_but_staff(staff_client, anon_client, bots):
    tournament = TournamentFactory(seed=1234)
    url = f"/api/tournaments/{tournament.pk}/"
    assert anon_client.get(url).json()["seed"] is None
    assert anon_client.get("/api/tournaments/").json()["results"][0]["seed"] is None
    assert staff_client.get(url).json()["seed"] == 1234
    staff_client.post(f"/api/tournaments/{tournament.pk}/start/")
    assert anon_client.get(url).json()["seed"] == 1234  # versions are frozen now
