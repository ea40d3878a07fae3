"""The game panel's forms lead to the game they are on."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.play import services
from games.play.players import Player

pytestmark = pytest.mark.django_db


def test_every_form_on_the_panel_posts_to_its_own_game():
    player = get_user_model().objects.create_user("panel-links", password="a-long-passphrase-for-links")
    first = services.game_create_against_ai(player=Player(user=player), side="X", level="perfect")
    second = services.game_create_against_ai(player=Player(user=player), side="X", level="perfect")
    client = Client()
    client.force_login(player)
    for game in (first, second):
        page = client.get(game.get_absolute_url()).content.decode()
        html = page[page.index('id="game"') :]  # the panel, not the header's sign-out form
        actions = re.findall(r'<form method="post" action="([^"]+)"', html)
        assert f"/games/{game.pk}/move/" in actions
        assert f"/games/{game.pk}/resign/" in actions
        assert all(action.startswith(f"/games/{game.pk}/") for action in actions), actions
