"""A game that ended before both sides had moved (a resignation, an agreed
draw or a timeout at the first move) has no result: it is aborted, and rates
and counts nobody. Games stored as finished that way are aborted here, and
every counter and rating is rebuilt from the games, as if they had never
counted.

The rebuild is the site's own recount (games.stats.counters.recount), which
reads the games and writes the counter tables as they stand at this
migration; it runs only when such games exist."""

from django.db import migrations

#: Fewer moves than this and one side never moved.
BOTH_SIDES_MOVED = 2


def forwards(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    unplayed = Game.objects.filter(status="finished", move_count__lt=BOTH_SIDES_MOVED)
    if unplayed.update(status="aborted", result="", termination="", stats_counted=False):
        from games.stats import counters

        counters.recount()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0017_review_help_names_its_module"),
    ]

    operations = [
        # Reversed, the games stay aborted: their old ending was never a result.
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
