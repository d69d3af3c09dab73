"""Covering indexes for the pages at scale (docs/deploy.md, "Load and scale"): a bot page's
head-to-head and recent matches read seat_bot_recent and seat_match_results alone, its
rating chart rating_history_bot alone, a ladder page's sparklines rating_history_version
alone, and a ladder's entries join their ratings to the active bots' ids in bot_active_ids
(not to the bots' rows). The covering columns are PostgreSQL's; other databases get the
keys."""

import django.db.models.deletion
from django.db import migrations, models

#: The name Django gave the index of MatchSeat.match (the same on every database).
FOREIGN_KEY_INDEX = "arena_matchseat_match_id_628a934f"


class Migration(migrations.Migration):
    dependencies = [
        ("arena", "0015_tournament_matches_per_pairing_table_size"),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="matchseat",
            name="seat_bot_recent",
        ),
        migrations.RemoveIndex(
            model_name="ratinghistory",
            name="rating_history_bot",
        ),
        migrations.RemoveIndex(
            model_name="ratinghistory",
            name="rating_history_version",
        ),
        # The foreign key's own index goes (seat_match_results, below, leads with the same
        # column): only the index, not the constraint, which AlterField would drop and add
        # again, checking every seat of a big table.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="matchseat",
                    name="match",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seats",
                        to="arena.match",
                    ),
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    sql=f"DROP INDEX IF EXISTS {FOREIGN_KEY_INDEX}",
                    reverse_sql=(f"CREATE INDEX {FOREIGN_KEY_INDEX} ON arena_matchseat (match_id)"),
                ),
            ],
        ),
        migrations.AddIndex(
            model_name="matchseat",
            index=models.Index(
                fields=["bot", "-match"],
                include=("seat", "placing", "score"),
                name="seat_bot_recent",
            ),
        ),
        migrations.AddIndex(
            model_name="matchseat",
            index=models.Index(
                fields=["match"], include=("bot", "placing", "score"), name="seat_match_results"
            ),
        ),
        migrations.AddIndex(
            model_name="ratinghistory",
            index=models.Index(
                fields=["bot", "created", "id"],
                include=("rating", "rating_sigma", "version"),
                name="rating_history_bot",
            ),
        ),
        migrations.AddIndex(
            model_name="ratinghistory",
            index=models.Index(
                fields=["version", "created", "id"],
                include=("rating",),
                name="rating_history_version",
            ),
        ),
        migrations.AddIndex(
            model_name="bot",
            index=models.Index(
                condition=models.Q(("is_active", True)), fields=["id"], name="bot_active_ids"
            ),
        ),
    ]
