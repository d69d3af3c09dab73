"""Matches: lists and filters, results, replays (public, no bot output) and private logs."""

from __future__ import annotations

import gzip
import json

import pytest

from arena.models import Match, MatchLog, Replay
from arena.selectors.matches import match_list
from engine import InProcessPlayer, builtin_bot, play_match
from engine.replay import dumps
from tests.arena.factories import (
    BotFactory,
    BotVersionFactory,
    MatchFactory,
    MatchLogFactory,
    ReplayFactory,
    TournamentFactory,
    UserFactory,
)
from tests.arena.helpers import assert_error, client_for


@pytest.fixture
def alpha(owner):
    return BotVersionFactory(bot=BotFactory(owner=owner, name="alpha")).bot


@pytest.fixture
def gamma():
    return BotVersionFactory(bot=BotFactory(owner=UserFactory(username="carol"), name="gamma")).bot


def between(a, b, **fields) -> Match:
    return MatchFactory(version_a=a.active_version, version_b=b.active_version, **fields)


def ids(response) -> list[int]:
    assert response.status_code == 200, response.content[:300]
    return [row["id"] for row in response.json()["results"]]


def test_it_lists_matches_newest_first(anon_client, alpha, gamma):
    first, second = between(alpha, gamma), between(gamma, alpha)

    assert ids(anon_client.get("/api/matches/")) == [second.pk, first.pk]


def test_it_filters_by_bot_in_either_seat(anon_client, alpha, gamma):
    other = BotVersionFactory().bot
    as_a, as_b, unrelated = between(alpha, gamma), between(gamma, alpha), between(gamma, other)

    assert set(ids(anon_client.get(f"/api/matches/?bot={alpha.pk}"))) == {as_a.pk, as_b.pk}
    assert unrelated.pk in ids(anon_client.get(f"/api/matches/?bot={other.pk}"))


def test_it_filters_by_tournament_status_game_and_kind(anon_client, alpha, gamma):
    cup = TournamentFactory()
    ladder = between(alpha, gamma)
    in_cup = between(alpha, gamma, tournament=cup, kind=Match.Kind.TOURNAMENT)
    queued = between(alpha, gamma, status=Match.Status.QUEUED, outcome="")

    assert ids(anon_client.get(f"/api/matches/?tournament={cup.pk}")) == [in_cup.pk]
    assert ids(anon_client.get("/api/matches/?status=queued")) == [queued.pk]
    assert set(ids(anon_client.get("/api/matches/?kind=ladder"))) == {ladder.pk, queued.pk}
    assert len(ids(anon_client.get("/api/matches/?game=lie21&kind=tournament"))) == 1


@pytest.mark.parametrize(
    ("query", "field"),
    [("bot=abc", "bot"), ("status=won", "status"), ("bot=99999999999999999999", "bot")],
)
def test_it_refuses_a_bad_filter_value(anon_client, query, field):
    body = assert_error(anon_client.get(f"/api/matches/?{query}"), 400)

    assert field in body["fields"]


def test_it_shows_a_match_result_with_both_bots_and_versions(anon_client, alpha, gamma):
    match = between(alpha, gamma)
    ReplayFactory(match=match)

    body = anon_client.get(f"/api/matches/{match.pk}/").json()

    assert body["bot_a"] == {"id": alpha.pk, "name": "alpha", "owner": "alice"}
    assert body["bot_b"] == {"id": gamma.pk, "name": "gamma", "owner": "carol"}
    assert (body["version_a"], body["version_b"]) == (1, 1)
    assert body["status"] == "done"
    assert (body["outcome"], body["winner"], body["reason"]) == ("a", alpha.pk, "match_points")
    assert body["match_points"] == [7, 3]
    assert body["game_wins"] == [4, 2]
    assert body["points"] == [420, 300]
    assert body["sweeps"] == [0, 0]
    assert body["games_played"] == 6
    assert body["error"] is None
    assert body["duration_s"] == 1.5
    assert body["has_replay"] is True
    assert "failure_reason" not in body  # the platform's own trouble is for staff


def test_it_shows_a_bot_fault_that_ended_a_match(anon_client, alpha, gamma):
    match = between(
        alpha,
        gamma,
        outcome="b",
        reason="error",
        error_kind="timeout",
        error_seat=0,
        error_detail="the bot took 3.2 s for one move",
    )

    body = anon_client.get(f"/api/matches/{match.pk}/").json()

    assert body["winner"] == gamma.pk
    assert body["error"] == {
        "kind": "timeout",
        "seat": 0,
        "detail": "the bot took 3.2 s for one move",
    }


def test_a_queued_match_has_no_result_yet(anon_client, alpha, gamma):
    match = between(alpha, gamma, status=Match.Status.QUEUED, outcome="", reason="")

    body = anon_client.get(f"/api/matches/{match.pk}/").json()

    assert (body["outcome"], body["winner"], body["reason"], body["has_replay"]) == (
        None,
        None,
        None,
        False,
    )
    assert_error(anon_client.get(f"/api/matches/{match.pk}/replay/"), 404, "no_replay")


def test_it_answers_404_for_a_missing_match(anon_client):
    assert_error(anon_client.get("/api/matches/424242/"), 404, "not_found")
    assert_error(anon_client.get("/api/matches/424242/replay/"), 404, "not_found")


def test_it_passes_the_stored_gzip_through_to_clients_that_accept_it(anon_client, alpha, gamma):
    replay = ReplayFactory(match=between(alpha, gamma))

    response = anon_client.get(
        f"/api/matches/{replay.match_id}/replay/", HTTP_ACCEPT_ENCODING="gzip, deflate"
    )

    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert response["Content-Type"] == "application/json"
    assert "Accept-Encoding" in response["Vary"]
    assert response.content == bytes(replay.data)
    assert json.loads(gzip.decompress(response.content))["seed"] == replay.match.seed


