"""Repeated failed sign-ins lock that username out from that address for a
while (django-axes, settings.AXES_*); the lock lifts by itself, and the right
password does not get in while it holds."""

from datetime import timedelta
from io import StringIO

import pytest
from axes.models import AccessAttempt
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

pytestmark = pytest.mark.django_db

LIMIT = 5  # settings.AXES_FAILURE_LIMIT
LOCKED = "Too many failed sign-ins. Try again in 15 minutes."


def sign_in(client, username, password, url=None, **extra):
    return client.post(url or reverse("login"), {"username": username, "password": password}, **extra)


def fail(client, times, username="alice", **extra):
    return [sign_in(client, username, "wrong-password", **extra) for _ in range(times)]


def signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def lock_started(ago: timedelta):
    """Pretend the last counted failure was ``ago``."""
    AccessAttempt.objects.update(attempt_time=timezone.now() - ago)


def test_wrong_passwords_lock_the_account_out_and_the_right_one_is_refused_too(client, user, password):
    answers = fail(client, LIMIT)
    assert [a.status_code for a in answers[:-1]] == [200] * (LIMIT - 1)  # the form, with its error
    assert "Please enter a correct username and password" in answers[0].content.decode()
    assert answers[-1].status_code == 429  # the failure that reaches the limit locks

    response = sign_in(client, "alice", password)

    assert response.status_code == 429
    assert LOCKED in response.content.decode()
    assert response["Retry-After"] == str(15 * 60)
    assert not signed_in(client)


def test_the_lockout_page_is_the_sites_own(client, user):
    response = fail(client, LIMIT)[-1]

    html = response.content.decode()
    assert "<title>Too many failed sign-ins · tttsite</title>" in html
    assert 'class="site-header"' in html and "Signing in is paused" in html
    assert reverse("password_reset") in html


def test_the_page_says_how_long_is_left_and_tries_during_the_lock_do_not_extend_it(client, user, password):
    fail(client, LIMIT)
    lock_started(ago=timedelta(minutes=10, seconds=30))

    fail(client, 3)  # refused without counting
    response = sign_in(client, "alice", password)

    assert "Try again in 5 minutes." in response.content.decode()
    assert AccessAttempt.objects.get().failures_since_start == LIMIT


def test_the_lock_lifts_by_itself_after_the_cool_off(client, user, password):
    fail(client, LIMIT)
    lock_started(ago=timedelta(minutes=15, seconds=1))

    response = sign_in(client, "alice", password)

    assert response.status_code == 302
    assert signed_in(client)


def test_a_success_clears_the_count(client, user, password):
    fail(client, LIMIT - 1)
    assert sign_in(client, "alice", password).status_code == 302
    assert not AccessAttempt.objects.exists()
    client.post(reverse("logout"))

    answers = fail(client, LIMIT - 1)

    assert [a.status_code for a in answers] == [200] * (LIMIT - 1)
    assert sign_in(client, "alice", password).status_code == 302


def test_the_lock_holds_one_username_from_one_address_only(client, user, django_user_model, password):
    django_user_model.objects.create_user("bob", password=password)
    fail(client, LIMIT)  # alice from 127.0.0.1

    # The owner, from another address, signs in: a stranger cannot lock them out.
    assert sign_in(client, "alice", password, REMOTE_ADDR="10.0.0.2").status_code == 302
    assert signed_in(client)
    client.post(reverse("logout"))
    # Another account from the locked address is not locked either.
    assert sign_in(client, "bob", password).status_code == 302
    assert client.session["_auth_user_id"] == str(django_user_model.objects.get(username="bob").pk)


def test_a_forged_forwarded_for_header_does_not_dodge_the_lock(client, user, password):
    """X-Forwarded-For is believed only from the proxies in FORWARDED_ALLOW_IPS
    (games/serving/clients.py); this client is not one."""
    stranger = {"REMOTE_ADDR": "198.51.100.7"}
    for n in range(LIMIT):
        sign_in(client, "alice", "wrong-password", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}", **stranger)

    response = sign_in(client, "alice", password, HTTP_X_FORWARDED_FOR="203.0.113.99", **stranger)
    assert response.status_code == 429 and LOCKED in response.content.decode()
    assert not signed_in(client)


def test_the_admin_login_is_locked_too(client, django_user_model, password):
    django_user_model.objects.create_superuser("root", password=password)
    url = reverse("admin:login")
    fail(client, LIMIT, username="root", url=url)

    response = sign_in(client, "root", password, url=url)

    assert response.status_code == 429 and LOCKED in response.content.decode()


def test_signing_up_still_signs_the_new_player_in(client):
    response = client.post(
        reverse("games:signup"),
        {"username": "dora", "password1": "a-long-passphrase-77", "password2": "a-long-passphrase-77"},
    )

    assert response.status_code == 302
    assert signed_in(client)


# -- staff ---------------------------------------------------------------------------------


def test_staff_see_the_lockout_in_the_admin_and_lift_it(client, user, django_user_model, password):
    fail(client, LIMIT)
    staff = django_user_model.objects.create_superuser("root", password=password)
    admin = type(client)()
    admin.force_login(staff)

    index = admin.get(reverse("admin:index")).content.decode()
    assert reverse("admin:axes_accessattempt_changelist") in index
    assert reverse("admin:axes_accesslog_changelist") in index
    attempts = admin.get(reverse("admin:axes_accessattempt_changelist") + "?locked_out=yes").content.decode()
    assert "alice" in attempts and "127.0.0.1" in attempts

    attempt = AccessAttempt.objects.get()
    delete = reverse("admin:axes_accessattempt_delete", args=[attempt.pk])
    assert admin.post(delete, {"post": "yes"}).status_code == 302

    assert sign_in(client, "alice", password).status_code == 302


def test_staff_lift_it_from_the_terminal(client, user, password):
    fail(client, LIMIT)

    out = StringIO()
    call_command("axes_reset_username", "alice", stdout=out)

    assert out.getvalue() == "1 attempts removed.\n"

    assert sign_in(client, "alice", password).status_code == 302
