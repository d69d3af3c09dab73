# The displayed rating becomes a whole-history fit (arena.services.rating_fit): each rating
# and each history row gets the fit's fields, and the ladder's index moves from the live
# conservative score to the fit's rating.

import arena.models.games
from django.db import migrations, models
from django.db.models import F


def backfill(apps, schema_editor):
    """Each existing version's prior is the live mu it started from (its first rated match's
    mu before, as rating_for_version set it; its mu if it has not played), and its displayed
    rating starts there until the first fit, which the periodic refit runs within a minute.
    History rows keep what was shown when they were written: the live TrueSkill rating."""
    Rating = apps.get_model("arena", "Rating")
    MatchSeat = apps.get_model("arena", "MatchSeat")
    RatingHistory = apps.get_model("arena", "RatingHistory")
    first = {}
    seats = (
        MatchSeat.objects.filter(mu_before__isnull=False)
        .order_by("version_id", "match_id")
        .values_list("version_id", "mu_before")
    )
    for version_id, mu_before in seats.iterator():
        first.setdefault(version_id, mu_before)
    for rating in Rating.objects.all().iterator():
        prior = first.get(rating.version_id, rating.mu)
        Rating.objects.filter(pk=rating.pk).update(prior_mu=prior, rating=prior)
    RatingHistory.objects.update(rating=F("mu"), rating_sigma=F("sigma"))


class Migration(migrations.Migration):
    dependencies = [
        ("arena", "0013_playground_drafts_runs_matches"),
    ]

    operations = [
        migrations.CreateModel(
            name="RatingFit",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "game",
                    models.CharField(
                        max_length=32, unique=True, validators=[arena.models.games.validate_game]
                    ),
                ),
                ("fitted", models.DateTimeField()),
                ("matches", models.PositiveIntegerField(default=0)),
                ("versions", models.PositiveIntegerField(default=0)),
                ("iterations", models.PositiveSmallIntegerField(default=0)),
                ("converged", models.BooleanField(default=True)),
                ("duration_ms", models.FloatField(default=0.0)),
            ],
        ),
        migrations.AlterModelOptions(
            name="rating",
            options={"ordering": ["-rating", "id"]},
        ),
        migrations.RemoveIndex(
            model_name="rating",
            name="rating_ladder",
        ),
        migrations.AddField(
            model_name="rating",
            name="fitted",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="rating",
            name="prior_mu",
            field=models.FloatField(default=25.0),
        ),
        migrations.AddField(
            model_name="rating",
            name="rating",
            field=models.FloatField(default=25.0),
        ),
        migrations.AddField(
            model_name="rating",
            name="rating_sigma",
            field=models.FloatField(default=8.333333333333334),
        ),
        migrations.AddField(
            model_name="ratinghistory",
            name="rating",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="ratinghistory",
            name="rating_sigma",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name="rating",
            index=models.Index(fields=["game", "current", "-rating", "id"], name="rating_ladder"),
        ),
        migrations.AddIndex(
            model_name="ratinghistory",
            index=models.Index(
                condition=models.Q(("rating__isnull", True)),
                fields=["game"],
                name="rating_history_unfitted",
            ),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
