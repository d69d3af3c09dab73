"""Tournaments: start, cancel, finish, standings and their ranking, the demo, built-in bots."""

from __future__ import annotations

import pytest

from arena.algorithms.round_robin import balance_report
from arena.errors import Conflict
from arena.models import (
    Bot,
    Match,
    MatchSeat,
    Rating,
    RatingHistory,
    Replay,
    Tournament,
    TournamentEntry,
)
from arena.services.builtins import builtin_bots_install
from arena.services.matches import PlatformError, match_play, playing
from arena.services.tournaments import (
    demo_tournament_start,
    tournament_cancel,
    tournament_create,
    tournament_finish,
    tournament_standings,
    tournament_start,
)
from engine import derive_seed
from engine.registry import GAMES
from tests.arena import bots
from tests.arena.helpers import STANDINGS_FIELDS, STANDINGS_ROW_FIELDS
from tests.workers.fixtures import tasks_queued, version_add

pytestmark = pytest.mark.django_db


@pytest.fixture
def four(make_bot) -> list[Bot]:
    return [make_bot(name) for name in ("anna", "bert", "cleo", "dora")]


def started(owner, **kwargs) -> Tournament:
    tournament = tournament_create(name="Cup", game="lie21", created_by=owner, seed=7, **kwargs)
    return tournament_start(tournament_id=tournament.pk)


def bots_of(match: Match) -> list[int]:
    return list(match.seats.order_by("seat").values_list("bot_id", flat=True))


def pairing(tournament: Tournament, a: Bot, b: Bot) -> Match:
    ids = MatchSeat.objects.filter(bot=a, match__tournament=tournament).values("match_id")
    return tournament.matches.filter(pk__in=ids, seats__bot=b).get()


def record(tournament: Tournament, a: Bot, b: Bot, mp: tuple[int, int]) -> None:
    """Write a result for the pairing of a and b (the winner: more match points, or a draw)."""
    match = pairing(tournament, a, b)
    Match.objects.filter(pk=match.pk).update(status="done", reason="match_points")
    for bot, mine, theirs in ((a, mp[0], mp[1]), (b, mp[1], mp[0])):
        placing = 0 if mine >= theirs else 1
        MatchSeat.objects.filter(match=match, bot=bot).update(placing=placing, score=mine)


def record_all_draws(tournament: Tournament) -> None:
    tournament.matches.update(status="done")
    MatchSeat.objects.filter(match__tournament=tournament).update(placing=0)


class TestStart:
    def test_it_freezes_entries_and_creates_every_pairing(self, owner, four):
        tournament = started(owner)
        assert tournament.status == "running"
        assert tournament.started_at is not None
        entries = TournamentEntry.objects.filter(tournament=tournament)
        assert {(e.bot_id, e.version_id) for e in entries} == {
            (bot.pk, bot.active_version_id) for bot in four
        }
        matches = list(tournament.matches.order_by("id"))
        assert len(matches) == 6
        pairs = {frozenset(bots_of(m)) for m in matches}
        assert len(pairs) == 6
        for number, match in enumerate(matches):
            assert match.kind == "tournament"
            assert match.status == "queued"
            assert match.seed == derive_seed(7, "match", number, *bots_of(match))

    def test_it_fans_out_one_task_per_match(self, owner, four, run_on_commit):
        with run_on_commit() as callbacks:
            tournament = started(owner)
        played = [cb for cb in tasks_queued(callbacks) if cb.args[0] == "play_match"]
        assert sorted(cb.args[1][0] for cb in played) == sorted(
            tournament.matches.values_list("id", flat=True)
        )

    def test_a_version_uploaded_later_does_not_change_the_entries(self, owner, four):
        tournament = started(owner)
        frozen = four[0].active_version
        version_add(four[0], bots.CHATTY, status="valid")
        entry = TournamentEntry.objects.get(tournament=tournament, bot=four[0])
        assert entry.version == frozen
        seats = MatchSeat.objects.filter(match__tournament=tournament, bot=four[0])
        assert set(seats.values_list("version_id", flat=True)) == {frozen.pk}

    def test_only_active_bots_with_a_valid_version_take_part(self, owner, four, make_bot):
        make_bot("pending", valid=False)
        Bot.objects.filter(pk=four[3].pk).update(is_active=False)
        tournament = started(owner)
        assert tournament.entries.count() == 3
        assert tournament.matches.count() == 3

    def test_it_needs_two_participants(self, owner, make_bot):
        make_bot("alone")
        tournament = tournament_create(name="Cup", game="lie21", created_by=owner)
        with pytest.raises(Conflict, match="at least 2 bots"):
            tournament_start(tournament_id=tournament.pk)
        tournament.refresh_from_db()
        assert tournament.status == "pending"
        assert not tournament.entries.exists()

    def test_it_cannot_start_twice(self, owner, four):
        tournament = started(owner)
        with pytest.raises(Conflict):
            tournament_start(tournament_id=tournament.pk)
        assert tournament.matches.count() == 6


