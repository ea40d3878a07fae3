"""One rematch offer waiting per game. Offers sent at once could each be
stored; of those still waiting, the first stays and the others are
withdrawn, before the constraint that keeps it so."""

from django.conf import settings
from django.db import migrations, models
from django.utils import timezone


def withdraw_extra_offers(apps, schema_editor):
    Challenge = apps.get_model("games", "Challenge")
    waiting = Challenge.objects.filter(status="open", rematch_of__isnull=False).order_by(
        "rematch_of_id", "created_at", "id"
    )
    seen = set()
    extra = []
    for pk, game_id in waiting.values_list("pk", "rematch_of_id"):
        if game_id in seen:
            extra.append(pk)
        seen.add(game_id)
    Challenge.objects.filter(pk__in=extra).update(status="cancelled", resolved_at=timezone.now())


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0018_unplayed_games_aborted"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(withdraw_extra_offers, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="challenge",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status", "open")),
                fields=("rematch_of",),
                name="challenge_one_open_rematch_per_game",
            ),
        ),
    ]
