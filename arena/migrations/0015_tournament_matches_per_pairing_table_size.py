# "games_per_match" played that many *matches* per pairing (a Lie 21 match is already best of
# seven games): it becomes matches_per_pairing, its data kept. Tournaments gain table_size
# (the seats at each table); the existing ones get the size they were played at (the game's
# ladder table, at most the entrants), so their rounds and standings read as before. The
# seed may be left empty in the admin (a random one is drawn), and organising tournaments
# becomes a permission of its own.

from django.db import migrations, models


def table_sizes_as_played(apps, schema_editor):
    """The table size each existing tournament used: what ``ladder_seats`` gave it (the
    game's preferred ladder table, at most its entrants, at least the game's smallest)."""
    from engine.registry import GAMES

    Tournament = apps.get_model("arena", "Tournament")
    for tournament in Tournament.objects.filter(table_size__isnull=True).iterator():
        game = GAMES.get(tournament.game)
        if game is None:
            size = 2
        else:
            preferred = getattr(game, "ladder_seats", min(4, game.max_players))
            entrants = tournament.entries.count() or preferred
            size = max(game.min_players, min(preferred, game.max_players, entrants))
        Tournament.objects.filter(pk=tournament.pk).update(table_size=size)


class Migration(migrations.Migration):
    dependencies = [("arena", "0014_rating_whole_history_fit")]

    operations = [
        migrations.RenameField(
            model_name="tournament", old_name="games_per_match", new_name="matches_per_pairing"
        ),
        migrations.RenameField(
            model_name="tournamentschedule",
            old_name="games_per_match",
            new_name="matches_per_pairing",
        ),
        migrations.AddField(
            model_name="tournament",
            name="table_size",
            field=models.PositiveSmallIntegerField(
                blank=True, help_text="Left empty: the game's smallest table.", null=True
            ),
        ),
        migrations.AddField(
            model_name="tournamentschedule",
            name="table_size",
            field=models.PositiveSmallIntegerField(
                blank=True, help_text="Left empty: the game's smallest table.", null=True
            ),
        ),
        migrations.RunPython(table_sizes_as_played, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="tournament",
            name="seed",
            field=models.BigIntegerField(blank=True, help_text="Left empty: a random one."),
        ),
        migrations.AlterModelOptions(
            name="tournament",
            options={
                "ordering": ["-created", "-id"],
                "permissions": [
                    ("organise_tournaments", "Can create, start, cancel and schedule tournaments")
                ],
            },
        ),
        migrations.AlterModelOptions(
            name="tournamententry", options={"verbose_name_plural": "tournament entries"}
        ),
    ]