class TestCancelAndFinish:
    def test_cancel_stops_the_matches_not_yet_played(self, owner, four):
        tournament = started(owner)
        running = tournament.matches.first()
        Match.objects.filter(pk=running.pk).update(status="running")
        tournament = tournament_cancel(tournament_id=tournament.pk)
        assert tournament.status == "cancelled"
        statuses = list(tournament.matches.values_list("status", flat=True))
        assert statuses.count("failed") == 5
        assert statuses.count("running") == 1  # finishes, is rated, changes nothing else
        assert tournament_finish(tournament_id=tournament.pk).status == "cancelled"

    def test_a_finished_tournament_cannot_be_cancelled(self, owner, four):
        tournament = started(owner)
        record_all_draws(tournament)
        tournament_finish(tournament_id=tournament.pk)
        with pytest.raises(Conflict):
            tournament_cancel(tournament_id=tournament.pk)

    def test_finish_waits_for_open_matches(self, owner, four):
        tournament = started(owner)
        tournament.matches.exclude(pk=tournament.matches.first().pk).update(status="done")
        assert tournament_finish(tournament_id=tournament.pk).status == "running"

    def test_finish_stores_the_standings_once(self, owner, four):
        tournament = started(owner)
        record_all_draws(tournament)
        finished = tournament_finish(tournament_id=tournament.pk)
        assert finished.status == "finished"
        assert finished.finished_at is not None
        assert finished.standings["status"] == "finished"
        assert finished.standings["matches_done"] == 6
        again = tournament_finish(tournament_id=tournament.pk)
        assert again.finished_at == finished.finished_at

    def test_a_failed_match_does_not_block_the_tournament(self, owner, four, monkeypatch):
        """Every match plays except one whose platform keeps failing: the tournament ends."""
        tournament = started(owner)
        doomed = tournament.matches.order_by("id").first()
        real_play = playing.play

        def flaky(match, limits=None):
            if match.pk == doomed.pk:
                raise PlatformError("sandbox host is broken")
            return real_play(match, limits)

        monkeypatch.setattr(playing, "play", flaky)
        for match in tournament.matches.order_by("id"):
            for _ in range(3):
                try:
                    match_play(match_id=match.pk, worker="w1")
                    break
                except PlatformError:
                    continue
        finished = tournament_finish(tournament_id=tournament.pk)
        assert finished.status == "finished"
        doomed.refresh_from_db()
        assert doomed.status == "failed"
        standings = finished.standings
        assert standings["matches_done"] == 6
        assert sum(row["played"] for row in standings["rows"]) == 10  # 5 played matches
        first, second = bots_of(doomed)
        cell = standings["crosstable"]["cells"][f"{first}-{second}"]
        assert cell == {
            "matches": [doomed.pk],
            "open": 0,
            "failed": 1,
            "result": None,
            "ahead": 0,
            "level": 0,
            "behind": 0,
            "score": 0.0,
            "share": None,
            "interval": None,
            "match_points": [0, 0],
        }


