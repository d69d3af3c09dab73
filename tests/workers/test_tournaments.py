"""Tournaments: start, cancel, finish, standings and their ranking, the demo, built-in bots."""

from __future__ import annotations

import pytest

from arena.models import Bot, Match, Rating, RatingHistory, Replay, Tournament, TournamentEntry
from arena.services import matches as match_services
from arena.services.builtins import builtin_bots_install
from arena.services.errors import Conflict
from arena.services.matches import PlatformError, match_play
from arena.services.tournaments import (
    demo_tournament_start,
    tournament_cancel,
    tournament_create,
    tournament_finish,
    tournament_standings,
    tournament_start,
)
from engine import derive_seed
from tests.workers import bots
from tests.workers.conftest import tasks_queued, version_add

pytestmark = pytest.mark.django_db


@pytest.fixture
def four(make_bot) -> list[Bot]:
    return [make_bot(name) for name in ("anna", "bert", "cleo", "dora")]


def started(owner, **kwargs) -> Tournament:
    tournament = tournament_create(name="Cup", game="lie21", created_by=owner, seed=7, **kwargs)
    return tournament_start(tournament_id=tournament.pk)


def record(tournament: Tournament, a: Bot, b: Bot, mp: tuple[int, int], points=(60, 60)) -> None:
    """Write a result for the pairing of a and b (the winner: more match points, or a draw)."""
    match = tournament.matches.get(bot_a__in=[a, b], bot_b__in=[a, b])
    if match.bot_a_id != a.pk:
        mp, points = mp[::-1], points[::-1]
    outcome = "a" if mp[0] > mp[1] else "b" if mp[1] > mp[0] else "draw"
    Match.objects.filter(pk=match.pk).update(
        status="done",
        outcome=outcome,
        reason="match_points",
        match_points_a=mp[0],
        match_points_b=mp[1],
        points_a=points[0],
        points_b=points[1],
    )


class TestStart:
    def test_it_freezes_entries_and_creates_every_pairing(self, owner, four):
        tournament = started(owner)
        assert tournament.status == "running"
        assert tournament.started_at is not None
        entries = TournamentEntry.objects.filter(tournament=tournament)
        assert {(e.bot_id, e.version_id) for e in entries} == {
            (bot.pk, bot.active_version_id) for bot in four
        }
        matches = list(tournament.matches.all())
        assert len(matches) == 6
        pairs = {frozenset((m.bot_a_id, m.bot_b_id)) for m in matches}
        assert len(pairs) == 6
        for match in matches:
            assert match.kind == "tournament"
            assert match.status == "queued"
            assert match.seed == derive_seed(7, "match", match.bot_a_id, match.bot_b_id)

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
        assert not tournament.matches.filter(version_a__bot=four[0]).exclude(version_a=frozen)

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
        tournament.matches.update(status="done", outcome="draw")
        tournament_finish(tournament_id=tournament.pk)
        with pytest.raises(Conflict):
            tournament_cancel(tournament_id=tournament.pk)

    def test_finish_waits_for_open_matches(self, owner, four):
        tournament = started(owner)
        tournament.matches.exclude(pk=tournament.matches.first().pk).update(status="done")
        assert tournament_finish(tournament_id=tournament.pk).status == "running"

    def test_finish_stores_the_standings_once(self, owner, four):
        tournament = started(owner)
        tournament.matches.update(status="done", outcome="draw")
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
        real_play = match_services._play

        def flaky(match):
            if match.pk == doomed.pk:
                raise PlatformError("sandbox host is broken")
            return real_play(match)

        monkeypatch.setattr(match_services, "_play", flaky)
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
        cell = standings["crosstable"]["cells"][f"{doomed.bot_a_id}-{doomed.bot_b_id}"]
        assert cell == {
            "match": doomed.pk,
            "status": "failed",
            "result": None,
            "match_points": [0, 0],
        }


