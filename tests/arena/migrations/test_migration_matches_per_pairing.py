"""Migration 0015 keeps what ``games_per_match`` held as ``matches_per_pairing`` (it always
counted whole matches per pairing), for tournaments and schedules alike, and gives the
existing tournaments the table size they were played at.

Data is written in the shape of migration 0014, then migrated forward (the pattern of
test_migration_to_seats.py: Django's MigrationExecutor on the test database).
"""

from __future__ import annotations

import pytest

from arena.services.ladder import ladder_seats
from tests.arena.helpers import migrate_to, migrated_back

BEFORE = [("arena", "0014_rating_whole_history_fit")]
AFTER = [("arena", "0015_tournament_matches_per_pairing_table_size")]

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def old_apps():
    with migrated_back(BEFORE) as apps:
        yield apps


@pytest.mark.slow
def test_games_per_match_is_kept_as_matches_per_pairing(old_apps):
    tournaments = old_apps.get_model("arena", "Tournament").objects
    schedules = old_apps.get_model("arena", "TournamentSchedule").objects
    seven = tournaments.create(name="Seven", game="lie21", seed=1, games_per_match=7)
    one = tournaments.create(name="One", game="liars", seed=2, games_per_match=1)
    nightly = schedules.create(name="Nightly", game="lie21", crontab="0 3 * * *", games_per_match=3)
    field_names = {field.name for field in tournaments.model._meta.get_fields()}
    assert "games_per_match" in field_names and "matches_per_pairing" not in field_names

    new_apps = migrate_to(AFTER)

    model = new_apps.get_model("arena", "Tournament")
    tournaments = model.objects
    schedules = new_apps.get_model("arena", "TournamentSchedule").objects
    assert "games_per_match" not in {field.name for field in model._meta.get_fields()}
    assert tournaments.get(pk=seven.pk).matches_per_pairing == 7
    assert tournaments.get(pk=one.pk).matches_per_pairing == 1
    assert schedules.get(pk=nightly.pk).matches_per_pairing == 3
    # The table each was played at (what the ladder's table size gave it then): Lie 21 is
    # two seats; a Liars tournament without entries gets the game's ladder table.
    assert tournaments.get(pk=seven.pk).table_size == 2
    assert tournaments.get(pk=one.pk).table_size == ladder_seats("liars", 99)
    assert schedules.get(pk=nightly.pk).table_size is None
