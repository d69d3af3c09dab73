"""Tournaments: read by all, created, started and cancelled by staff; standings contract."""

from __future__ import annotations

import csv
import datetime
import gzip
import io
import json
import zipfile

import pytest

from arena.algorithms.intervals import score_share
from arena.models import Bot, Match, MatchSeat, Tournament
from arena.services.tournaments import tournament_finish
from tests.arena.factories import (
    BotFactory,
    BotVersionFactory,
    ReplayFactory,
    TournamentFactory,
    UserFactory,
)
from tests.arena.helpers import STANDINGS_FIELDS, STANDINGS_ROW_FIELDS, assert_error
from tests.arena.recorded import match_played


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
        "/api/tournaments/", {"name": "Spring cup", "game": "lie21", "seed": 42}, format="json"
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
    body = staff_client.post(
        "/api/tournaments/", {"name": "Cup", "game": "highcard"}, format="json"
    ).json()

    assert isinstance(body["seed"], int)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "lie21"}, "name"),
        ({"name": "x", "game": "lie21", "seed": -1}, "seed"),
        ({"name": "x"}, "game"),
        ({"name": "x", "game": "go"}, "game"),
    ],
)
def test_it_refuses_invalid_tournaments(staff_client, body, field):
    assert (
        field
        in assert_error(staff_client.post("/api/tournaments/", body, format="json"), 400)["fields"]
    )


def test_an_unknown_game_is_a_clear_400(staff_client):
    response = staff_client.post("/api/tournaments/", {"name": "x", "game": "go"}, format="json")

    body = assert_error(response, 400, "unknown_game")
    assert "'go'" in body["detail"] and "lie21" in body["detail"]


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
    TournamentFactory(name="Cards", game="highcard")

    names = [t["name"] for t in anon_client.get("/api/tournaments/").json()["results"]]
    pending = anon_client.get("/api/tournaments/?status=pending&game=lie21").json()["results"]
    highcard = anon_client.get("/api/tournaments/?game=highcard").json()["results"]

    assert names == ["Cards", "New", "Old"]
    assert [t["name"] for t in pending] == ["New"]
    assert [(t["name"], t["game"]) for t in highcard] == [("Cards", "highcard")]
    refused = assert_error(anon_client.get("/api/tournaments/?game=go"), 400, "unknown_game")
    assert "game" in refused["fields"]


def test_the_standings_follow_the_contract(staff_client, anon_client, bots):
    tournament = TournamentFactory()
    staff_client.post(f"/api/tournaments/{tournament.pk}/start/")
    first = Match.objects.filter(tournament=tournament).order_by("id").first()
    Match.objects.filter(pk=first.pk).update(status="done", reason="match_points")
    for seat, (placing, score) in enumerate([(0, 7), (1, 2)]):
        MatchSeat.objects.filter(match=first, seat=seat).update(placing=placing, score=score)

    body = anon_client.get(f"/api/tournaments/{tournament.pk}/standings/").json()

    assert set(body) == STANDINGS_FIELDS
    assert (body["tournament"], body["game"], body["seats"]) == (tournament.pk, "lie21", 2)
    assert body["status"] == "running"
    assert (body["matches_total"], body["matches_done"]) == (3, 1)
    assert [row["rank"] for row in body["rows"]] == [1, 2, 3]
    row = body["rows"][0]
    assert set(row) == STANDINGS_ROW_FIELDS
    assert set(row["bot"]) == {"id", "name", "owner"}
    seats = {seat.seat: seat.bot_id for seat in first.seats.all()}
    winner, loser = seats[0], seats[1]
    assert row["bot"]["id"] == winner
    assert (row["points"], row["wins"], row["first_places"], row["mean_place"]) == (1, 1, 1, 1)
    assert body["crosstable"]["bots"] == [row["bot"]["id"] for row in body["rows"]]
    cell = body["crosstable"]["cells"][f"{winner}-{loser}"]
    one_win = score_share([(1.0, 1)])
    assert cell == {
        "matches": [first.pk],
        "open": 0,
        "failed": 0,
        "ahead": 1,
        "level": 0,
        "behind": 0,
        "score": 1.0,
        "share": 1.0,
        "result": "win",
        "match_points": [7, 2],
        # The arena's one interval (docs/api.md): one win says little.
        "interval": [round(one_win.low, 4), 1.0],
    }
    assert cell["interval"][0] < 0.5
    low, high = row["points_interval"]
    assert low < 1 <= high <= 2, "its points could be anywhere from one win to two"
    assert body["rows"][-1]["superiority_over_next"] is None
    assert 0 <= body["rows"][0]["superiority_over_next"] <= 1
    assert body["crosstable"]["cells"][f"{loser}-{winner}"]["result"] == "loss"
    queued = next(key for key, c in body["crosstable"]["cells"].items() if c["open"])
    assert body["crosstable"]["cells"][queued]["result"] is None


