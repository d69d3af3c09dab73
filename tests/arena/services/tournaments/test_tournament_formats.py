"""Swiss and double-elimination tournaments end to end through the task functions, their
options, and a redelivered "round finished"."""

from __future__ import annotations

from collections import Counter

import pytest
from django.db import IntegrityError, transaction

from arena.algorithms.formats import pair_key
from arena.errors import InvalidInput
from arena.models import Match, MatchSeat, RatingHistory, Tournament
from arena.services.tournaments import (
    tournament_create,
    tournament_finish,
    tournament_standings,
    tournament_start,
)
from tests.arena import bots

pytestmark = pytest.mark.django_db


def tables_by_round(tournament: Tournament) -> dict[int, list[list[int]]]:
    """Round -> its tables (bots in seat order of each table's first match)."""
    rounds: dict[int, dict[int, list[int]]] = {}
    seats = (
        MatchSeat.objects.filter(match__tournament=tournament, match__leg=0)
        .order_by("match__round_number", "match__table_number", "seat")
        .values_list("match__round_number", "match__table_number", "bot_id")
    )
    for round_number, table, bot in seats:
        rounds.setdefault(round_number, {}).setdefault(table, []).append(bot)
    return {r: list(tables.values()) for r, tables in rounds.items()}


def create(owner, **options) -> Tournament:
    return tournament_create(name="Open", game="lie21", created_by=owner, seed=5, **options)


def high_card_seven(owner, make_bot, **options) -> Tournament:
    """Seven High Card bots (a to g) and a tournament of them at tables of three."""
    for name in ("a", "b", "c", "d", "e", "f", "g"):
        make_bot(name, bots.HIGHCARD, game="highcard")
    return tournament_create(
        name="HC", game="highcard", created_by=owner, seed=3, table_size=3, **options
    )


def finish_round(tournament: Tournament, winner_of=min) -> None:
    """Write a result for every open match: ``winner_of(bot ids)`` places first."""
    for match in tournament.matches.filter(status="queued"):
        seats = list(match.seats.all())
        winner = winner_of([seat.bot_id for seat in seats])
        Match.objects.filter(pk=match.pk).update(status="done")
        for seat in seats:
            MatchSeat.objects.filter(pk=seat.pk).update(
                placing=0 if seat.bot_id == winner else 1, score=1
            )