class TestStandings:
    def test_they_have_exactly_the_documented_shape(self, owner, four):
        tournament = started(owner)
        standings = tournament_standings(tournament=tournament)
        assert set(standings) == {
            "tournament",
            "status",
            "matches_total",
            "matches_done",
            "rows",
            "crosstable",
        }
        assert (standings["tournament"], standings["status"]) == (tournament.pk, "running")
        assert (standings["matches_total"], standings["matches_done"]) == (6, 0)
        row = standings["rows"][0]
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
        assert row["bot"]["owner"] == "alice"
        assert row["version"] == 1
        assert set(standings["crosstable"]) == {"bots", "cells"}
        assert len(standings["crosstable"]["cells"]) == 12  # both directions of 6 pairings
        cell = next(iter(standings["crosstable"]["cells"].values()))
        assert set(cell) == {"match", "status", "result", "match_points"}

    def ranking(self, tournament: Tournament) -> list[tuple[int, str, int, int, int]]:
        rows = tournament_standings(tournament=tournament)["rows"]
        return [
            (r["rank"], r["bot"]["name"], r["match_points"], r["match_wins"], r["points"])
            for r in rows
        ]

    def test_match_points_first_then_match_wins(self, owner, four):
        anna, bert, cleo, dora = four
        tournament = started(owner)
        record(tournament, anna, bert, (4, 0))
        record(tournament, anna, cleo, (4, 3))
        record(tournament, anna, dora, (0, 4))
        record(tournament, bert, cleo, (4, 0))
        record(tournament, bert, dora, (2, 2))
        record(tournament, cleo, dora, (2, 2))
        # anna and dora: 8 match points each; anna won 2 matches, dora 1.
        assert self.ranking(tournament) == [
            (1, "anna", 8, 2, 180),
            (2, "dora", 8, 1, 180),
            (3, "bert", 6, 1, 180),
            (4, "cleo", 5, 0, 180),
        ]

    def test_then_head_to_head_before_game_points(self, owner, four):
        anna, bert, cleo, dora = four
        tournament = started(owner)
        record(tournament, anna, bert, (1, 4), points=(110, 90))
        record(tournament, anna, cleo, (4, 0), points=(300, 0))
        record(tournament, anna, dora, (4, 0), points=(300, 0))
        record(tournament, bert, cleo, (4, 3))
        record(tournament, bert, dora, (1, 4))
        record(tournament, cleo, dora, (2, 2))
        # anna and bert: 9 match points and 2 wins each; bert won their match, so bert is
        # ahead though anna has far more game points.
        ranking = self.ranking(tournament)
        assert [(rank, name) for rank, name, *_ in ranking] == [
            (1, "bert"),
            (2, "anna"),
            (3, "dora"),
            (4, "cleo"),
        ]
        assert ranking[0][2:4] == ranking[1][2:4] == (9, 2)
        assert ranking[1][4] > ranking[0][4]

    def test_then_game_points(self, owner, four):
        anna, bert, cleo, dora = four
        tournament = started(owner)
        record(tournament, anna, bert, (2, 2), points=(100, 100))
        record(tournament, anna, cleo, (4, 0), points=(300, 0))
        record(tournament, anna, dora, (0, 4), points=(0, 200))
        record(tournament, bert, cleo, (4, 1), points=(150, 50))
        record(tournament, bert, dora, (0, 4), points=(0, 200))
        record(tournament, cleo, dora, (1, 4), points=(20, 200))
        # anna and bert: 6 match points, 1 win, a draw between them; anna has more points.
        assert self.ranking(tournament) == [
            (1, "dora", 12, 3, 600),
            (2, "anna", 6, 1, 400),
            (3, "bert", 6, 1, 250),
            (4, "cleo", 2, 0, 70),
        ]


def row(name: str, mp: int, wins: int, points: int, result_vs: dict[int, int], pk: int):
    from arena.services.tournaments import _Row

    bot = Bot(pk=pk, name=name)
    return _Row(
        bot=bot, version=1, match_points=mp, match_wins=wins, points=points, result_vs=result_vs
    )


