"""Matches: lists and filters, seats and placings for any table size, replays (public, no
bot output) and private logs."""

from __future__ import annotations

import gzip
import json

import pytest

from arena.models import Match, MatchLog, MatchSeat
from arena.selectors.matches import match_list_with_replay, match_rows
from engine import builtin_bot
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
from tests.arena.recorded import match_played


@pytest.fixture
def alpha(owner):
    return BotVersionFactory(bot=BotFactory(owner=owner, name="alpha")).bot


@pytest.fixture
def gamma():
    return BotVersionFactory(bot=BotFactory(owner=UserFactory(username="carol"), name="gamma")).bot


def between(*bots, **fields) -> Match:
    """A finished match of these bots' active versions, placed in seat order by default."""
    fields.setdefault("placings", tuple(range(len(bots))))
    # MatchFactory's game is its own default (lie21) unless told: name the versions' game.
    fields.setdefault("game", bots[0].game)
    return MatchFactory(versions=[bot.active_version for bot in bots], **fields)


def highcard_match(versions, **fields) -> Match:
    return MatchFactory(versions=versions, game="highcard", **fields)


def highcard_versions(count: int, owner=None) -> list:
    """Valid versions of ``count`` High Card bots (the three-seat test game)."""
    return [
        BotVersionFactory(
            bot=BotFactory(game="highcard", name=f"hc{n}", **({"owner": owner} if owner else {}))
        )
        for n in range(count)
    ]


def ids(response) -> list[int]:
    assert response.status_code == 200, response.content[:300]
    return [row["id"] for row in response.json()["results"]]


def test_it_lists_matches_newest_first(anon_client, alpha, gamma):
    first, second = between(alpha, gamma), between(gamma, alpha)

    assert ids(anon_client.get("/api/matches/")) == [second.pk, first.pk]


def test_a_three_seat_match_is_listed_with_its_three_seats_and_placings(anon_client):
    """A real High Card match of three bots, played and recorded as a worker records it."""
    versions = highcard_versions(3)
    match = match_played(versions, seed=5)
    stored = {seat.seat: seat for seat in MatchSeat.objects.filter(match=match)}

    (row,) = anon_client.get("/api/matches/?game=highcard").json()["results"]

    assert (row["id"], row["game"], row["seat_count"], row["status"]) == (
        match.pk,
        "highcard",
        3,
        "done",
    )
    assert [seat["seat"] for seat in row["seats"]] == [0, 1, 2]
    assert [seat["bot"]["name"] for seat in row["seats"]] == ["hc0", "hc1", "hc2"]
    assert [seat["version"] for seat in row["seats"]] == [1, 1, 1]
    assert [seat["placing"] for seat in row["seats"]] == [stored[s].placing for s in range(3)]
    assert [seat["score"] for seat in row["seats"]] == [stored[s].score for s in range(3)]
    assert 0 in [seat["placing"] for seat in row["seats"]]
    assert row["totals"] == {"firsts": match.totals["firsts"]}
    assert (row["games_played"], row["reason"], row["ranked"]) == (3, "games", True)
    placings = [seat["placing"] for seat in row["seats"]]
    expected = placings.index(0) if placings.count(0) == 1 else None
    assert row["winner"] == expected
    assert row["replay"] == f"http://testserver/api/matches/{match.pk}/replay/"


def test_every_seat_of_a_rated_match_shows_its_rating_change(anon_client):
    match = match_played(highcard_versions(3), seed=9)

    body = anon_client.get(f"/api/matches/{match.pk}/").json()

    for seat in body["seats"]:
        rating = seat["rating"]
        assert (rating["mu_before"], rating["sigma_before"]) == (25.0, pytest.approx(25 / 3))
        assert rating["sigma_after"] < rating["sigma_before"]
        assert rating["mu_delta"] == pytest.approx(rating["mu_after"] - rating["mu_before"])
        conservative = (rating["mu_after"] - 3 * rating["sigma_after"]) - (
            rating["mu_before"] - 3 * rating["sigma_before"]
        )
        assert rating["score_delta"] == pytest.approx(conservative)
    best = min(body["seats"], key=lambda seat: seat["placing"])
    worst = max(body["seats"], key=lambda seat: seat["placing"])
    assert best["rating"]["mu_delta"] > 0 > worst["rating"]["mu_delta"]
    assert body["rated"] is True