def test_a_tournament_of_three_seat_tables_is_ranked_by_placings(staff_client, anon_client):
    """High Card, four bots at tables of three (its ladder size): every match is really
    played and recorded; the standings and crosstable come from the placings."""
    players = [BotVersionFactory(bot=BotFactory(game="highcard")).bot for _ in range(4)]
    response = staff_client.post(
        "/api/tournaments/",
        {"name": "Cards", "game": "highcard", "seed": 7, "table_size": 3},
        format="json",
    )
    tournament_id = response.json()["id"]
    started = staff_client.post(f"/api/tournaments/{tournament_id}/start/").json()
    assert (started["status"], started["entries"]) == ("running", 4)
    matches = list(Match.objects.filter(tournament_id=tournament_id).order_by("id"))
    for match in matches:
        versions = [seat.version for seat in match.seats.order_by("seat")]
        match.delete()  # played again, for real, in its place
        match_played(versions, seed=match.seed, tournament_id=tournament_id, kind="tournament")
    tournament_finish(tournament_id=tournament_id)

    body = anon_client.get(f"/api/tournaments/{tournament_id}/standings/").json()

    assert (body["game"], body["status"]) == ("highcard", "finished")
    assert body["seats"] == 3
    assert body["matches_done"] == body["matches_total"] == len(matches)
    assert {row["bot"]["id"] for row in body["rows"]} == {bot.pk for bot in players}
    assert all(set(row) == STANDINGS_ROW_FIELDS for row in body["rows"])
    assert [row["points"] for row in body["rows"]] == sorted(
        (row["points"] for row in body["rows"]), reverse=True
    )
    played = sum(row["played"] for row in body["rows"])
    assert played == sum(match.seat_count for match in matches)
    # Every table of n seats hands out n(n-1)/2 points: one per pair of seats.
    assert sum(row["points"] for row in body["rows"]) == sum(
        m.seat_count * (m.seat_count - 1) / 2 for m in matches
    )
    cells = body["crosstable"]["cells"]
    for cell in cells.values():
        assert cell["ahead"] + cell["level"] + cell["behind"] + cell["failed"] == len(
            cell["matches"]
        )
        assert cell["score"] == cell["ahead"] + cell["level"] / 2
        if body["seats"] > 2:
            assert "match_points" not in cell
    listed = anon_client.get(f"/api/matches/?tournament={tournament_id}").json()["results"]
    assert {len(match["seats"]) for match in listed} == {body["seats"]}


def test_standings_stored_before_seats_are_counted_again(anon_client, bots):
    """A tournament finished before the N-seat arena kept its old standings: they are
    counted again from its (migrated) matches rather than shown in the old shape."""
    tournament = TournamentFactory(
        status=Tournament.Status.FINISHED,
        standings={"tournament": 1, "rows": [{"match_wins": 3}], "crosstable": {}},
    )

    body = anon_client.get(f"/api/tournaments/{tournament.pk}/standings/").json()

    assert (body["status"], body["seats"], body["rows"]) == ("finished", 2, [])


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


# --- formats, options, CSV --------------------------------------------------------------------


def _play_round(tournament_id: int) -> None:
    """Every open match won by the bot in seat 0, then "round finished"."""
    for match in Match.objects.filter(tournament_id=tournament_id, status="queued"):
        Match.objects.filter(pk=match.pk).update(status="done")
        for seat in match.seats.all():
            MatchSeat.objects.filter(pk=seat.pk).update(placing=seat.seat, score=3 - seat.seat)
    tournament_finish(tournament_id=tournament_id)