class TestSwiss:
    def test_it_runs_end_to_end_with_a_bye_and_no_rematch(self, owner, make_bot, run_on_commit):
        field = [
            make_bot("good-1"),
            make_bot("good-2"),
            make_bot("random-1", bots.RANDOM),
            make_bot("random-2", bots.RANDOM),
            make_bot("crasher", bots.CRASH_IN_ACT),
        ]
        tournament = create(owner, format="swiss")
        with run_on_commit():
            tournament_start(tournament_id=tournament.pk)
        tournament.refresh_from_db()
        assert tournament.status == "finished"
        assert tournament.rounds == 4, "ceil(log2 5) + 1"
        rounds = tables_by_round(tournament)
        assert sorted(rounds) == [1, 2, 3, 4]
        byes = Counter(bot for _, bot, _ in tournament.byes)
        met: Counter = Counter()
        for number, tables in rounds.items():
            round_byes = [bot for r, bot, _ in tournament.byes if r == number]
            seated = [bot for table in tables for bot in table]
            assert sorted(seated + round_byes) == sorted(b.pk for b in field)
            assert len(round_byes) == 1
            met.update(pair_key(*table) for table in tables)
        assert max(met.values()) == 1, "5 bots, 4 rounds: no rematch needed"
        assert max(byes.values()) == 1, "nobody sits out twice"
        standings = tournament.standings
        assert standings["format"] == "swiss" and standings["rounds_planned"] == 4
        rows = standings["rows"]
        keys = [(-r["points"], -r["buchholz"]) for r in rows]
        assert keys == sorted(keys), "ranked by points, then Buchholz"
        assert sum(r["points"] for r in rows) == pytest.approx(8 + 4), "8 matches, 4 byes of 1"
        crasher = next(r for r in rows if r["bot"]["name"] == "crasher")
        assert crasher["points"] == sum(1 for _ in crasher["byes"]), "only its bye scores"
        assert set(
            Match.objects.filter(tournament=tournament).values_list("status", flat=True)
        ) == {"done"}
        assert RatingHistory.objects.filter(match__tournament=tournament).count() == 16

    def test_a_redelivered_round_finished_creates_the_next_round_once(self, owner, make_bot):
        for name in ("a", "b", "c", "d"):
            make_bot(name)
        tournament = create(owner, format="swiss", rounds=2)
        tournament_start(tournament_id=tournament.pk)
        assert tournament.matches.count() == 2
        tournament_finish(tournament_id=tournament.pk)  # round 1 still open: nothing
        assert tournament.matches.count() == 2
        finish_round(tournament)
        for _ in range(3):
            tournament_finish(tournament_id=tournament.pk)
        assert sorted(tables_by_round(tournament)) == [1, 2]
        assert tournament.matches.count() == 4
        tournament.refresh_from_db()
        assert tournament.status == "running"
        finish_round(tournament)
        tournament_finish(tournament_id=tournament.pk)
        tournament_finish(tournament_id=tournament.pk)
        tournament.refresh_from_db()
        assert tournament.status == "finished" and tournament.matches.count() == 4

    def test_the_database_refuses_a_second_copy_of_a_round(self, owner, make_bot):
        for name in ("a", "b"):
            make_bot(name)
        tournament = create(owner, format="swiss", rounds=1)
        tournament_start(tournament_id=tournament.pk)
        match = tournament.matches.get()
        with pytest.raises(IntegrityError), transaction.atomic():
            Match.objects.create(
                game="lie21", tournament=tournament, seed=1, round_number=1, table_number=0
            )
        assert tournament.matches.get() == match

    def test_seats_alternate(self, owner, make_bot):
        field = [make_bot(name) for name in ("a", "b", "c", "d")]
        tournament = create(owner, format="swiss", rounds=3)
        tournament_start(tournament_id=tournament.pk)
        for _ in range(2):
            finish_round(tournament)
            tournament_finish(tournament_id=tournament.pk)
        firsts = Counter(
            MatchSeat.objects.filter(match__tournament=tournament, seat=0).values_list(
                "bot_id", flat=True
            )
        )
        # 3 rounds, 4 bots: 6 first seats, nobody with all three or none... at most 2 each.
        assert sum(firsts.values()) == 6
        assert all(firsts[bot.pk] in (1, 2) for bot in field)

    def test_a_three_seat_game_plays_tables_grouped_by_score(self, owner, make_bot, run_on_commit):
        tournament = high_card_seven(owner, make_bot, format="swiss", rounds=3)
        with run_on_commit():
            tournament_start(tournament_id=tournament.pk)
        tournament.refresh_from_db()
        assert tournament.status == "finished"
        for number, tables in tables_by_round(tournament).items():
            assert [len(table) for table in tables] == [3, 3]
            assert len([1 for r, _, _ in tournament.byes if r == number]) == 1
        rows = tournament.standings["rows"]
        assert sum(r["points"] for r in rows) == pytest.approx(3 * 2 * 3 + 3 * 2), (
            "6 tables of 3 points, 3 byes worth a win (2)"
        )


