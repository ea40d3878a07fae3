"""A closed account: told so plainly when it signs in with its password (not
counted as a failed sign-in), its profile says it is closed rather than 404,
staff close accounts in bulk from the admin, saying why; and the admin speaks
the site's name and its 24-hour times."""

import re

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import human_game
from tests.web.test_lockout import LIMIT, sign_in, signed_in

pytestmark = pytest.mark.django_db

CLOSED = "This account is closed, so it cannot sign in."


def _close(user):
    """Closed as Django's admin does when "active" is unticked: no moderator's reason."""
    user.is_active = False
    user.save(update_fields=["is_active"])


def test_a_closed_account_is_told_plainly_and_never_locked_out(client, user, password):
    _close(user)
    for _ in range(LIMIT + 1):
        response = sign_in(client, "alice", password)
        assert response.status_code == 200 and CLOSED in response.content.decode()
    assert not signed_in(client) and not AccessAttempt.objects.exists()
    # The wrong password is a wrong password, closed or not: counted, and said as usual.
    response = sign_in(client, "alice", "wrong-password")
    assert CLOSED not in response.content.decode()
    assert "Please enter a correct username and password" in response.content.decode()
    assert AccessAttempt.objects.get().failures_since_start == 1


def test_a_closed_players_profile_says_so_and_their_games_keep_their_name(client, user, bob):
    game = human_game(user, bob)
    _close(bob)
    response = client.get(reverse("games:profile", args=["bob"]))
    assert response.status_code == 200
    assert "This account is closed" in response.content.decode()
    assert "Challenge bob" not in response.content.decode()
    assert ">bob<" in client.get(game.get_absolute_url()).content.decode()
    # Alice's record against bob links to his page, which answers.
    assert '<a href="/players/bob/">bob</a>' in client.get(reverse("games:profile", args=["alice"])).content.decode()
    assert client.get(reverse("games:profile", args=["nobody"])).status_code == 404


def test_staff_close_accounts_in_bulk_and_the_players_are_signed_out(admin_client, user, bob):
    player = Client()
    player.force_login(bob)
    chosen = {"action": "close_accounts", "_selected_action": [user.pk, bob.pk]}
    asked = admin_client.post(reverse("admin:auth_user_changelist"), chosen)
    assert "Close the selected accounts" in asked.content.decode() and "Reason" in asked.content.decode()
    assert get_user_model().objects.filter(is_active=True).count() == 3  # nothing closed before the reason
    response = admin_client.post(
        reverse("admin:auth_user_changelist"), {**chosen, "apply": "1", "reason": "Spam accounts"}, follow=True
    )
    assert "2 accounts closed." in response.content.decode()
    assert not get_user_model().objects.filter(pk__in=[user.pk, bob.pk], is_active=True).exists()
    assert player.get(reverse("games:account")).status_code == 302  # signed out: to the sign-in page


def test_the_admin_says_the_sites_name_and_writes_24_hour_times(admin_client, user, bob):
    human_game(user, bob)
    index = admin_client.get(reverse("admin:index")).content.decode()
    assert "tttsite administration" in index and "Django administration" not in index
    games = admin_client.get(reverse("admin:games_game_changelist")).content.decode()
    assert not re.search(r"\d(:\d\d)? [ap]\.m\.", games)
    assert re.search(r"\b\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d\b", games)
