"""A player's record against each person they have played."""

import pytest
from django.db import connection
from django.template import Context, Template
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.accounts import services as accounts_services
from games.lobby import services as lobby_services
from games.play import services
from games.play.models import Game
from games.play.players import Player
from games.stats import selectors
from tests.factories import DRAW, X_WINS, human_game

pytestmark = pytest.mark.django_db


def _play(x, o, cells, *, resign=None):
    """A game between people: ``x`` and ``o`` play ``cells`` in turn; ``resign`` gives up."""
    challenge = lobby_services.challenge_create(challenger=x, side="X")
    game = lobby_services.challenge_accept(user=o, challenge_id=challenge.pk)
    for ply, cell in enumerate(cells):
        services.game_play_move(game_id=game.pk, player=Player(user=(x, o)[ply % 2]), cell=cell, ply=ply)
    if resign is not None:
        services.game_resign(game_id=game.pk, player=Player(user=resign))
    return game


def test_wins_losses_and_draws_per_opponent_in_one_query(user, django_user_model):
    bob = django_user_model.objects.create_user("bob", password="x")
    carol = django_user_model.objects.create_user("carol", password="x")
    _play(user, bob, X_WINS)  # alice wins as X
    _play(bob, user, X_WINS)  # bob wins as X
    _play(user, bob, DRAW)
    _play(carol, user, [4, 0], resign=carol)  # carol resigns: alice wins as O
    _play(user, carol, [4])  # unfinished: not counted
    services.game_create_against_ai(player=Player(user=user))  # the AI is nobody's opponent here
    with CaptureQueriesContext(connection) as queries:
        rows = selectors.head_to_head(user)
    assert len(queries) == 1
    assert rows == [
        {"opponent": "bob", "bot": False, "games": 3, "won": 1, "lost": 1, "drawn": 1},
        {"opponent": "carol", "bot": False, "games": 1, "won": 1, "lost": 0, "drawn": 0},
    ]
    assert selectors.head_to_head(bob) == [
        {"opponent": "alice", "bot": False, "games": 3, "won": 1, "lost": 1, "drawn": 1}
    ]


def test_the_include_shows_a_table_only_when_there_is_something_to_show(user, django_user_model):
    render = Template('{% include "games/_head_to_head.html" %}').render
    assert render(Context({"player": user})).strip() == ""
    bob = django_user_model.objects.create_user("bob", password="x")
    _play(bob, user, X_WINS)
    html = render(Context({"player": user}))
    assert "Against other players" in html
    assert '<th scope="col">Won</th><th scope="col">Drawn</th><th scope="col">Lost</th>' in html  # W/D/L
    assert '<a href="/players/bob/">bob</a>' in html
    assert '<td class="head-to-head__games">1</td><td>0</td><td>0</td><td>1</td>' in html


def test_a_profile_shows_the_record_against_each_opponent(client, user, django_user_model):
    bob = django_user_model.objects.create_user("bob", password="x")
    _play(user, bob, X_WINS)
    html = client.get("/players/bob/").content.decode()
    assert "Against other players" in html and '<a href="/players/alice/">alice</a>' in html
    assert '<td class="head-to-head__games">1</td><td>0</td><td>0</td><td>1</td>' in html


def test_a_players_page_shows_results_from_that_players_side_whoever_looks(client, user, bob, carol):
    human_game(bob, user, X_WINS)  # bob (X) beats alice
    assert Game.objects.get().result == "x_won"
    for viewer in (None, user, carol, bob):
        if viewer is not None:
            client.force_login(viewer)
        page = client.get(reverse("games:profile", args=[bob.username])).content.decode()
        recent = page[page.index('class="game-row"') :]
        assert '<span class="badge badge--win">Won</span>' in recent, viewer
        assert '<span class="badge badge--loss">Lost</span>' not in recent, viewer
        assert "vs alice" in recent


def test_a_bot_opponent_wears_its_badge_in_the_table(user, django_user_model):
    robot = django_user_model.objects.create_user("robot", password="x")
    accounts_services.account_become_bot(user=robot, accepts_people=True)
    _play(user, robot, X_WINS)
    assert selectors.head_to_head(user)[0]["bot"] is True
    html = Template('{% include "games/_head_to_head.html" %}').render(Context({"player": user}))
    assert '<a href="/players/robot/">robot</a> <abbr class="badge badge--bot"' in html