def test_staff_create_a_swiss_with_options(staff_client, anon_client, bots):
    body = staff_client.post(
        "/api/tournaments/",
        {
            "name": "Open",
            "game": "lie21",
            "format": "swiss",
            "rounds": 2,
            "matches_per_pairing": 1,
            "duplicate": False,
            "rated": False,
        },
        format="json",
    ).json()
    assert (body["format"], body["rounds"], body["matches_per_pairing"]) == ("swiss", 2, 1)
    assert (body["duplicate"], body["rated"]) == (False, False)
    staff_client.post(f"/api/tournaments/{body['id']}/start/")
    for _ in range(2):
        _play_round(body["id"])
    standings = anon_client.get(f"/api/tournaments/{body['id']}/standings/").json()
    assert standings["format"] == "swiss" and standings["status"] == "finished"
    assert [r["round"] for r in standings["rounds"]] == [1, 2]
    assert all(len(r["byes"]) == 1 for r in standings["rounds"]), "three bots: one bye a round"
    assert {"buchholz", "byes", "seed"} <= set(standings["rows"][0])
    assert sum(r["points"] for r in standings["rows"]) == 2 + 2, "two matches, two byes"


def test_the_defaults_are_a_rated_round_robin_of_single_matches(staff_client):
    body = staff_client.post(
        "/api/tournaments/", {"name": "Cup", "game": "lie21"}, format="json"
    ).json()
    assert (body["format"], body["rounds"], body["matches_per_pairing"]) == ("round_robin", None, 1)
    assert (body["duplicate"], body["rated"]) == (False, True)


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"format": "knockout"}, "format"),
        ({"format": "swiss", "rounds": 0}, "rounds"),
        ({"format": "swiss", "rounds": "3"}, "rounds"),
        ({"matches_per_pairing": 21}, "matches_per_pairing"),
        ({"duplicate": "yes"}, "duplicate"),
        ({"rated": 1}, "rated"),
    ],
)
def test_bad_options_are_a_400_naming_the_field_and_create_nothing(staff_client, extra, field):
    response = staff_client.post(
        "/api/tournaments/", {"name": "x", "game": "lie21", **extra}, format="json"
    )
    assert field in assert_error(response, 400)["fields"]
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("extra", "code"),
    [
        ({"format": "round_robin", "rounds": 3}, "bad_rounds"),
        ({"game": "highcard", "format": "double_elimination", "table_size": 3}, "bad_table_size"),
    ],
)
def test_options_that_do_not_fit_the_format_or_game_are_a_400(staff_client, extra, code):
    response = staff_client.post("/api/tournaments/", {"name": "x", "game": "lie21", **extra})
    assert assert_error(response, 400)["code"] == code
    assert not Tournament.objects.exists()


def test_a_double_elimination_has_a_bracket_and_a_champion(staff_client, anon_client, bots):
    body = staff_client.post(
        "/api/tournaments/",
        {"name": "Finals", "game": "lie21", "format": "double_elimination"},
        format="json",
    ).json()
    staff_client.post(f"/api/tournaments/{body['id']}/start/")
    for _ in range(10):
        _play_round(body["id"])
    standings = anon_client.get(f"/api/tournaments/{body['id']}/standings/").json()
    assert standings["status"] == "finished"
    assert standings["rows"][0]["bot"]["id"] == standings["champion"]
    brackets = [t["bracket"] for r in standings["rounds"] for t in r["tables"]]
    assert brackets[0] == "winners" and "losers" in brackets and brackets[-1] == "final"
    assert [r["eliminated_in"] is None for r in standings["rows"]] == [True, False, False]


def test_the_standings_download_as_csv(staff_client, anon_client, bots):
    Bot.objects.filter(pk=bots[0].pk).update(name="=HYPERLINK(1)")
    tournament = TournamentFactory()
    staff_client.post(f"/api/tournaments/{tournament.pk}/start/")
    _play_round(tournament.pk)
    response = anon_client.get(f"/api/tournaments/{tournament.pk}/standings.csv")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    json_rows = anon_client.get(f"/api/tournaments/{tournament.pk}/standings/").json()["rows"]
    assert [int(r["bot_id"]) for r in rows] == [r["bot"]["id"] for r in json_rows]
    assert [float(r["points"]) for r in rows] == [r["points"] for r in json_rows]
    assert "'=HYPERLINK(1)" in [r["bot"] for r in rows], "no formula in a spreadsheet"
    page = anon_client.get(f"/tournaments/{tournament.pk}/standings.csv")
    assert page.status_code == 200 and page.content == response.content


def test_the_csv_of_a_missing_tournament_is_a_404(anon_client):
    assert anon_client.get("/api/tournaments/999/standings.csv").status_code == 404
    assert anon_client.get("/tournaments/999/standings.csv").status_code == 404