def test_it_filters_by_bot_in_any_seat(anon_client, alpha, gamma):
    other = BotVersionFactory().bot
    first, third, unrelated = (
        between(alpha, gamma),
        between(gamma, other, alpha),
        between(gamma, other),
    )

    assert set(ids(anon_client.get(f"/api/matches/?bot={alpha.pk}"))) == {first.pk, third.pk}
    assert set(ids(anon_client.get(f"/api/matches/?bot={other.pk}"))) == {third.pk, unrelated.pk}


def test_it_filters_by_version(anon_client, alpha, gamma):
    old = alpha.active_version
    before = between(alpha, gamma)
    new = BotVersionFactory(bot=alpha, source=b"def act(o):\n    return 2\n")
    after = between(alpha, gamma)

    assert ids(anon_client.get(f"/api/matches/?version={old.pk}")) == [before.pk]
    assert ids(anon_client.get(f"/api/matches/?version={new.pk}")) == [after.pk]
    assert ids(anon_client.get(f"/api/matches/?bot={alpha.pk}")) == [after.pk, before.pk]


def test_it_filters_by_game(anon_client, alpha, gamma):
    lie21 = between(alpha, gamma)
    highcard = highcard_match(highcard_versions(3), placings=(1, 0, 2))

    assert ids(anon_client.get("/api/matches/?game=lie21")) == [lie21.pk]
    assert ids(anon_client.get("/api/matches/?game=highcard")) == [highcard.pk]
    refused = assert_error(anon_client.get("/api/matches/?game=chess"), 400, "unknown_game")
    assert "game" in refused["fields"]


def test_it_filters_by_tournament_status_game_and_kind(anon_client, alpha, gamma):
    cup = TournamentFactory()
    ladder = between(alpha, gamma)
    in_cup = between(alpha, gamma, tournament=cup, kind=Match.Kind.TOURNAMENT)
    queued = between(alpha, gamma, status=Match.Status.QUEUED, placings=None, reason="")

    assert ids(anon_client.get(f"/api/matches/?tournament={cup.pk}")) == [in_cup.pk]
    assert ids(anon_client.get("/api/matches/?status=queued")) == [queued.pk]
    assert set(ids(anon_client.get("/api/matches/?kind=ladder"))) == {ladder.pk, queued.pk}
    assert len(ids(anon_client.get("/api/matches/?game=lie21&kind=tournament"))) == 1


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("bot=abc", "bot"),
        ("status=won", "status"),
        ("bot=99999999999999999999", "bot"),
        ("version=0", "version"),
        ("game=", "game"),
    ],
)
def test_it_refuses_a_bad_filter_value(anon_client, query, field):
    body = assert_error(anon_client.get(f"/api/matches/?{query}"), 400)

    assert field in body["fields"]


def test_it_shows_a_match_result_seat_by_seat(anon_client, alpha, gamma):
    match = between(alpha, gamma, ranked=False)
    ReplayFactory(match=match)

    body = anon_client.get(f"/api/matches/{match.pk}/").json()

    no_rating = dict.fromkeys(
        ("mu_before", "sigma_before", "mu_after", "sigma_after", "mu_delta", "score_delta")
    )
    assert body["seats"] == [
        {
            "seat": 0,
            "bot": {"id": alpha.pk, "name": "alpha", "owner": "alice"},
            "version": 1,
            "placing": 0,
            "score": 7,
            "fault": None,
            "fault_detail": None,
            "rating": no_rating,
        },
        {
            "seat": 1,
            "bot": {"id": gamma.pk, "name": "gamma", "owner": "carol"},
            "version": 1,
            "placing": 1,
            "score": 3,
            "fault": None,
            "fault_detail": None,
            "rating": no_rating,
        },
    ]
    assert (body["status"], body["winner"], body["reason"]) == ("done", 0, "match_points")
    assert (body["seat_count"], body["ranked"], body["kind"]) == (2, False, "ladder")
    assert body["totals"] == {"game_wins": [4, 2], "points": [420, 300], "sweeps": [0, 0]}
    assert body["games_played"] == 6
    assert (body["seed"], body["options"], body["duration_s"]) == (match.seed, {}, 1.5)
    assert body["replay"] == f"http://testserver/api/matches/{match.pk}/replay/"
    assert "failure_reason" not in body  # the platform's own trouble is for staff
    for old in ("bot_a", "bot_b", "version_a", "outcome", "match_points", "error", "has_replay"):
        assert old not in body


