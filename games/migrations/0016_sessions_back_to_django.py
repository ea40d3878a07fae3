"""Sessions move back to Django's own table (django_session, its db and
cached_db engines): every session still open is moved, so nobody is signed
out; sessions that name the site's former backend name Django's ModelBackend,
which it was. Back again, when migrated backwards."""

from django.contrib.auth import BACKEND_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import migrations
from django.utils import timezone

BATCH = 1000
SITES_BACKEND = "games.accounts.backends.ModelBackend"
DJANGOS_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _renamed(session_data: str, old: str, new: str) -> str:
    """``session_data`` with the backend ``old`` renamed ``new``; else as it was."""
    store = SessionStore()
    data = store.decode(session_data)
    if data.get(BACKEND_SESSION_KEY) != old:
        return session_data
    data[BACKEND_SESSION_KEY] = new
    return store.encode(data)


def _user_id(session_data: str) -> int | None:
    try:
        return int(SessionStore().decode(session_data)[SESSION_KEY])
    except (KeyError, TypeError, ValueError):
        return None


def _move(source, target, old: str, new: str, with_user: bool) -> None:
    """Every unexpired session of ``source`` into ``target``, in batches."""
    still_open = source.objects.filter(expire_date__gt=timezone.now()).order_by("pk")
    batch = []
    for session in still_open.iterator(chunk_size=BATCH):
        data = _renamed(session.session_data, old, new)
        fields = {"user_id": _user_id(data)} if with_user else {}
        batch.append(
            target(session_key=session.session_key, session_data=data, expire_date=session.expire_date, **fields)
        )
        if len(batch) == BATCH:
            target.objects.bulk_create(batch, ignore_conflicts=True)
            batch = []
    target.objects.bulk_create(batch, ignore_conflicts=True)
    source.objects.all().delete()


def forwards(apps, schema_editor):
    _move(
        apps.get_model("games", "Session"),
        apps.get_model("sessions", "Session"),
        SITES_BACKEND,
        DJANGOS_BACKEND,
        with_user=False,
    )


def backwards(apps, schema_editor):
    _move(
        apps.get_model("sessions", "Session"),
        apps.get_model("games", "Session"),
        DJANGOS_BACKEND,
        SITES_BACKEND,
        with_user=True,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0015_game_reviews"),
        ("sessions", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
        migrations.DeleteModel(name="Session"),
    ]