class TestStandings:
    def test_they_have_exactly_the_documented_shape(self, owner, four):
        tournament = started(owner)
        standings = tournament_standings(tournament=tournament)
        assert set(standings) == STANDINGS_FIELDS
        assert (standings["tournament"], standings["status"]) == (tournament.pk, "running")
        assert (standings["game"], standings["seats"]) == ("lie21", 2)
        assert (standings["matches_total"], standings["matches_done"]) == (6, 0)
        assert standings["matches_planned"] == [6, 6]
        row = standings["rows"][0]
        assert set(row) == STANDINGS_ROW_FIELDS
        assert set(row["bot"]) == {"id", "name", "owner"}
        assert row["bot"]["owner"] == "alice"
        assert row["version"] == 1
        assert set(standings["crosstable"]) == {"bots", "cells"}
        assert len(standings["crosstable"]["cells"]) == 12  # both directions of 6 pairings
        cell = next(iter(standings["crosstable"]["cells"].values()))
        assert set(cell) == {
            "matches",
            "open",
            "failed",
            "result",
            "ahead",
            "level",
            "behind",
            "score",
            "share",
            "interval",
            "match_points",
        }

    def ranking(self, tournament: Tournament) -> list[tuple[int, str, float, int, int]]:
        rows = tournament_standings(tournament=tournament)["rows"]
        return [
            (r["rank"], r["bot"]["name"], r["points"], r["first_places"], r["match_points"])
            for r in rows
        ]

    def test_points_first_a_win_one_a_draw_half_then_first_places(self, owner, four):
        anna, bert, cleo, dora = four
        tournament = started(owner)
        record(tournament, anna, bert, (4, 0))
        record(tournament, anna, cleo, (4, 3))
        record(tournament, anna, dora, (0, 4))
        record(tournament, bert, cleo, (4, 0))
        record(tournament, bert, dora, (2, 2))
        record(tournament, cleo, dora, (2, 2))
        # anna 2 wins; dora 1 win and 2 draws: 2 points each, but dora has 3 first places.
        assert self.ranking(tournament) == [
            (1, "dora", 2.0, 3, 8),
            (2, "anna", 2.0, 2, 8),
            (3, "bert", 1.5, 2, 6),
            (4, "cleo", 0.5, 1, 5),
        ]

    def test_then_head_to_head_before_match_points(self, owner, four):
        anna, bert, cleo, dora = four
        tournament = started(owner)
        record(tournament, anna, bert, (1, 4))
        record(tournament, anna, cleo, (4, 0))
        record(tournament, anna, dora, (4, 0))
        record(tournament, bert, cleo, (2, 1))
        record(tournament, bert, dora, (1, 4))
        record(tournament, cleo, dora, (2, 2))
        # anna and bert: 2 points and 2 first places each; bert won their match, so bert is
        # ahead though anna has more match points.
        ranking = self.ranking(tournament)
        assert [(rank, name) for rank, name, *_ in ranking] == [
            (1, "bert"),
            (2, "anna"),
            (3, "dora"),
            (4, "cleo"),
        ]
        assert ranking[0][2:4] == ranking[1][2:4] == (2.0, 2)
        assert ranking[1][4] > ranking[0][4]

    def test_then_match_points(self, owner, four):
        anna, bert, cleo, dora = four
        tournament = started(owner)
        record(tournament, anna, bert, (2, 2))
        record(tournament, anna, cleo, (4, 0))
        record(tournament, anna, dora, (0, 4))
        record(tournament, bert, cleo, (1, 0))
        record(tournament, bert, dora, (0, 4))
        record(tournament, cleo, dora, (1, 4))
        # anna and bert: 1.5 points, 2 first places, a draw between them, the same mean
        # placing; anna has more match points.
        assert self.ranking(tournament) == [
            (1, "dora", 3.0, 3, 12),
            (2, "anna", 1.5, 2, 6),
            (3, "bert", 1.5, 2, 3),
            (4, "cleo", 0.0, 0, 1),
        ]