def test_it_shows_which_seat_faulted(anon_client, alpha, gamma):
    match = between(alpha, gamma, placings=(1, 0), reason="fault", faults={0: "timeout"})

    body = anon_client.get(f"/api/matches/{match.pk}/").json()

    assert body["winner"] == 1
    assert (body["seats"][0]["fault"], body["seats"][0]["fault_detail"]) == (
        "timeout",
        "the bot failed (timeout)",
    )
    assert body["seats"][1]["fault"] is None


def test_a_shared_first_place_has_no_winner(anon_client):
    match = highcard_match(highcard_versions(3), placings=(0, 0, 2))

    body = anon_client.get(f"/api/matches/{match.pk}/").json()

    assert [seat["placing"] for seat in body["seats"]] == [0, 0, 2]
    assert body["winner"] is None


def test_a_queued_match_has_no_result_yet(anon_client, alpha, gamma):
    match = between(alpha, gamma, status=Match.Status.QUEUED, placings=None, reason="")

    body = anon_client.get(f"/api/matches/{match.pk}/").json()

    assert (body["winner"], body["reason"], body["replay"]) == (None, None, None)
    assert [(seat["placing"], seat["score"]) for seat in body["seats"]] == [(None, None)] * 2
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
    assert [seat["name"] for seat in response.json()["seats"]] == ["alpha", "gamma"]


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
    """A real match, recorded as the worker records it: output and traceback go to the
    owner's logs only, filed by step; the replay says which seat faulted and where."""
    printing = tmp_path / "printing_bot.py"
    printing.write_text(builtin_bot("lie21", "random").read_text() + PRINTING_BOT)
    match = match_played(
        [alpha.active_version, gamma.active_version], seed=7, bots=[printing, "random"]
    )

    replay = anon_client.get(f"/api/matches/{match.pk}/replay/")
    detail = anon_client.get(f"/api/matches/{match.pk}/").json()
    logs = owner_client.get(f"/api/matches/{match.pk}/logs/").json()["results"]

    assert replay.status_code == 200
    (fault,) = replay.json()["faults"]
    assert (fault["seat"], fault["kind"]) == (0, "crash")
    assert (detail["seats"][0]["fault"], detail["winner"]) == ("crash", 1)
    for public in (replay.content.decode(), json.dumps(detail)):
        assert "SECRET" not in public
    (log,) = logs
    assert log["seat"] == 0
    assert "SECRET-PLAN-42" in log["output"]
    assert "SECRET-TRACE-7" in log["traceback"]
    assert log["steps"], "the output is filed by step"
    assert all({"game", "step", "phase", "text"} <= set(entry) for entry in log["steps"])
    assert any("SECRET-PLAN-42" in entry["text"] for entry in log["steps"])


class TestLogs:
    @pytest.fixture
    def match(self, alpha, gamma):
        match = between(alpha, gamma)
        steps = [{"game": 1, "step": 0, "phase": "act", "text": "alpha thinks"}]
        MatchLogFactory(match=match, seat=0, output="alpha says hi", steps=steps)
        MatchLogFactory(match=match, seat=1, output="gamma says hi")
        return match

    def test_it_shows_the_owner_only_their_own_bot_s_log(self, owner_client, match):
        body = owner_client.get(f"/api/matches/{match.pk}/logs/").json()

        assert [(row["seat"], row["output"]) for row in body["results"]] == [(0, "alpha says hi")]
        assert body["results"][0]["bot"]["name"] == "alpha"
        assert body["results"][0]["steps"] == [
            {"game": 1, "step": 0, "phase": "act", "text": "alpha thinks"}
        ]

    def test_it_shows_an_owner_of_several_seats_each_of_their_logs(self, owner):
        versions = highcard_versions(3, owner=owner)
        versions[1] = BotVersionFactory(bot=BotFactory(game="highcard"))  # someone else's
        match = highcard_match(versions, placings=(0, 1, 2))
        for seat in range(3):
            MatchLogFactory(match=match, seat=seat)

        body = client_for(owner).get(f"/api/matches/{match.pk}/logs/").json()

        assert [row["seat"] for row in body["results"]] == [0, 2]

    def test_it_shows_staff_every_log(self, staff_client, match):
        body = staff_client.get(f"/api/matches/{match.pk}/logs/").json()

        assert [row["output"] for row in body["results"]] == ["alpha says hi", "gamma says hi"]

    def test_it_refuses_a_user_who_owns_no_seat(self, other_client, match):
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
            content = anon_client.get(path).content.decode()
            assert "says hi" not in content and "alpha thinks" not in content


