"""Sessions are read by a statement built once (games/accounts/sessions.py):
the same sessions as Django's database engine, expired ones not read."""

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.accounts.sessions import SessionStore

pytestmark = pytest.mark.django_db


def test_a_signed_in_player_stays_signed_in_with_one_read_of_the_session(client, user, password):
    assert client.post(reverse("login"), {"username": "alice", "password": password}).status_code == 302
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("games:history"))
    assert page.status_code == 200 and "alice" in page.content.decode()
    assert sum('"django_session"' in query["sql"] for query in queries) == 1


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
    assert sum('FROM "auth_user"' in query["sql"] for query in queries) == 1
    user.is_active = False
    user.save()
    page = client.get(reverse("games:history"))
    assert page.status_code == 302 and page["Location"].startswith(reverse("login"))


def test_a_session_naming_another_backend_signs_nobody_in(client, user, settings):
    client.cookies[settings.SESSION_COOKIE_NAME] = _session_signed_in_as(user, "some.removed.Backend")
    page = client.get(reverse("games:history"))
    assert page.status_code == 302 and page["Location"].startswith(reverse("login"))
