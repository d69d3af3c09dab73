"""/api/challenges/: an owner challenges rivals; the verdict; who sees it; the quota's 429."""

from __future__ import annotations

import pytest

from arena.models import Challenge, Match
from tests.arena.factories import BotFactory, BotVersionFactory, UserFactory
from tests.arena.helpers import assert_error, client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def mine(owner):
    return BotVersionFactory(bot=BotFactory(owner=owner, name="mine"))


@pytest.fixture
def rival(other_user):
    return BotVersionFactory(bot=BotFactory(owner=other_user, name="rival"))


def _ask(client, mine, rival, matches=4):
    body = {"version": mine.pk, "rivals": [rival.pk], "matches": matches}
    return client.post("/api/challenges/", body, format="json")


def _finish(challenge_id: int, mine, placings_of_mine: list[int]) -> None:
    """Record results by hand: the challenger placed ``placings_of_mine`` in turn."""
    for match, placing in zip(
        Match.objects.filter(challenge_id=challenge_id).order_by("id"),
        placings_of_mine,
        strict=True,
    ):
        for seat in match.seats.all():
            seat.placing = placing if seat.version_id == mine.pk else 1 - placing
            seat.save()
        match.status = Match.Status.DONE
        match.save()


def test_it_queues_unrated_matches_and_reports_the_score_with_its_interval(
    owner_client, mine, rival
):
    response = _ask(owner_client, mine, rival)
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["kind"] == "challenge" and body["version"]["id"] == mine.pk
    assert [r["id"] for r in body["rivals"]] == [rival.pk]
    assert body["rivals"][0]["bot"]["name"] == "rival"
    assert len(body["matches"]) == 4
    assert body["summary"]["open"] == 4 and body["summary"]["score"] is None
    assert not Match.objects.filter(challenge_id=body["id"], ranked=True).exists()

    _finish(body["id"], mine, [0, 0, 0, 1])
    summary = owner_client.get(f"/api/challenges/{body['id']}/").json()["summary"]
    assert summary["done"] and summary["played"] == 4
    assert summary["score"] == pytest.approx(0.75)
    assert summary["low"] < 0.75 < summary["high"]
    assert (summary["wins"], summary["losses"]) == (3, 1)
    assert summary["significant"] is False, "four matches cannot tell 75% from 50%"


def test_the_challenger_the_rivals_owner_and_staff_see_it_nobody_else(
    owner_client, other_client, staff_client, mine, rival
):
    challenge_id = _ask(owner_client, mine, rival).json()["id"]
    for client in (owner_client, other_client, staff_client):
        assert client.get(f"/api/challenges/{challenge_id}/").status_code == 200
        assert [c["id"] for c in client.get("/api/challenges/").json()["results"]] == [challenge_id]
    stranger = client_for(UserFactory())
    assert_error(stranger.get(f"/api/challenges/{challenge_id}/"), 404, "not_found")
    assert stranger.get("/api/challenges/").json()["results"] == []
    assert_error(client_for(None).get(f"/api/challenges/{challenge_id}/"), 401)


def test_only_the_owner_challenges_with_its_version(other_client, mine, rival):
    assert_error(_ask(other_client, mine, rival), 403)
    assert not Challenge.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"rivals": [1], "matches": 2}, "version"),
        ({"version": 1, "rivals": [], "matches": 2}, "rivals"),
        ({"version": 1, "rivals": ["x"], "matches": 2}, "rivals"),
        ({"version": 1, "rivals": [2, 0], "matches": 2}, "rivals"),
        ({"version": 1, "rivals": [2], "matches": 0}, "matches"),
        ({"version": 1, "rivals": [2], "matches": 101}, "matches"),
        ({"version": "1", "rivals": [2], "matches": 2}, "version"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(owner_client, body, field):
    body = assert_error(owner_client.post("/api/challenges/", body, format="json"), 400)
    assert field in body["fields"]
    messages = body["fields"][field]
    assert isinstance(messages, list) and all(isinstance(m, str) for m in messages), "flat"
    assert not Challenge.objects.exists()


def test_a_rival_that_is_not_on_the_ladder_is_refused(owner_client, mine, other_user):
    retired = BotVersionFactory(bot=BotFactory(owner=other_user, name="retired", is_active=False))
    assert_error(_ask(owner_client, mine, retired), 400, "rival_not_available")
    assert not Challenge.objects.exists()


def test_past_the_daily_quota_it_is_a_429_and_nothing_is_queued(
    owner_client, mine, rival, settings
):
    settings.ARENA_CHALLENGE_MATCHES_PER_DAY = 6
    assert _ask(owner_client, mine, rival, matches=4).status_code == 201
    response = _ask(owner_client, mine, rival, matches=4)
    body = assert_error(response, 429, "quota")
    assert "2 left" in body["detail"]
    assert 0 < int(response["Retry-After"]) <= 86400
    assert Challenge.objects.count() == 1 and Match.objects.count() == 4
    assert _ask(owner_client, mine, rival, matches=2).status_code == 201, "the rest is usable"
