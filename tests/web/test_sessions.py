"""Sessions are read with their user by one statement built once
(games/accounts/sessions.py): Django's database sessions, with the user each
signs in in a column of its own; expired ones not read, and the user checked
as Django checks them (active, the session's password hash)."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.accounts.models import Session
from games.accounts.sessions import SessionStore

pytestmark = pytest.mark.django_db


def test_a_signed_in_player_stays_signed_in_with_one_read_of_the_session(client, user, password):
    assert client.post(reverse("login"), {"username": "alice", "password": password}).status_code == 302
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("games:history"))
    assert page.status_code == 200 and "alice" in page.content.decode()
    assert sum('"games_session"' in query["sql"] for query in queries) == 1


def test_a_player_whose_session_expired_is_signed_out(client, user, password):
    client.post(reverse("login"), {"username": "alice", "password": password})
    Session.objects.update(expire_date=timezone.now() - timedelta(seconds=1))
    page = client.get(reverse("games:history"))
    assert page.status_code == 302 and page["Location"].startswith(reverse("login"))


def test_an_expired_session_is_not_read_and_its_key_is_forgotten(user):
    store = SessionStore()
    store["colour"] = "blue"
    store.create()
    key = store.session_key
    assert SessionStore(key).load() == {"colour": "blue"}
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - timedelta(seconds=1))
    expired = SessionStore(key)
    assert expired.load() == {} and expired.session_key is None


def test_an_unknown_key_reads_nothing():
    store = SessionStore("x" * 32)
    assert store.load() == {} and store.session_key is None


def _session_signed_in_as(user, backend: str) -> str:
    """A stored session of ``user`` signed in through ``backend``, as login() leaves it."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    store = SessionStore()
    store.update(
        {SESSION_KEY: str(user.pk), BACKEND_SESSION_KEY: backend, HASH_SESSION_KEY: user.get_session_auth_hash()}
    )
    store.create()
    return store.session_key


def test_a_player_signed_in_before_the_sites_own_backend_stays_signed_in(client, user, settings):
    # Sessions made through Django's ModelBackend name it; the site lists its own instead.
    client.cookies[settings.SESSION_COOKIE_NAME] = _session_signed_in_as(
        user, "django.contrib.auth.backends.ModelBackend"
    )
    page = client.get(reverse("games:history"))
    assert page.status_code == 200 and "alice" in page.content.decode()


def test_a_signed_in_player_is_read_with_one_statement_and_signed_out_once_inactive(client, user, password):
    assert client.post(reverse("login"), {"username": "alice", "password": password}).status_code == 302
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("games:history")).status_code == 200
    reads = [query["sql"] for query in queries if '"auth_user"' in query["sql"]]
    assert len(reads) == 1 and 'FROM "games_session" LEFT OUTER JOIN "auth_user"' in reads[0]
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


def test_a_session_signing_in_one_player_never_signs_in_another(client, user, django_user_model, settings):
    # The session's column names alice; its data (what Django trusts) names bob.
    bob = django_user_model.objects.create_user("bob", password="x" * 12)
    key = _session_signed_in_as(bob, "games.accounts.backends.ModelBackend")
    Session.objects.filter(session_key=key).update(user=user)
    client.cookies[settings.SESSION_COOKIE_NAME] = key
    page = client.get(reverse("games:history"))
    assert page.status_code == 200 and "bob" in page.content.decode() and "alice" not in page.content.decode()


def test_sessions_open_before_they_named_their_user_stay_signed_in(client, user, settings):
    """Migration 0013 moves the sessions still open from Django's table to the site's."""
    from importlib import import_module

    from django.apps import apps
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore as DjangosStore
    from django.contrib.sessions.models import Session as DjangosSession

    before = DjangosStore()
    before.update(
        {
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
            HASH_SESSION_KEY: user.get_session_auth_hash(),
        }
    )
    before.create()
    guest = DjangosStore()
    guest["guest_key"] = "g" * 16
    guest.create()
    expired = DjangosStore()
    expired.create()
    DjangosSession.objects.filter(session_key=expired.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )

    import_module("games.migrations.0013_sessions_with_their_user").forwards(apps, None)

    moved = {session.session_key: session.user_id for session in Session.objects.all()}
    assert moved == {before.session_key: user.pk, guest.session_key: None}
    assert not DjangosSession.objects.exists()
    client.cookies[settings.SESSION_COOKIE_NAME] = before.session_key
    page = client.get(reverse("games:history"))
    assert page.status_code == 200 and "alice" in page.content.decode()