class TestDoubleElimination:
    def test_it_runs_end_to_end_to_one_champion(self, owner, make_bot, run_on_commit):
        for name in ("good-1", "good-2", "good-3"):
            make_bot(name)
        make_bot("random", bots.RANDOM)
        make_bot("crasher", bots.CRASH_IN_ACT)
        tournament = create(owner, format="double_elimination")
        with run_on_commit():
            tournament_start(tournament_id=tournament.pk)
        tournament.refresh_from_db()
        assert tournament.status == "finished"
        standings = tournament.standings
        rows = standings["rows"]
        champion = standings["champion"]
        assert rows[0]["bot"]["id"] == champion
        assert [r["eliminated_in"] is None for r in rows] == [True] + [False] * 4
        outs = [r["eliminated_in"] for r in rows[1:]]
        assert outs == sorted(outs, reverse=True), "later out, higher rank"
        losses: Counter = Counter()
        for round_ in standings["rounds"]:
            for table in round_["tables"]:
                assert table["bracket"] in ("winners", "losers", "final")
                loser = next(bot for bot in table["bots"] if bot != table["winner"])
                losses[loser] += 1
        assert losses[champion] <= 1
        assert all(losses[r["bot"]["id"]] == 2 for r in rows[1:])
        crasher = next(r for r in rows if r["bot"]["name"] == "crasher")
        assert crasher["rank"] == 5, "it lost both its matches by fault"

    def test_a_drawn_pairing_sends_the_better_seed_through(self, owner, make_bot):
        field = [make_bot(name) for name in ("a", "b", "c", "d")]
        tournament = create(owner, format="double_elimination")
        tournament_start(tournament_id=tournament.pk)
        seeds = dict(tournament.entries.values_list("bot_id", "seed"))
        while tournament.matches.filter(status="queued").exists():
            tournament.matches.filter(status="queued").update(status="done")
            MatchSeat.objects.filter(match__tournament=tournament).update(placing=0)
            tournament_finish(tournament_id=tournament.pk)
        tournament.refresh_from_db()
        assert tournament.status == "finished"
        best = min(field, key=lambda bot: seeds[bot.pk])
        assert tournament.standings["champion"] == best.pk
        assert tournament.standings["rows"][0]["losses"] == 0

    def test_the_unbeaten_finalist_who_loses_the_grand_final_gets_a_reset(self, owner, make_bot):
        a, b = make_bot("a"), make_bot("b")
        tournament = create(owner, format="double_elimination")
        tournament_start(tournament_id=tournament.pk)
        seeds = dict(tournament.entries.values_list("bot_id", "seed"))
        top = min((a, b), key=lambda bot: seeds[bot.pk])
        other = b if top == a else a
        results = [top.pk, other.pk, other.pk]  # winners, grand final upset, reset
        for winner in results:
            finish_round(tournament, winner_of=lambda ids, w=winner: w)
            tournament_finish(tournament_id=tournament.pk)
        tournament.refresh_from_db()
        assert [r["tables"][0]["bracket"] for r in tournament.standings["rounds"]] == [
            "winners",
            "final",
            "final",
        ]
        assert tournament.standings["champion"] == other.pk


