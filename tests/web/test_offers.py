"""Draw offers and takebacks on the game page, as both players see them: plain
forms that redirect back (no JavaScript), and the same POSTs answered with the
game panel (X-Partial, as game.js sends them)."""

import re

import pytest
from django.urls import reverse

from games.lobby import services as lobby_services
from games.lobby.models import Challenge
from games.play import offers, services
from games.play.models import Game
from games.play.players import Player
from tests.web.pages import messages_shown, signed_in, visible_text

pytestmark = pytest.mark.django_db


def _buttons(response) -> list[str]:
    """The names of the page's buttons (their aria-label, or their words)."""
    found = []
    for attrs, words in re.findall(r"<button\b([^>]*)>(.*?)</button>", response.content.decode(), flags=re.S):
        label = re.search(r'aria-label="([^"]*)"', attrs)
        found.append(label.group(1) if label else " ".join(re.sub(r"<[^>]+>", " ", words).split()))
    return found


def _game(x, o, **terms) -> Game:
    challenge = lobby_services.challenge_create(challenger=x, side="X", **terms)
    return lobby_services.challenge_accept(user=o, challenge_id=challenge.pk)


def _move(game, user, cell):
    game.refresh_from_db()
    services.game_play_move(game_id=game.pk, player=Player(user=user), cell=cell, ply=game.move_count)


def _post(client, name, game, **data):
    return client.post(reverse(f"games:{name}", args=[game.pk]), data, follow=True)


# -- draws ----------------------------------------------------------------------------------


def test_a_draw_is_offered_seen_by_the_opponent_and_accepted(user, bob, carol):
    game = _game(user, bob)
    _move(game, user, 4)
    _move(game, bob, 0)
    alice, bobs = signed_in(user), signed_in(bob)
    assert "Offer a draw" in _buttons(alice.get(game.get_absolute_url()))

    page = _post(alice, "draw_offer", game)

    assert "Draw offered. Waiting for bob to answer." in visible_text(page)
    assert "Offer a draw" not in _buttons(page)
    theirs = bobs.get(game.get_absolute_url())
    assert "alice offers a draw." in visible_text(theirs)
    assert {"Accept the draw", "Decline the draw"} <= set(_buttons(theirs))
    watching = signed_in(carol).get(game.get_absolute_url())
    assert "offers a draw" not in visible_text(watching) and "Offer a draw" not in _buttons(watching)

    page = _post(bobs, "draw_accept", game)

    assert "Draw by agreement" in visible_text(page)
    assert "Draw by agreement" in visible_text(alice.get(game.get_absolute_url()))
    game.refresh_from_db()
    assert (game.result, game.termination) == ("draw", "agreed")


def test_a_declined_draw_is_gone_from_both_pages(user, bob):
    game = _game(user, bob)
    alice, bobs = signed_in(user), signed_in(bob)
    _post(alice, "draw_offer", game)
    page = _post(bobs, "draw_decline", game)
    assert "Draw declined." in messages_shown(page) and "offers a draw" not in visible_text(page)
    mine = alice.get(game.get_absolute_url())
    assert "Draw offered" not in visible_text(mine) and "Offer a draw" in _buttons(mine)


def test_a_draw_answered_too_late_or_by_a_spectator_is_refused_with_a_message(user, bob, carol):
    game = _game(user, bob)
    _post(signed_in(user), "draw_offer", game)
    _move(game, user, 4)  # the offer lapses with alice's move
    page = _post(signed_in(bob), "draw_accept", game)
    assert "Could not accept the draw: there is no draw offer to answer" in messages_shown(page)
    page = _post(signed_in(carol), "draw_offer", game)
    assert "No draw offer: you are not playing in this game." in messages_shown(page)
    assert Game.objects.get(pk=game.pk).status == "in_progress"


def test_the_ai_is_offered_no_draw(client):
    client.post(reverse("games:new"), {"variant": "3x3", "side": "X", "level": "perfect", "start_mode": "minimax"})
    game = Game.objects.get()
    assert "Offer a draw" not in _buttons(client.get(game.get_absolute_url()))
    page = _post(client, "draw_offer", game)
    assert "No draw offer: the AI does not agree to draws: play on, or resign." in messages_shown(page)


def test_with_javascript_the_answer_is_the_panel(user, bob, carol):
    game = _game(user, bob)
    url = reverse("games:draw_offer", args=[game.pk])
    response = signed_in(user).post(url, HTTP_X_PARTIAL="1")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div class="game" id="game"') and "<html" not in html
    assert "Draw offered. Waiting for bob to answer." in visible_text(response)

    refused = signed_in(user).post(reverse("games:draw_accept", args=[game.pk]), HTTP_X_PARTIAL="1")
    assert refused.status_code == 409
    assert "Could not accept the draw: you cannot answer your own draw offer." in visible_text(refused)
    spectator = signed_in(carol).post(reverse("games:draw_accept", args=[game.pk]), HTTP_X_PARTIAL="1")
    assert spectator.status_code == 403
    assert Game.objects.get(pk=game.pk).draw_offer == "X"


