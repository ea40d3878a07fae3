"""Clocks on the game page: chosen when a game starts, shown for both sides."""

import re

import pytest
from django.urls import reverse

from games.play.models import Game
from tests.factories import human_game, time_passes
from tests.web.pages import visible_text

pytestmark = pytest.mark.django_db


def _faces(response) -> list[tuple[str, str]]:
    """Each clock face of the players list: its label and its reading (the
    bars beside the board, for phones, show the same faces again)."""
    players = re.search(r'<dl class="players">.*?</dl>', response.content.decode(), flags=re.S).group(0)
    return re.findall(r'role="timer" aria-label="([^"]+)".*?>([^<]*)</span>', players, flags=re.S)


def _bar_faces(response) -> list[tuple[str, str]]:
    """The clock bars above and below the board (shown on phones), top first."""
    bars = re.findall(
        r'<div class="clock-bar clock-bar--(?:top|bottom).*?</div>', response.content.decode(), flags=re.S
    )
    return [re.search(r'role="timer" aria-label="([^"]+)".*?>([^<]*)</span>', bar, flags=re.S).groups() for bar in bars]


def test_a_game_against_the_ai_can_have_a_clock_for_the_person_only(client, user):
    client.force_login(user)
    response = client.post(
        reverse("games:new"),
        {"variant": "3x3", "side": "X", "level": "perfect", "start_mode": "minimax", "time_control": "3+2"},
        follow=True,
    )
    game = Game.objects.get()
    assert (game.clock_initial, game.clock_increment) == (180, 2)
    text = visible_text(response)
    assert "3+2 (3 minutes + 2 s a move)" in text
    assert "X must make a first move by" in text and "or the game is aborted" in text
    assert _faces(response) == [("X's clock", "3:00"), ("O's clock", "–")]


def test_without_a_choice_a_game_against_the_ai_has_no_clock(client, user):
    client.force_login(user)
    client.post(reverse("games:new"), {"variant": "3x3", "side": "X", "level": "easy", "start_mode": "minimax"})
    assert Game.objects.get().clock_state() is None


def test_a_clock_the_form_does_not_offer_is_a_form_error_and_no_game(client, user):
    client.force_login(user)
    response = client.post(
        reverse("games:new"),
        {"variant": "3x3", "side": "X", "level": "easy", "start_mode": "minimax", "time_control": "3d"},
    )
    assert response.status_code == 400 and "Select a valid choice" in visible_text(response)
    assert not Game.objects.exists()


def test_both_players_see_both_clocks_and_whose_is_running(client, user, bob):
    game = human_game(user, bob, cells=[4, 0, 8], time_control="5+3")
    time_passes(game, 12)
    client.force_login(bob)
    page = client.get(game.get_absolute_url())
    (x_label, x_time), (o_label, o_time) = _faces(page)
    assert (x_label, x_time) == ("X's clock", "5:03")  # X's second move earned the increment
    assert o_label == "O's clock, running" and o_time in ("4:48", "4:47")
    # For a phone, bob (O) sees alice's clock above the board and his own below.
    (top_label, top_time), (bottom_label, bottom_time) = _bar_faces(page)
    assert (top_label, top_time) == ("X's clock", "5:03") and (bottom_label, bottom_time) == (o_label, o_time)
    assert "must move by" not in visible_text(page)  # a running clock says it all