class TestPromotion:
    def test_a_three_seat_game_runs_end_to_end_to_a_final_table(
        self, owner, make_bot, run_on_commit
    ):
        tournament = high_card_seven(owner, make_bot, format="promotion")
        with run_on_commit():
            tournament_start(tournament_id=tournament.pk)
        tournament.refresh_from_db()
        assert tournament.status == "finished"
        standings = tournament.standings
        rounds = standings["rounds"]
        # 7 bots at tables of 3 (High Card seats 2-4): tables of 3, 2 and 2; one from
        # each goes on, which makes the final table of 3.
        assert [len(r["tables"]) for r in rounds] == [3, 1]
        assert [len(r["byes"]) for r in rounds] == [0, 0]
        assert [t["bracket"] for r in rounds for t in r["tables"]] == ["round"] * 3 + ["final"]
        final = rounds[-1]["tables"][0]
        rows = standings["rows"]
        seeds = {r["bot"]["id"]: r["seed"] for r in rows}
        points = dict(zip(final["bots"], final["points"], strict=True))
        final_order = sorted(final["bots"], key=lambda bot: (-points[bot], seeds[bot]))
        assert [r["bot"]["id"] for r in rows[:3]] == final_order, "the final's order"
        assert rows[0]["bot"]["id"] == standings["champion"] == final["winner"]
        assert [r["eliminated_in"] for r in rows] == [None, 2, 2, 1, 1, 1, 1]
        assert [r["exit_place"] for r in rows[3:]] == [2, 2, 2, 3], (
            "second places first (1 = first)"
        )

    def test_a_two_seat_game_is_a_knockout_with_byes(self, owner, make_bot):
        field = [make_bot(name) for name in ("a", "b", "c", "d", "e")]
        tournament = create(owner, format="promotion")
        tournament_start(tournament_id=tournament.pk)
        seeds = dict(tournament.entries.values_list("bot_id", "seed"))
        while tournament.matches.filter(status="queued").exists():
            # The better seed wins every match.
            finish_round(tournament, winner_of=lambda ids: min(ids, key=seeds.get))
            tournament_finish(tournament_id=tournament.pk)
        tournament.refresh_from_db()
        assert tournament.status == "finished"
        best = min(field, key=lambda bot: seeds[bot.pk])
        assert tournament.standings["champion"] == best.pk
        assert [len(r["tables"]) for r in tournament.standings["rounds"]] == [2, 1, 1]


class TestOptions:
    def test_matches_per_pairing_and_duplicate_deals_make_more_matches_per_table(
        self, owner, make_bot
    ):
        for name in ("a", "b", "c", "d"):
            make_bot(name)
        tournament = create(owner, format="swiss", matches_per_pairing=2, duplicate=True)
        tournament_start(tournament_id=tournament.pk)
        matches = list(tournament.matches.order_by("table_number", "leg"))
        assert [(m.table_number, m.leg) for m in matches] == [
            (t, leg) for t in range(2) for leg in range(4)
        ]
        first = matches[:4]
        assert first[0].seed == first[1].seed != first[2].seed == first[3].seed
        assert first[0].duplicate_key == first[1].duplicate_key

    def test_an_unrated_tournament_leaves_the_ratings_alone(self, owner, make_bot, run_on_commit):
        for name in ("a", "b", "c"):
            make_bot(name)
        tournament = create(owner, rated=False)
        with run_on_commit():
            tournament_start(tournament_id=tournament.pk)
        tournament.refresh_from_db()
        assert tournament.status == "finished"
        assert not tournament.matches.filter(ranked=True).exists()
        assert not RatingHistory.objects.filter(match__tournament=tournament).exists()
        assert tournament_standings(tournament=tournament)["rows"][0]["played"] == 2

    @pytest.mark.parametrize(
        ("options", "code"),
        [
            ({"format": "knockout"}, "bad_format"),
            ({"format": "round_robin", "rounds": 3}, "bad_rounds"),
            ({"format": "swiss", "rounds": 0}, "bad_rounds"),
            ({"format": "swiss", "rounds": 101}, "bad_rounds"),
            ({"matches_per_pairing": 0}, "bad_matches_per_pairing"),
            ({"matches_per_pairing": 21}, "bad_matches_per_pairing"),
            ({"matches_per_pairing": True}, "bad_matches_per_pairing"),
        ],
    )
    def test_bad_options_are_refused_and_nothing_is_created(self, owner, options, code):
        with pytest.raises(InvalidInput) as caught:
            create(owner, **options)
        assert caught.value.code == code
        assert not Tournament.objects.exists()

    def test_double_elimination_is_played_at_two_seats(self, owner):
        with pytest.raises(InvalidInput, match="played at two seats") as refused:
            tournament_create(
                name="HC",
                game="highcard",
                created_by=owner,
                format="double_elimination",
                table_size=3,
            )
        assert refused.value.extra["fields"] == {"table_size": [refused.value.message]}
        assert not Tournament.objects.exists()
        heads_up = tournament_create(
            name="HC", game="highcard", created_by=owner, format="double_elimination"
        )
        assert heads_up.table_size == 2
