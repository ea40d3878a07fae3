"""Sessions move to games_session, which names the user each signs in
(games/accounts/sessions.py): every session still open is moved, so nobody
is signed out; back again, when migrated backwards."""

import django.db.models.deletion
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import migrations, models
from django.utils import timezone

BATCH = 1000


def _user_id(session_data: str) -> int | None:
    """The id of the user a stored session signs in, or None (a guest's, or unreadable)."""
    try:
        return int(SessionStore().decode(session_data)[SESSION_KEY])
    except (KeyError, TypeError, ValueError):
        return None


def _move(source, target, with_user: bool) -> None:
    """Every unexpired session of ``source`` into ``target``, in batches."""
    still_open = source.objects.filter(expire_date__gt=timezone.now()).order_by("pk")
    batch = []
    for session in still_open.iterator(chunk_size=BATCH):
        fields = {"session_key": session.session_key, "session_data": session.session_data}
        if with_user:
            fields["user_id"] = _user_id(session.session_data)
        batch.append(target(expire_date=session.expire_date, **fields))
        if len(batch) == BATCH:
            target.objects.bulk_create(batch, ignore_conflicts=True)
            batch = []
    target.objects.bulk_create(batch, ignore_conflicts=True)
    source.objects.all().delete()


def forwards(apps, schema_editor):
    _move(apps.get_model("sessions", "Session"), apps.get_model("games", "Session"), with_user=True)


def backwards(apps, schema_editor):
    _move(apps.get_model("games", "Session"), apps.get_model("sessions", "Session"), with_user=False)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0012_api_tokens'),
        ('sessions', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Session',
            fields=[
                ('session_key', models.CharField(max_length=40, primary_key=True, serialize=False, verbose_name='session key')),
                ('session_data', models.TextField(verbose_name='session data')),
                ('expire_date', models.DateTimeField(db_index=True, verbose_name='expire date')),
                ('user', models.ForeignKey(blank=True, db_constraint=False, editable=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'session',
                'verbose_name_plural': 'sessions',
                'db_table': 'games_session',
                'abstract': False,
            },
        ),
        migrations.RunPython(forwards, backwards),
    ]