def test_every_replay_of_a_tournament_downloads_as_one_zip(staff_client, anon_client, bots):
    tournament = TournamentFactory()
    staff_client.post(f"/api/tournaments/{tournament.pk}/start/")
    _play_round(tournament.pk)
    played = list(Match.objects.filter(tournament=tournament).order_by("id"))
    for match in played:
        ReplayFactory(match=match)
    finished = datetime.datetime(2026, 3, 4, 5, 6, 8, tzinfo=datetime.UTC)
    Match.objects.filter(pk=played[0].pk).update(finished_at=finished)
    Match.objects.filter(pk=played[-1].pk).update(status="failed")  # no result, no replay
    response = anon_client.get(f"/api/tournaments/{tournament.pk}/replays.zip")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert f'filename="tournament-{tournament.pk}-replays.zip"' in response["Content-Disposition"]
    data = b"".join(response.streaming_content)
    archive = zipfile.ZipFile(io.BytesIO(data))
    assert archive.namelist() == [f"match-{m.pk}.json.gz" for m in played[:-1]]
    first = json.loads(gzip.decompress(archive.read(f"match-{played[0].pk}.json.gz")))
    assert first["format"] == 2 and len(first["seats"]) == 2
    # Each entry is dated when its match finished (UTC), not when it was downloaded, so the
    # same replays are the same bytes at every download.
    entry = archive.getinfo(f"match-{played[0].pk}.json.gz")
    assert entry.date_time == (2026, 3, 4, 5, 6, 8) and entry.external_attr >> 16 == 0o600
    page = anon_client.get(f"/tournaments/{tournament.pk}/replays.zip")
    assert page.status_code == 200 and b"".join(page.streaming_content) == data
    assert anon_client.get("/api/tournaments/999/replays.zip").status_code == 404
    assert anon_client.get("/tournaments/999/replays.zip").status_code == 404


def test_an_organiser_who_is_not_staff_creates_and_starts_one(bots):
    from arena.services.accounts import organiser_make
    from tests.arena.factories import UserFactory
    from tests.arena.helpers import client_for

    oscar = client_for(organiser_make(username=UserFactory(username="oscar").username))
    created = oscar.post(
        "/api/tournaments/",
        {"name": "Oscar's cup", "game": "lie21", "matches_per_pairing": 2},
        format="json",
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert (body["matches_per_pairing"], body["table_size"]) == (2, 2)
    assert body["seed"] is not None, "organisers see the seed of a pending tournament"
    started = oscar.post(f"/api/tournaments/{body['id']}/start/")
    assert started.json()["status"] == "running"
    assert Match.objects.filter(tournament_id=body["id"]).count() == 3 * 2


def test_the_old_name_games_per_match_is_refused_with_its_new_name(staff_client):
    response = staff_client.post(
        "/api/tournaments/", {"name": "x", "game": "lie21", "games_per_match": 7}, format="json"
    )
    body = assert_error(response, 400)
    assert "matches_per_pairing" in body["fields"]["games_per_match"][0]
    assert not Tournament.objects.exists()


def test_an_option_the_service_refuses_names_its_field(staff_client):
    response = staff_client.post(
        "/api/tournaments/", {"name": "x", "game": "liars", "table_size": 7}, format="json"
    )
    body = assert_error(response, 400)
    assert body["code"] == "bad_table_size" and "table_size" in body["fields"]
    assert not Tournament.objects.exists()


def test_every_option_the_service_refuses_is_named_at_once(staff_client):
    body = {"name": "x", "game": "liars", "table_size": 7, "rounds": 3, "entry": "top"}
    refused = assert_error(staff_client.post("/api/tournaments/", body, format="json"), 400)
    assert refused["code"] == "bad_table_size", "the first, in the forms' order"
    assert set(refused["fields"]) == {"table_size", "rounds", "entry_limit"}
    assert not Tournament.objects.exists()


def test_the_match_list_gives_a_pairs_matches(staff_client, anon_client, bots):
    tournament = TournamentFactory(matches_per_pairing=2)
    staff_client.post(f"/api/tournaments/{tournament.pk}/start/")
    first, second = bots[0], bots[1]
    listed = anon_client.get(
        f"/api/matches/?tournament={tournament.pk}&bot={first.pk}&opponent={second.pk}"
    ).json()["results"]
    assert len(listed) == 2
    assert all(
        {s["bot"]["id"] for s in match["seats"]} == {first.pk, second.pk} for match in listed
    )
