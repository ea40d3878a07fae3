"""The site-wide counters keep each kind's count in several rows (a game in
the row of its id modulo COUNTER_SHARDS, games/stats/models.py), so games
ending at once do not queue for one row's lock. Rows counted so far stay as
they are, in the first; every reader sums a kind's rows."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0013_sessions_with_their_user'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='dailystats',
            name='dailystats_one_per_kind',
        ),
        migrations.RemoveConstraint(
            model_name='firstmovestats',
            name='firstmovestats_one_per_kind',
        ),
        migrations.AddField(
            model_name='dailystats',
            name='shard',
            field=models.PositiveSmallIntegerField(default=0, help_text="Which of the kind's rows (COUNTER_SHARDS): its games are the sum of them."),
        ),
        migrations.AddField(
            model_name='firstmovestats',
            name='shard',
            field=models.PositiveSmallIntegerField(default=0, help_text="Which of the kind's rows (COUNTER_SHARDS): its games are the sum of them."),
        ),
        migrations.AddConstraint(
            model_name='dailystats',
            constraint=models.UniqueConstraint(fields=('day', 'variant', 'opponent', 'ai_side', 'result', 'termination', 'shard'), name='dailystats_one_per_kind_and_shard'),
        ),
        migrations.AddConstraint(
            model_name='firstmovestats',
            constraint=models.UniqueConstraint(fields=('variant', 'cell', 'result', 'shard'), name='firstmovestats_one_per_kind_and_shard'),
        ),
    ]
