"""Game-neutral matches, step 1 of 3: add seats, per-version ratings and the new fields.

Nothing is removed here: 0005 copies every match's two seats, every rating and history row
and every replay into the new shape, and 0006 drops the two-seat columns.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("arena", "0003_version_pause_validation_requeues"),
    ]

    operations = [
        migrations.CreateModel(
            name="MatchSeat",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("seat", models.PositiveSmallIntegerField()),
                ("placing", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("score", models.IntegerField(default=0)),
                ("fault", models.CharField(blank=True, max_length=16)),
                ("fault_detail", models.CharField(blank=True, max_length=500)),
                ("mu_before", models.FloatField(blank=True, null=True)),
                ("sigma_before", models.FloatField(blank=True, null=True)),
                ("mu_after", models.FloatField(blank=True, null=True)),
                ("sigma_after", models.FloatField(blank=True, null=True)),
                (
                    "bot",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seats",
                        to="arena.bot",
                    ),
                ),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seats",
                        to="arena.match",
                    ),
                ),
                (
                    "version",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seats",
                        to="arena.botversion",
                    ),
                ),
            ],
            options={
                "ordering": ["match", "seat"],
                "indexes": [
                    models.Index(fields=["bot", "-match"], name="seat_bot_recent"),
                    models.Index(fields=["version", "-match"], name="seat_version_recent"),
                ],
                "constraints": [
                    models.UniqueConstraint(fields=("match", "seat"), name="seat_per_match")
                ],
            },
        ),
        migrations.AddField(
            model_name="match", name="options", field=models.JSONField(blank=True, default=dict)
        ),
        migrations.AddField(
            model_name="match", name="seat_count", field=models.PositiveSmallIntegerField(default=2)
        ),
        migrations.AddField(
            model_name="match", name="ranked", field=models.BooleanField(default=True)
        ),
        migrations.AddField(
            model_name="match",
            name="duplicate_key",
            field=models.CharField(blank=True, db_index=True, max_length=32),
        ),
        migrations.AddField(
            model_name="match", name="totals", field=models.JSONField(blank=True, default=dict)
        ),
        migrations.AddField(
            model_name="matchlog", name="steps", field=models.JSONField(blank=True, default=list)
        ),
        migrations.AddField(
            model_name="rating",
            name="version",
            field=models.OneToOneField(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rating",
                to="arena.botversion",
            ),
        ),
        migrations.AddField(
            model_name="rating", name="current", field=models.BooleanField(default=False)
        ),
        migrations.AddField(
            model_name="rating", name="first_places", field=models.PositiveIntegerField(default=0)
        ),
        migrations.AddField(
            model_name="rating", name="placing_sum", field=models.PositiveIntegerField(default=0)
        ),
        migrations.AddField(
            model_name="rating", name="faults", field=models.PositiveIntegerField(default=0)
        ),
        migrations.AddField(
            model_name="ratinghistory",
            name="version",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rating_history",
                to="arena.botversion",
            ),
        ),
        migrations.RemoveConstraint(model_name="rating", name="rating_per_bot_game"),
        migrations.RemoveConstraint(model_name="ratinghistory", name="rating_once_per_match"),
    ]