# -- takebacks between people -------------------------------------------------------------------


def test_a_takeback_is_asked_for_and_accepted_when_both_agreed(user, bob):
    game = _game(user, bob, takebacks_allowed=True)
    alice, bobs = signed_in(user), signed_in(bob)
    assert "Ask to take back" not in _buttons(alice.get(game.get_absolute_url()))  # no move yet
    _move(game, user, 4)
    assert "Ask to take back" not in _buttons(bobs.get(game.get_absolute_url()))  # not bob's move
    assert "Ask to take back" in _buttons(alice.get(game.get_absolute_url()))

    page = _post(alice, "takeback", game)

    assert "Takeback asked for. Waiting for bob to answer." in visible_text(page)
    theirs = bobs.get(game.get_absolute_url())
    assert "alice asks to take back their last move." in visible_text(theirs)
    assert {"Accept the takeback", "Decline the takeback"} <= set(_buttons(theirs))
    assert 'name="ply" value="1"' in theirs.content.decode()

    page = _post(bobs, "takeback_accept", game, ply=1)

    assert "Move taken back." in messages_shown(page)
    mine = alice.get(game.get_absolute_url())
    assert "Your turn" in visible_text(mine) and "Takeback asked for" not in visible_text(mine)
    assert Game.objects.get(pk=game.pk).move_count == 0


def test_a_takeback_declined_or_answered_after_a_move_changes_nothing(user, bob):
    game = _game(user, bob, takebacks_allowed=True)
    alice, bobs = signed_in(user), signed_in(bob)
    _move(game, user, 4)
    _post(alice, "takeback", game)
    page = _post(bobs, "takeback_decline", game, ply=1)
    assert "Takeback declined." in messages_shown(page) and "asks to take back" not in visible_text(page)

    _post(alice, "takeback", game)
    _move(game, bob, 0)  # bob plays on instead: the request lapses
    page = _post(bobs, "takeback_accept", game, ply=1)  # from the page that showed the request
    assert "No takeback: the game has moved on since that request: the move was already answered." in messages_shown(
        page
    )
    assert Game.objects.get(pk=game.pk).move_count == 2


def test_without_agreeing_to_takebacks_there_is_nothing_to_ask(user, bob):
    game = _game(user, bob)
    _move(game, user, 4)
    alice = signed_in(user)
    assert "Ask to take back" not in _buttons(alice.get(game.get_absolute_url()))
    page = _post(alice, "takeback", game)
    assert "No takeback: takebacks were not agreed for this game" in messages_shown(page)


# -- takebacks against the AI -------------------------------------------------------------------


def test_against_the_ai_a_move_is_taken_back_at_once(client):
    client.post(reverse("games:new"), {"variant": "3x3", "side": "X", "level": "perfect", "start_mode": "minimax"})
    game = Game.objects.get()
    assert "Take back" not in _buttons(client.get(game.get_absolute_url()))  # nothing to take back yet
    client.post(reverse("games:move", args=[game.pk]), {"cell": 4, "ply": 0})
    assert "Take back" in _buttons(client.get(game.get_absolute_url()))

    response = client.post(reverse("games:takeback", args=[game.pk]), HTTP_X_PARTIAL="1")

    assert response.status_code == 200 and "Your turn" in visible_text(response)
    assert 'data-ply="0"' in response.content.decode()
    assert Game.objects.get(pk=game.pk).move_count == 0


# -- agreeing to takebacks in a challenge ---------------------------------------------------------


def test_a_challenge_allowing_takebacks_says_so_to_whoever_accepts_it(user, bob):
    form = signed_in(user).get(reverse("games:challenge_new"))
    assert 'name="takebacks_allowed"' in form.content.decode() and "Allow takebacks" in visible_text(form)
    challenge = lobby_services.challenge_create(challenger=user, kind="link", takebacks_allowed=True)
    page = signed_in(bob).get(challenge.get_absolute_url())
    assert "Takebacks Allowed: either player may ask to take back a move not answered yet" in visible_text(page)
    plain = lobby_services.challenge_create(challenger=user, kind="link")
    assert "Takebacks Not allowed" in visible_text(signed_in(bob).get(plain.get_absolute_url()))
    lobby_services.challenge_create(challenger=user, kind="open", takebacks_allowed=True)
    assert "takebacks allowed" in visible_text(signed_in(bob).get(reverse("games:lobby")))


def test_the_challenge_form_s_checkbox_reaches_the_game(user, bob):
    response = signed_in(user).post(
        reverse("games:challenge_new"), {"variant": "3x3", "side": "X", "kind": "open", "takebacks_allowed": "on"}
    )
    assert response.status_code == 302, visible_text(response)[:500]
    challenge = Challenge.objects.get()
    assert challenge.takebacks_allowed
    game = lobby_services.challenge_accept(user=bob, challenge_id=challenge.pk)
    assert game.takebacks_allowed
    _move(game, user, 4)
    assert offers.game_request_takeback(game_id=game.pk, player=Player(user=user)).takeback_offer == "X"