@pytest.mark.parametrize("accept", [None, "identity", "gzip;q=0"])
def test_it_decompresses_for_clients_that_do_not_accept_gzip(anon_client, alpha, gamma, accept):
    replay = ReplayFactory(match=between(alpha, gamma))
    headers = {"HTTP_ACCEPT_ENCODING": accept} if accept else {}

    response = anon_client.get(f"/api/matches/{replay.match_id}/replay/", **headers)

    assert "Content-Encoding" not in response
    assert response.json()["players"] == ["alpha", "gamma"]


PRINTING_BOT = """
_original_act = act

def act(observation):
    print("SECRET-PLAN-42: always bluff on the third trick")
    if observation.get("game_number", 1) >= 2:
        raise ValueError("SECRET-TRACE-7")
    return _original_act(observation)
"""


def test_a_replay_never_contains_a_bot_s_own_output(
    anon_client, owner_client, alpha, gamma, tmp_path
):
    """A real match, stored as the worker stores it: output and traceback go to MatchLog only."""
    printing = tmp_path / "printing_bot.py"
    printing.write_text(builtin_bot("lie21", "random").read_text() + PRINTING_BOT)
    players = [
        InProcessPlayer("alpha", printing),
        InProcessPlayer("gamma", builtin_bot("lie21", "random")),
    ]
    result = play_match("lie21", players, seed=7)
    assert result.error is not None and "SECRET-TRACE-7" in result.error.private
    match = between(alpha, gamma, outcome="b", reason="error", error_kind=result.error.kind)
    Replay.objects.create(match=match, data=dumps(result.replay), size=1, format=1)
    MatchLog.objects.create(
        match=match, seat=0, bot=alpha, output=players[0].output(), traceback=result.error.private
    )

    replay = anon_client.get(f"/api/matches/{match.pk}/replay/")
    logs = owner_client.get(f"/api/matches/{match.pk}/logs/")

    assert replay.status_code == 200
    assert replay.json()["result"]["error"]["kind"] == "crash"
    assert "SECRET" not in replay.content.decode()
    assert "SECRET-PLAN-42" in logs.json()["results"][0]["output"]
    assert "SECRET-TRACE-7" in logs.json()["results"][0]["traceback"]


class TestLogs:
    @pytest.fixture
    def match(self, alpha, gamma):
        match = between(alpha, gamma)
        MatchLogFactory(match=match, seat=0, output="alpha says hi")
        MatchLogFactory(match=match, seat=1, output="gamma says hi")
        return match

    def test_it_shows_the_owner_only_their_own_bot_s_log(self, owner_client, match):
        body = owner_client.get(f"/api/matches/{match.pk}/logs/").json()

        assert [(row["seat"], row["output"]) for row in body["results"]] == [(0, "alpha says hi")]
        assert body["results"][0]["bot"]["name"] == "alpha"

    def test_it_shows_an_owner_of_both_bots_both_logs(self, owner, match):
        Match.objects.filter(pk=match.pk).update(bot_b=match.bot_a)  # alice plays herself
        MatchLog.objects.filter(match=match, seat=1).update(bot=match.bot_a)

        body = client_for(owner).get(f"/api/matches/{match.pk}/logs/").json()

        assert [row["seat"] for row in body["results"]] == [0, 1]

    def test_it_shows_staff_every_log(self, staff_client, match):
        body = staff_client.get(f"/api/matches/{match.pk}/logs/").json()

        assert [row["output"] for row in body["results"]] == ["alpha says hi", "gamma says hi"]

    def test_it_refuses_a_user_who_owns_neither_bot(self, other_client, match):
        body = assert_error(other_client.get(f"/api/matches/{match.pk}/logs/"), 403)

        assert "says hi" not in json.dumps(body)

    def test_it_wants_authentication(self, anon_client, match):
        assert_error(anon_client.get(f"/api/matches/{match.pk}/logs/"), 401, "not_authenticated")

    def test_no_public_match_view_carries_a_log(self, anon_client, match):
        ReplayFactory(match=match)
        for path in (
            "/api/matches/",
            f"/api/matches/{match.pk}/",
            f"/api/matches/{match.pk}/replay/",
        ):
            assert "says hi" not in anon_client.get(path).content.decode()


@pytest.mark.parametrize("rows", [5, 50])
def test_the_match_list_costs_the_same_queries_for_any_page_size(
    anon_client, django_assert_max_num_queries, rows
):
    a, b = BotVersionFactory().bot, BotVersionFactory().bot
    for _ in range(rows):
        between(a, b, tournament=TournamentFactory(), kind=Match.Kind.TOURNAMENT)

    with django_assert_max_num_queries(3):  # auth token lookup is not needed: anonymous
        response = anon_client.get(f"/api/matches/?page_size={rows}")

    assert len(response.json()["results"]) == rows


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"status": Match.Status.QUEUED, "outcome": "", "reason": "", "finished_at": None},
        {"outcome": "draw", "reason": "game_cap"},
    ],
)
def test_the_list_s_written_out_representation_is_the_declared_one(alpha, gamma, fields):
    from rest_framework import serializers

    from arena.api.matches import MatchOutputSerializer

    match = match_list().get(pk=between(alpha, gamma, tournament=TournamentFactory(), **fields).pk)
    serializer = MatchOutputSerializer()

    assert serializer.to_representation(match) == serializers.Serializer.to_representation(
        serializer, match
    )
