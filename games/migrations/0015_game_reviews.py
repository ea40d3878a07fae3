"""A finished game's review is kept with it (games/learn/models.py GameReview):
made once by the background worker, read by the pages and the API without a search."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_counters_in_shards"),
    ]

    operations = [
        migrations.CreateModel(
            name="GameReview",
            fields=[
                (
                    "game",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="review",
                        serialize=False,
                        to="games.game",
                    ),
                ),
                (
                    "review",
                    models.JSONField(
                        help_text="Each move's label, evaluations and best cells, the decisive move and whether the review is exact; the lines of best play after each better move and each move played but the best; the analysis of the position before each mistake and blunder (games.learn.reviews.ReviewedGame.to_json)."
                    ),
                ),
                ("reviewed_at", models.DateTimeField(auto_now_add=True, verbose_name="reviewed")),
            ],
            options={
                "ordering": ["-reviewed_at"],
            },
        ),
    ]
