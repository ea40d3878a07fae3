"""Signed-in players stay signed in through Django's sessions, and are
signed out as Django signs them out: the session expired, the password
changed elsewhere, the account deactivated or deleted."""

from datetime import timedelta

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.urls import reverse
from django.utils import timezone

pytestmark = pytest.mark.django_db


def test_a_signed_in_player_stays_signed_in(client, user, password):
    assert client.post(reverse("login"), {"username": "alice", "password": password}).status_code == 302
    page = client.get(reverse("games:history"))
    assert page.status_code == 200 and "alice" in page.content.decode()


def test_a_player_whose_session_expired_is_signed_out(client, user, password):
    client.post(reverse("login"), {"username": "alice", "password": password})
    Session.objects.update(expire_date=timezone.now() - timedelta(seconds=1))
    page = client.get(reverse("games:history"))
    assert page.status_code == 302 and page["Location"].startswith(reverse("login"))


def _session_signed_in_as(user, backend: str) -> str:
    """A stored session of ``user`` signed in through ``backend``, as login() leaves it."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    store = SessionStore()
    store.update(
        {SESSION_KEY: str(user.pk), BACKEND_SESSION_KEY: backend, HASH_SESSION_KEY: user.get_session_auth_hash()}
    )
    store.create()
    return store.session_key


def test_a_player_whose_account_was_deactivated_is_signed_out(client, user, password):
    assert client.post(reverse("login"), {"username": "alice", "password": password}).status_code == 302
    assert client.get(reverse("games:history")).status_code == 200
    user.is_active = False
    user.save()
    page = client.get(reverse("games:history"))
    assert page.status_code == 302 and page["Location"].startswith(reverse("login"))


def test_a_session_naming_another_backend_signs_nobody_in(client, user, settings):
    client.cookies[settings.SESSION_COOKIE_NAME] = _session_signed_in_as(user, "some.removed.Backend")
    page = client.get(reverse("games:history"))
    assert page.status_code == 302 and page["Location"].startswith(reverse("login"))


def test_a_player_whose_password_changed_elsewhere_is_signed_out(client, user, password):
    assert client.post(reverse("login"), {"username": "alice", "password": password}).status_code == 302
    user.set_password("a-new-password-elsewhere")
    user.save()
    page = client.get(reverse("games:history"))
    assert page.status_code == 302 and page["Location"].startswith(reverse("login"))
    assert not Session.objects.exists()  # flushed, as Django does


def test_a_player_whose_account_was_deleted_is_nobody(client, user, password):
    client.post(reverse("login"), {"username": "alice", "password": password})
    user.delete()
    page = client.get(reverse("games:history"))
    assert page.status_code == 302 and page["Location"].startswith(reverse("login"))


@pytest.mark.django_db(transaction=True)
def test_sessions_open_in_the_sites_former_table_stay_signed_in(client, user):
    """Migration 0016 moves the sessions still open from games_session back to
    Django's table; those naming the site's former backend name Django's."""
    from importlib import import_module

    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.db import connection
    from django.db.migrations.loader import MigrationLoader

    before = MigrationLoader(connection).project_state(("games", "0015_game_reviews")).apps
    FormerSession = before.get_model("games", "Session")
    with connection.schema_editor() as editor:
        editor.create_model(FormerSession)
    try:
        store = SessionStore()
        signed_in = {
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: "games.accounts.backends.ModelBackend",
            HASH_SESSION_KEY: user.get_session_auth_hash(),
        }
        later = timezone.now() + timedelta(days=1)
        FormerSession.objects.create(session_key="a" * 32, session_data=store.encode(signed_in), expire_date=later)
        FormerSession.objects.create(session_key="g" * 32, session_data=store.encode({"guest": 1}), expire_date=later)
        FormerSession.objects.create(
            session_key="e" * 32, session_data=store.encode({}), expire_date=timezone.now() - timedelta(seconds=1)
        )

        import_module("games.migrations.0016_sessions_back_to_django").forwards(before, None)

        assert set(Session.objects.values_list("session_key", flat=True)) == {"a" * 32, "g" * 32}
        assert not FormerSession.objects.exists()
    finally:
        with connection.schema_editor() as editor:
            editor.delete_model(FormerSession)
    client.cookies["sessionid"] = "a" * 32
    page = client.get(reverse("games:history"))
    assert page.status_code == 200 and "alice" in page.content.decode()