class TestRanking:
    """rank_rows on hand-made rows: each tie-break in isolation."""

    def rank(self, rows) -> list[tuple[str, int]]:
        from arena.services.tournaments import rank_rows

        return [(r.bot.name, rank) for rank, r in rank_rows(rows)]

    def test_match_points_first(self):
        rows = [row("low", 3, 3, 900, {}, 1), row("high", 4, 0, 0, {}, 2)]
        assert self.rank(rows) == [("high", 1), ("low", 2)]

    def test_then_match_wins(self):
        rows = [row("fewer", 6, 1, 900, {2: 2}, 1), row("more", 6, 2, 0, {1: 0}, 2)]
        assert self.rank(rows) == [("more", 1), ("fewer", 2)]

    def test_then_head_to_head(self):
        rows = [row("lost", 6, 2, 900, {2: 0}, 1), row("beat", 6, 2, 100, {1: 2}, 2)]
        assert self.rank(rows) == [("beat", 1), ("lost", 2)]

    def test_head_to_head_counts_only_among_the_tied(self):
        # x and y are level; x's win over z (not tied with them) must not count.
        rows = [
            row("x", 6, 2, 100, {2: 1, 3: 2}, 1),
            row("y", 6, 2, 200, {1: 1, 3: 0}, 2),
            row("z", 2, 0, 0, {1: 0, 2: 2}, 3),
        ]
        assert self.rank(rows) == [("y", 1), ("x", 2), ("z", 3)]

    def test_then_game_points(self):
        rows = [row("less", 6, 2, 100, {2: 1}, 1), row("more", 6, 2, 200, {1: 1}, 2)]
        assert self.rank(rows) == [("more", 1), ("less", 2)]

    def test_complete_ties_share_a_rank(self):
        rows = [
            row("b", 6, 2, 100, {2: 1}, 1),
            row("a", 6, 2, 100, {1: 1}, 2),
            row("c", 1, 0, 0, {}, 3),
        ]
        assert self.rank(rows) == [("a", 1), ("b", 1), ("c", 3)]


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
    assert sorted(bot.name for bot in first) == ["greedy", "heuristic", "random", "search"]
    for bot in again:
        assert bot.is_builtin and bot.is_active
        assert bot.owner.username == "arena"
        assert not bot.owner.has_usable_password()
        assert bot.versions.count() == 1
        version = bot.active_version
        assert version.status == "valid"
        assert version.file.read().startswith(b'"""')
        assert Rating.objects.filter(bot=bot).count() == 1


def test_a_changed_builtin_file_becomes_a_new_version(tmp_path, monkeypatch):
    from engine.registry import GAMES

    [random_bot] = [bot for bot in builtin_bots_install() if bot.name == "random"]
    changed = tmp_path / "random_bot.py"
    changed.write_text('"""random, improved."""\n' + bots.GOOD)
    game = GAMES["lie21"]
    paths = {**game.builtin_bots(), "random": changed}
    monkeypatch.setattr(type(game), "builtin_bots", lambda self: paths)
    builtin_bots_install()
    random_bot.refresh_from_db()
    assert random_bot.versions.count() == 2
    assert random_bot.active_version.number == 2


def test_the_demo_tournament_runs_once(run_on_commit, make_bot):
    make_bot("uploaded")  # an uploaded bot is not part of the demo
    with run_on_commit():
        tournament = demo_tournament_start()
    assert tournament is not None
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert sorted(tournament.entries.values_list("bot__name", flat=True)) == [
        "greedy",
        "heuristic",
        "random",
        "search",
    ]
    assert Replay.objects.count() == 6  # a round robin of four
    assert demo_tournament_start() is None


def test_the_demo_tournament_can_be_switched_off(settings):
    settings.ARENA_DEMO_TOURNAMENT = False
    assert demo_tournament_start() is None
    assert not Tournament.objects.exists()


def test_a_win_by_the_other_bots_fault_counts_as_a_walkover():
    from arena.services.tournaments import WALKOVER_MATCH_POINTS, _match_points

    match = Match(outcome="b", reason="error", match_points_a=1, match_points_b=0)
    assert _match_points(match, "b") == (WALKOVER_MATCH_POINTS, 1)
    assert _match_points(match, "a") == (1, WALKOVER_MATCH_POINTS)
    played = Match(outcome="a", reason="match_points", match_points_a=4, match_points_b=2)
    assert _match_points(played, "a") == (4, 2)
