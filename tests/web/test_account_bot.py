"""A bot account made from the account page, as the API makes one: only
before its first game, and a bot says there whether people may challenge it."""

import pytest
from django.urls import reverse

from games.errors import GameError
from games.lobby import services as lobby_services
from games.play.models import Bot
from tests.factories import ai_game
from tests.web.pages import messages_shown, visible_text

pytestmark = pytest.mark.django_db


def test_an_account_without_games_becomes_a_bot_and_its_profile_says_so(client, user):
    client.force_login(user)
    assert "Make this account a bot, for good" in client.get(reverse("games:account")).content.decode()

    response = client.post(reverse("games:account_bot"), {"become": "bot", "accepts_people": "on"}, follow=True)

    assert "This account is a bot now" in messages_shown(response)
    assert Bot.objects.get(user=user).accepts_people is True
    assert "BOT" in visible_text(client.get(reverse("games:profile", args=[user.username])))


def test_an_account_that_has_played_stays_a_person_and_is_told_why(client, user):
    ai_game(user)
    client.force_login(user)
    response = client.post(reverse("games:account_bot"), {"become": "bot"}, follow=True)

    assert "only before it has played any game" in messages_shown(response)
    assert not Bot.objects.filter(user=user).exists()


def test_a_bot_stops_taking_peoples_challenges(client, user, bob):
    client.force_login(user)
    client.post(reverse("games:account_bot"), {"become": "bot", "accepts_people": "on"})
    response = client.post(reverse("games:account_bot"), {}, follow=True)  # the box unticked

    assert "It declines challenges from people." in messages_shown(response)
    assert 'name="accepts_people">' in response.content.decode()  # shown unticked
    with pytest.raises(GameError):
        lobby_services.challenge_create(challenger=bob, kind="direct", opponent_username=user.username)


def test_a_person_saving_bot_settings_is_told_to_make_the_account_a_bot_first(client, user):
    client.force_login(user)
    response = client.post(reverse("games:account_bot"), {"accepts_people": "on"}, follow=True)

    assert "This account is not a bot: make it one first." in messages_shown(response)
