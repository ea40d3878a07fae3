"""The engine's help on the game page (Game.engine_help_allowed): off in a game
between people while it is in progress, asked for by hand or not; back once
it is over; a game against the AI keeps its hint and its thinking."""

import html as html_text
import re

import pytest
from django.urls import reverse

from games.play import services, views
from games.play.models import Game
from games.play.players import Player
from games.search.solver import ExactSolver
from tests import factories
from tests.web.pages import signed_in, visible_text

pytestmark = pytest.mark.django_db

OFF = "Hints and the engine's view are off while a game between people is in progress."


@pytest.fixture
def searches(monkeypatch):
    """Every time the game page asks the engine for its view, and every node
    the solver searched, counted: a refused hint costs neither."""
    counted = {"asked": 0, "solver": 0}
    engine_view, solver_search = views._engine_view, ExactSolver.search

    def asked(*args, **kwargs):
        counted["asked"] += 1
        return engine_view(*args, **kwargs)

    def in_the_solver(self, *args, **kwargs):
        counted["solver"] += 1
        return solver_search(self, *args, **kwargs)

    monkeypatch.setattr(views, "_engine_view", asked)
    monkeypatch.setattr(ExactSolver, "search", in_the_solver)
    return counted


def _text(page) -> str:
    return html_text.unescape(visible_text(page))


def _between_people(alice, bob) -> Game:
    """alice (X) against bob on 4x4, two moves in, alice to move."""
    return factories.human_game(alice, bob, [5, 0], variant="4x4")


def _hint_button(html: str) -> bool:
    return bool(re.search(r">\s*Hint\s*</button>", html))


def _analysis_link(html: str) -> bool:
    return bool(re.search(rf'href="{reverse("games:analysis")}\?[^"]*">Analyse this position<', html))


@pytest.mark.parametrize("asked", [{"hint": "1"}, {"thinking": "1"}, {"hint": "1", "thinking": "1"}])
def test_a_player_asking_by_hand_gets_the_page_without_a_search(user, bob, searches, asked):
    game = _between_people(user, bob)
    page = signed_in(user).get(game.get_absolute_url(), asked)
    html = page.content.decode()
    assert page.status_code == 200 and "Your turn" in visible_text(page)
    assert OFF in _text(page)
    assert searches == {"asked": 0, "solver": 0}
    assert "cell--hint" not in html and "cell--eval" not in html and "The AI's view" not in html
    assert not _hint_button(html) and not _analysis_link(html)
    # The move form does not carry the thinking on to the next page.
    assert 'name="thinking"' not in html


def test_the_panel_alone_and_a_spectator_are_refused_alike(user, bob, carol, searches):
    game = _between_people(user, bob)
    partial = signed_in(user).get(game.get_absolute_url(), {"hint": "1"}, HTTP_X_PARTIAL="1")
    assert partial.status_code == 200 and OFF in _text(partial)
    spectator = signed_in(carol).get(game.get_absolute_url(), {"thinking": "1"})
    assert spectator.status_code == 200 and OFF in _text(spectator)
    assert not _analysis_link(spectator.content.decode())
    assert searches == {"asked": 0, "solver": 0}


def test_a_move_sent_with_the_thinking_asked_is_played_without_it(user, bob, searches):
    game = _between_people(user, bob)
    move = reverse("games:move", args=[game.pk])
    alice = signed_in(user)
    partial = alice.post(move, {"cell": "10", "ply": "2", "thinking": "1"}, HTTP_X_PARTIAL="1")
    assert partial.status_code == 200 and OFF in _text(partial)
    followed = signed_in(bob).post(move, {"cell": "15", "ply": "3", "thinking": "1"}, follow=True)
    assert followed.status_code == 200 and OFF in _text(followed)
    assert Game.objects.get(pk=game.pk).move_count == 4
    assert searches == {"asked": 0, "solver": 0}


def test_once_the_game_is_over_the_analysis_link_is_back_and_no_hint_is_offered(user, bob):
    game = _between_people(user, bob)
    in_progress = signed_in(user).get(game.get_absolute_url()).content.decode()
    assert not _analysis_link(in_progress)
    services.game_resign(game_id=game.pk, player=Player(user=bob))
    page = signed_in(user).get(game.get_absolute_url())
    assert _analysis_link(page.content.decode())
    assert not _hint_button(page.content.decode()) and "AI's thinking" not in visible_text(page)
    assert OFF not in _text(page)


def test_a_game_against_the_ai_keeps_its_hint_and_its_thinking(user, searches):
    game = services.game_create_against_ai(player=Player(user=user), side="X", level="perfect", variant="4x4")
    game = services.game_play_move(game_id=game.pk, player=Player(user=user), cell=5, ply=0).game
    searches.update(asked=0, solver=0)
    client = signed_in(user)
    page = client.get(game.get_absolute_url(), {"hint": "1"})
    assert "Recommended: row" in visible_text(page) and OFF not in _text(page)
    assert page.content.decode().count("cell--hint") == 1
    assert searches["asked"] >= 1 and searches["solver"] >= 1
    thinking = client.get(game.get_absolute_url(), {"thinking": "1"}).content.decode()
    assert "The AI's view" in thinking and "cell--eval" in thinking
    assert _analysis_link(thinking) and _hint_button(client.get(game.get_absolute_url()).content.decode())