@pytest.mark.slow
def test_a_three_seat_game_gets_a_balanced_schedule_and_placing_standings(
    owner, make_bot, run_on_commit
):
    """High Card (three seats) with four bots: every trio, each in every seat rotation."""
    for name in ("anna", "bert", "cleo", "dora"):
        make_bot(name, bots.HIGHCARD, game="highcard")
    tournament = tournament_create(
        name="HC", game="highcard", created_by=owner, seed=3, table_size=3
    )
    with run_on_commit():
        tournament = tournament_start(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    tables = [bots_of(match) for match in tournament.matches.order_by("id")]
    assert len(tables) == 4 * 3 and all(len(table) == 3 for table in tables)
    assert balance_report(tables) == {"pair_spread": 0, "seat_spread": 0}
    assert tournament.status == "finished"
    standings = tournament.standings
    assert standings["seats"] == 3
    rows = standings["rows"]
    assert sum(row["played"] for row in rows) == 36
    assert sum(row["points"] for row in rows) == pytest.approx(12 * 3), "3 points per table"
    assert all(1 <= row["mean_place"] <= 3 for row in rows)
    assert RatingHistory.objects.filter(match__tournament=tournament).count() == 36


def test_a_whole_tournament_plays_rates_and_finishes(owner, make_bot, run_on_commit):
    for name in ("anna", "bert", "cleo"):
        make_bot(name)
    with run_on_commit():
        tournament = started(owner)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert set(tournament.matches.values_list("status", flat=True)) == {"done"}
    assert Replay.objects.filter(match__tournament=tournament).count() == 3
    assert RatingHistory.objects.filter(match__tournament=tournament).count() == 6
    assert sorted(Rating.objects.values_list("matches", flat=True)) == [2, 2, 2]
    standings = tournament_standings(tournament=tournament)
    assert standings == tournament.standings
    assert standings["rows"][0]["rank"] == 1
    assert sum(row["played"] for row in standings["rows"]) == 6


def test_builtin_bots_install_is_idempotent():
    first = builtin_bots_install()
    again = builtin_bots_install()
    assert [bot.pk for bot in first] == [bot.pk for bot in again]
    lie21 = sorted(bot.name for bot in first if bot.game == "lie21")
    assert lie21 == ["lie21-greedy", "lie21-heuristic", "lie21-random", "lie21-search"]
    assert {bot.game for bot in first} == set(GAMES), "every game's built-in bots"
    assert not [bot for bot in first if bot.name.endswith("-starter")], "templates, not rivals"
    for bot in again:
        assert bot.is_builtin and bot.is_active
        assert bot.owner.username == "arena"
        assert not bot.owner.has_usable_password()
        assert bot.versions.count() == 1
        version = bot.active_version
        assert version.status == "valid"
        assert version.file.read().startswith(b'"""')
        assert Rating.objects.filter(bot=bot, current=True).count() == 1


def test_a_changed_builtin_file_becomes_a_new_version(tmp_path, monkeypatch):
    [random_bot] = [bot for bot in builtin_bots_install() if bot.name == "lie21-random"]
    changed = tmp_path / "random_bot.py"
    changed.write_text('"""random, improved."""\n' + bots.GOOD)
    game = GAMES["lie21"]
    paths = {**game.builtin_bots(), "random": changed}
    monkeypatch.setattr(type(game), "builtin_bots", lambda self: paths)
    builtin_bots_install()
    random_bot.refresh_from_db()
    assert random_bot.versions.count() == 2
    assert random_bot.active_version.number == 2


@pytest.mark.slow  # a whole round robin of built-in bots per hosted game: ~10 s
def test_the_demo_tournaments_run_once_per_game(run_on_commit, make_bot, settings):
    settings.ARENA_DEMO_TOURNAMENT = True  # on by default only with DEBUG
    make_bot("uploaded")  # an uploaded bot is not part of the demo
    with run_on_commit():
        tournaments = demo_tournament_start()
    playable = {
        name
        for name, game in GAMES.items()
        if len(set(game.builtin_bots()) - {"starter"}) >= game.min_players
    }
    assert {t.game for t in tournaments} == playable
    lie21 = next(t for t in tournaments if t.game == "lie21")
    lie21.refresh_from_db()
    assert lie21.status == "finished"
    assert sorted(lie21.entries.values_list("bot__name", flat=True)) == [
        "lie21-greedy",
        "lie21-heuristic",
        "lie21-random",
        "lie21-search",
    ]
    assert Replay.objects.filter(match__tournament=lie21).count() == 6  # a round robin of four
    assert demo_tournament_start() == []


def test_the_demo_tournament_can_be_switched_off(settings):
    settings.ARENA_DEMO_TOURNAMENT = False
    assert demo_tournament_start() == []
    assert not Tournament.objects.exists()


def test_standings_say_how_sure_the_order_is(owner, four):
    anna, bert, cleo, dora = four
    tournament = started(owner)
    record(tournament, anna, bert, (4, 0))
    record(tournament, anna, cleo, (4, 0))
    record(tournament, anna, dora, (4, 0))
    record(tournament, bert, cleo, (2, 2))
    record(tournament, bert, dora, (4, 1))
    record(tournament, cleo, dora, (2, 2))
    standings = tournament_standings(tournament=tournament)
    rows = standings["rows"]
    assert [r["bot"]["name"] for r in rows] == ["anna", "bert", "cleo", "dora"]
    assert rows[0]["superiority_over_next"] > 0.5, "anna won everything"
    assert rows[-1]["superiority_over_next"] is None
    assert all(0 <= r["superiority_over_next"] <= 1 for r in rows[:-1])
    cell = standings["crosstable"]["cells"][f"{anna.pk}-{bert.pk}"]
    assert cell["interval"][0] < 0.5 and cell["interval"][1] == 1.0, "one meeting tells little"
    low, high = rows[0]["points_interval"]
    assert low < rows[0]["points"] == 3 <= high
    drawn = standings["crosstable"]["cells"][f"{bert.pk}-{cleo.pk}"]
    assert drawn["score"] == 0.5 and drawn["interval"][0] <= 0.5 <= drawn["interval"][1]
