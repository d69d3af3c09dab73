"""Rounds of Swiss tournaments as the services create them (round after round, from the
database), at the default table and at larger ones."""

from __future__ import annotations

from collections import defaultdict

import pytest

from arena.services.tournaments import tournament_create, tournament_start
from tests.arena.services.tournaments.results import bots, run_to_end

pytestmark = pytest.mark.django_db


def tables_by_round(tournament) -> dict[int, set[frozenset[int]]]:
    rounds: dict[int, set[frozenset[int]]] = defaultdict(set)
    for match in tournament.matches.prefetch_related("seats"):
        rounds[match.round_number].add(frozenset(s.bot_id for s in match.seats.all()))
    return rounds


def test_a_swiss_of_four_liars_bots_plays_different_rounds_at_its_default_table(owner):
    """The issue's case: four Liars bots used to sit at one table of four every round."""
    bots(4, game="liars")
    tournament = tournament_create(name="S", game="liars", created_by=owner, format="swiss")
    assert tournament.table_size == 2, "the game's smallest table"
    tournament_start(tournament_id=tournament.pk)
    finished = run_to_end(tournament, seed=4)
    rounds = tables_by_round(finished)
    assert len(rounds) == finished.rounds == 3
    assert len({frozenset(tables) for tables in rounds.values()}) == 3, "three different rounds"
    every_pair = [pair for tables in rounds.values() for pair in tables]
    assert len(every_pair) == len(set(every_pair)) == 6, "every pair met once, none twice"


def test_a_swiss_at_tables_of_three_repeats_no_table_while_another_grouping_exists(owner):
    bots(6, game="liars")
    tournament = tournament_create(
        name="S", game="liars", created_by=owner, format="swiss", table_size=3, rounds=4
    )
    tournament_start(tournament_id=tournament.pk)
    finished = run_to_end(tournament, seed=6)
    rounds = tables_by_round(finished)
    tables = [table for round_tables in rounds.values() for table in round_tables]
    assert all(len(table) == 3 for table in tables)
    assert len(tables) == len(set(tables)) == 8, "two tables a round, none seen twice"