@pytest.mark.parametrize("rows", [5, 50])
def test_the_match_list_costs_the_same_queries_for_any_page_size(
    anon_client, django_assert_max_num_queries, rows
):
    a, b = BotVersionFactory().bot, BotVersionFactory().bot
    hc = highcard_versions(4)
    for n in range(rows):
        if n % 2:
            between(a, b, tournament=TournamentFactory(), kind=Match.Kind.TOURNAMENT)
        else:
            highcard_match(hc[: 2 + n % 3], placings=(0, 1, 2, 3)[: 2 + n % 3])

    # The count, the page's ids, its rows, and every seat of them (with bot, owner, version).
    with django_assert_max_num_queries(4):  # auth token lookup is not needed: anonymous
        response = anon_client.get(f"/api/matches/?page_size={rows}")

    assert len(response.json()["results"]) == rows


@pytest.mark.parametrize(
    ("fields", "placings"),
    [
        ({}, (0, 1)),
        ({"status": Match.Status.QUEUED, "reason": "", "finished_at": None}, None),
        ({"reason": "game_cap"}, (0, 0)),
        ({"reason": "fault", "faults": {1: "crash"}}, (0, 1)),
    ],
)
def test_the_list_s_written_out_representation_is_the_declared_one(alpha, gamma, fields, placings):
    from rest_framework import serializers

    from arena.api.matches import MatchOutputSerializer

    made = between(alpha, gamma, tournament=TournamentFactory(), placings=placings, **fields)
    ReplayFactory(match=made)
    (row,) = match_rows(match_ids=[made.pk])
    model = match_list_with_replay().get(pk=made.pk)
    serializer = MatchOutputSerializer()

    assert serializer.to_representation(row) == serializers.Serializer.to_representation(
        serializer, model
    )


@pytest.mark.parametrize(
    ("fields", "placings"),
    [
        ({}, (0, 1)),
        ({"status": Match.Status.QUEUED, "reason": "", "finished_at": None}, None),
        ({"reason": "fault", "faults": {1: "crash"}, "options": {"hands": 3}}, (0, 1)),
        ({"duration_s": None, "rated": False}, (0, 0)),
    ],
)
def test_one_match_s_written_out_representation_is_the_declared_one(alpha, gamma, fields, placings):
    """``/api/matches/{id}/`` writes its plain row out (no model per seat): the same answer
    as DRF's generic path over the declared fields of the match's model."""
    from rest_framework import serializers

    from arena.api.matches import MatchDetailOutputSerializer
    from arena.selectors.matches import match_detail_row, match_get

    made = between(alpha, gamma, tournament=TournamentFactory(), placings=placings, **fields)
    ReplayFactory(match=made)
    serializer = MatchDetailOutputSerializer()

    written = serializer.to_representation(match_detail_row(match_id=made.pk))
    generic = serializers.Serializer.to_representation(serializer, match_get(match_id=made.pk))
    assert written == generic
    assert list(written) == list(generic)  # in the declared order too


def test_the_written_out_representation_holds_for_a_rated_three_seat_match(db):
    from rest_framework import serializers

    from arena.api.matches import MatchOutputSerializer

    played = match_played(highcard_versions(3), seed=3)
    (row,) = match_rows(match_ids=[played.pk])
    model = match_list_with_replay().get(pk=played.pk)
    serializer = MatchOutputSerializer()

    assert serializer.to_representation(row) == serializers.Serializer.to_representation(
        serializer, model
    )
    assert [seat["rating"]["mu_delta"] for seat in serializer.to_representation(row)["seats"]]


def test_a_log_never_leaks_through_the_match_list_of_a_bot(anon_client, alpha, gamma):
    match = between(alpha, gamma)
    MatchLog.objects.create(match=match, seat=0, bot=alpha, output="TOP-SECRET")

    assert "TOP-SECRET" not in anon_client.get(f"/api/matches/?bot={alpha.pk}").content.decode()
