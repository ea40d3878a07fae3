"""Notifications on the pages: the header's bell with its unread count, the
list that marks them read as it is seen and answers a challenge in place,
the account page's mail choice, and the challenges for you on the home page."""

import pytest
from django.test import Client
from django.urls import reverse

from games.lobby import services as lobby_services
from games.lobby.models import Challenge, ChallengeStatus
from games.notifications.models import Notification, NotificationSettings

pytestmark = pytest.mark.django_db


@pytest.fixture
def challenge(user, bob):
    return lobby_services.challenge_create(challenger=bob, kind="direct", opponent_username="alice")


def test_the_bell_counts_unread_notifications_for_the_signed_in_only(client_logged_in, challenge):
    html = client_logged_in.get(reverse("games:history")).content.decode()
    assert 'aria-label="Notifications, 1 unread"' in html and "data-bell-count>1</span>" in html
    assert "notifications.js" in html
    guest = Client().get(reverse("games:home")).content.decode()
    assert "data-bell" not in guest and "notifications.js" not in guest


def test_the_list_shows_them_marks_them_read_and_offers_accept_and_decline(client_logged_in, challenge):
    html = client_logged_in.get(reverse("games:notifications")).content.decode()
    assert "bob challenges you (3×3, no limit, rated)" in html
    assert "notification--unread" in html  # new when the page was opened
    assert "data-bell-count hidden>0" in html  # and read now: the bell says so
    assert f'action="{reverse("games:challenge_accept", args=[challenge.pk])}"' in html
    assert not Notification.objects.filter(read_at=None).exists()  # seen: read
    again = client_logged_in.get(reverse("games:notifications")).content.decode()
    assert "notification--unread" not in again and "data-bell-count hidden>0" in again
    response = client_logged_in.post(reverse("games:challenge_accept", args=[challenge.pk]))
    assert response.status_code == 302
    assert Challenge.objects.get(pk=challenge.pk).status == ChallengeStatus.ACCEPTED
    # Answered: the notification no longer offers to.
    assert "Accept: bob challenges you" not in client_logged_in.get(reverse("games:notifications")).content.decode()


def test_mark_all_read_and_the_list_needs_signing_in(client_logged_in, challenge):
    response = client_logged_in.post(reverse("games:notifications_read"))
    assert response.status_code == 302 and response["Location"] == reverse("games:notifications")
    assert not Notification.objects.filter(read_at=None).exists()
    assert Client().get(reverse("games:notifications")).status_code == 302  # to sign in


def test_the_account_page_turns_the_turn_mails_off_and_on(client_logged_in, user):
    page = client_logged_in.get(reverse("games:account")).content.decode()
    assert 'name="mail_turns" checked' in page
    client_logged_in.post(reverse("games:account_notifications"), {})
    assert NotificationSettings.objects.get(user=user).mail_turns is False
    assert 'name="mail_turns" checked' not in client_logged_in.get(reverse("games:account")).content.decode()
    client_logged_in.post(reverse("games:account_notifications"), {"mail_turns": "on"})
    assert NotificationSettings.objects.get(user=user).mail_turns is True


def test_sounds_are_off_until_chosen_and_then_on_for_the_players_game_page(client_logged_in, user):
    from games.play import services as play_services
    from games.play.players import Player

    game = play_services.game_create_against_ai(player=Player(user=user), level="easy", seed=1)
    assert (
        '<meta name="tttsite-sounds" content="on">'
        not in client_logged_in.get(game.get_absolute_url()).content.decode()
    )
    assert 'name="sounds" checked' not in client_logged_in.get(reverse("games:account")).content.decode()
    client_logged_in.post(reverse("games:account_notifications"), {"mail_turns": "on", "sounds": "on"})
    assert NotificationSettings.objects.get(user=user).sounds is True
    assert '<meta name="tttsite-sounds" content="on">' in client_logged_in.get(game.get_absolute_url()).content.decode()
    # A spectator's page of the same game stays silent.
    assert '<meta name="tttsite-sounds" content="on">' not in Client().get(game.get_absolute_url()).content.decode()


def test_the_home_page_shows_challenges_for_you_with_accept_and_decline(client_logged_in, challenge):
    html = client_logged_in.get(reverse("games:home")).content.decode()
    assert "Challenges for you" in html
    assert f'action="{reverse("games:challenge_decline", args=[challenge.pk])}"' in html
    lobby_services.challenge_cancel(user=challenge.challenger, challenge_id=challenge.pk)
    assert "Challenges for you" not in client_logged_in.get(reverse("games:home")).content.decode()
