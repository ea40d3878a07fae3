"""The game panel's links and forms (Jinja2, games/templating.py) lead where
Django's own reverse() says, for every game, under any script prefix."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse, set_script_prefix

from games.play import services
from games.play.players import Player
from games.templatetags.game_tags import url

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("pk", [1, 7, 42, 1000, 987_654_321])
@pytest.mark.parametrize("name", ["games:game", "games:move", "games:resign", "games:mistakes"])
def test_a_remembered_url_is_the_one_reverse_gives(name, pk):
    assert url(name, pk) == reverse(name, args=[pk])


def test_a_url_follows_the_script_prefix_the_site_is_served_under():
    try:
        set_script_prefix("/ttt/")
        assert url("games:move", 5) == "/ttt/games/5/move/"
        assert url("games:lobby") == "/ttt/lobby/"
    finally:
        set_script_prefix("/")
    assert url("games:move", 5) == "/games/5/move/"


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
