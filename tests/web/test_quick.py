"""Quick games through the pages, without JavaScript: press Play, wait on a page
that reloads itself, and land in the game once someone else presses Play."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.lobby import pairing_services
from games.lobby.models import PairingRequest
from games.play.models import Game
from tests.factories import rate
from tests.web.pages import messages_shown, signed_in, visible_text

pytestmark = pytest.mark.django_db


def _play(client, board="3x3", time_control="3+2", **extra):
    return client.post(reverse("games:quick"), {"board": board, "time_control": time_control}, **extra)


def test_the_quick_game_page_needs_sign_in_and_offers_the_boards_and_presets(client, user):
    response = client.get(reverse("games:quick"))
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert _play(client).status_code == 302 and not PairingRequest.objects.exists()

    html = signed_in(user).get(reverse("games:quick")).content.decode()
    assert re.findall(r'name="board" value="([^"]+)"', html) == ["3x3", "4x4", "5x5"]
    assert re.findall(r'name="time_control" value="([^"]+)"', html) == [
        "1+0", "3+2", "5+3", "10+5", "1d", "3d", "7d", "none"
    ]  # fmt: skip
    assert "<span>3+2</span>" in html and "<span>1 day a move</span>" in html and ">Play</button>" in html
    assert re.search(r'name="time_control" value="3\+2"[^>]*checked', html)  # a blitz game unless asked


def test_two_players_press_play_and_both_land_in_the_same_game(user, bob):
    alice_client, bob_client = signed_in(user), signed_in(bob)

    # Alice presses Play: nobody is waiting, so she waits on a page of her own.
    response = _play(alice_client, board="4x4", time_control="5+3")
    request = PairingRequest.objects.get()
    assert response.status_code == 302 and response["Location"] == request.get_absolute_url()
    page = alice_client.get(request.get_absolute_url())
    text = visible_text(page)
    assert "Waiting for an opponent: 0:00" in text
    assert "Board 4×4, four in a row" in text and "Time control 5+3 (5 minutes + 3 s a move)" in text
    assert "Opponents rated 1100 to 1300 (you: 1200)" in text
    # Without JavaScript the page reloads itself every few seconds.
    assert '<noscript><meta http-equiv="refresh" content="4"></noscript>' in page.content.decode()
    assert reverse("games:quick_cancel", args=[request.pk]) in page.content.decode()

    # Bob presses Play for the same: the game starts, and he goes straight to it.
    response = _play(bob_client, board="4x4", time_control="5+3")
    game = Game.objects.get()
    assert response["Location"] == game.get_absolute_url()
    assert {game.x_player, game.o_player} == {user, bob}
    assert (game.variant, game.clock_initial, game.clock_increment) == ("4x4", 300, 3)
    assert "Paired: your game has started." in messages_shown(bob_client.get(game.get_absolute_url()))

    # Alice's page, reloading, takes her to the same game.
    response = alice_client.get(request.get_absolute_url())
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert alice_client.get(game.get_absolute_url()).status_code == 200


def test_the_waiting_page_shows_how_long_and_the_range_as_it_widens(user):
    client = signed_in(user)
    rate(user, 1500)
    _play(client)
    request = PairingRequest.objects.get()
    PairingRequest.objects.filter(pk=request.pk).update(created_at=timezone.now() - timedelta(seconds=67))
    text = visible_text(client.get(request.get_absolute_url()))
    assert "Waiting for an opponent: 1:07" in text
    assert "Opponents rated any rating (you: 1500)" in text
    PairingRequest.objects.filter(pk=request.pk).update(created_at=timezone.now() - timedelta(seconds=12))
    assert "Opponents rated 1300 to 1700 (you: 1500)" in visible_text(client.get(request.get_absolute_url()))


def test_looking_at_the_waiting_page_changes_nothing(user):
    client = signed_in(user)
    _play(client)
    before = list(PairingRequest.objects.values())
    client.get(PairingRequest.objects.get().get_absolute_url())
    assert list(PairingRequest.objects.values()) == before  # reading never writes


def test_pressing_play_again_while_waiting_keeps_the_same_request(user):
    client = signed_in(user)
    first = _play(client)["Location"]
    assert _play(client)["Location"] == first
    assert client.get(reverse("games:quick"))["Location"] == first  # the form page leads back to it
    assert PairingRequest.objects.count() == 1


def test_asking_for_another_game_while_waiting_says_to_cancel_first(user):
    client = signed_in(user)
    first = _play(client)["Location"]
    response = _play(client, board="5x5", time_control="1+0", follow=True)
    assert response.redirect_chain[-1][0] == first
    assert "You are waiting for a 3x3 3+2 game already: cancel it first." in messages_shown(response)
    assert PairingRequest.objects.count() == 1


def test_cancelling_stops_the_wait(user, bob):
    client = signed_in(user)
    _play(client)
    request = PairingRequest.objects.get()
    response = client.post(reverse("games:quick_cancel", args=[request.pk]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("games:quick")
    assert "You are no longer waiting for a game." in messages_shown(response)
    # Bob presses Play for the same: alice is not there any more, so he waits.
    bobs = PairingRequest.objects.filter(player=bob)
    assert _play(signed_in(bob))["Location"] == bobs.get().get_absolute_url()
    assert bobs.get().status == "waiting" and not Game.objects.exists()
    # Alice's old page says so, with the form to play again.
    page = visible_text(client.get(request.get_absolute_url()))
    assert "You stopped waiting" in page and "nobody will be paired with it" in page and "Play" in page
    # Cancelling twice says why not.
    response = client.post(reverse("games:quick_cancel", args=[request.pk]), follow=True)
    assert "Could not cancel: this request is cancelled already." in messages_shown(response)


def test_cancelling_once_paired_points_to_the_game(user, bob):
    client = signed_in(user)
    _play(client)
    request = PairingRequest.objects.get()
    _play(signed_in(bob))
    game = Game.objects.get()
    response = client.post(reverse("games:quick_cancel", args=[request.pk]), follow=True)
    assert response.redirect_chain[-1][0] == game.get_absolute_url()
    assert "You were paired before you cancelled: this is your game." in messages_shown(response)


@pytest.mark.parametrize(
    "fields, error",
    [
        ({"board": "9x9"}, "Select a valid choice. 9x9 is not one of the available choices."),
        ({"time_control": "2+1"}, "Select a valid choice. 2+1 is not one of the available choices."),
        ({"time_control": ""}, "This field is required."),
    ],
)
def test_a_bad_board_or_time_control_is_a_form_error_and_stores_nothing(user, fields, error):
    response = _play(signed_in(user), **fields)
    assert response.status_code == 400
    html = response.content.decode()
    assert error in html
    (name,) = fields
    assert re.findall(r'<input[^>]*\bname="(\w+)"[^>]*aria-invalid="true"', html)[:1] == [name]
    assert not PairingRequest.objects.exists()


def test_someone_else_s_request_is_not_found(user, bob):
    _play(signed_in(user))
    request = PairingRequest.objects.get()
    bob_client = signed_in(bob)
    assert bob_client.get(request.get_absolute_url()).status_code == 404
    assert bob_client.post(request.get_absolute_url()).status_code == 404
    assert bob_client.post(reverse("games:quick_cancel", args=[request.pk])).status_code == 404
    assert PairingRequest.objects.get().status == "waiting"


def test_checking_in_for_the_script_answers_the_panel_and_pairs_as_ranges_widen(user, bob):
    rate(user, 1000)
    rate(bob, 1800)
    client = signed_in(user)
    _play(client)
    _play(signed_in(bob))
    request = PairingRequest.objects.get(player=user)
    response = client.post(request.get_absolute_url(), HTTP_X_PARTIAL="1")
    html = response.content.decode()
    assert html.lstrip().startswith('<div class="card invite__card quick-wait" id="pairing" data-status="waiting"')
    assert "<html" not in html
    PairingRequest.objects.update(created_at=timezone.now() - timedelta(seconds=31))
    checked = timezone.now()
    response = client.post(request.get_absolute_url(), HTTP_X_PARTIAL="1")
    game = Game.objects.get()
    assert f'data-game-url="{game.get_absolute_url()}"' in response.content.decode()
    assert 'data-status="matched"' in response.content.decode()
    request.refresh_from_db()
    assert request.checked_at >= checked
    # Without the header a check-in is a plain form POST: off to the game.
    assert client.post(request.get_absolute_url())["Location"] == game.get_absolute_url()


def test_an_expired_request_says_nobody_came(user):
    client = signed_in(user)
    _play(client)
    request = PairingRequest.objects.get()
    pairing_services.pairing_match_waiting(timezone.now() + timedelta(minutes=11))
    text = visible_text(client.get(request.get_absolute_url()))
    assert "Nobody came" in text and "expired after 10 minutes" in text
    assert client.get(reverse("games:quick")).status_code == 200  # the form again


def test_the_lobby_offers_a_quick_game_and_leads_back_to_the_wait(user):
    client = signed_in(user)
    html = client.get(reverse("games:lobby")).content.decode()
    assert 'id="quick-game"' in html and f'action="{reverse("games:quick")}"' in html
    assert 'id="quick_board_0"' in html and 'id="id_variant_0"' in html  # two forms, no id twice
    _play(client, board="5x5", time_control="10+5")
    text = visible_text(client.get(reverse("games:lobby")))
    assert (
        "You are waiting for an opponent: 5×5, four in a row, 10+5 (10 minutes + 5 s a move). Back to waiting" in text
    )


def test_staff_see_the_requests_in_the_admin_and_cannot_edit_them(admin_client, user, bob):
    _play(signed_in(user))
    _play(signed_in(bob))
    game = Game.objects.get()
    html = admin_client.get("/admin/games/pairingrequest/").content.decode()
    assert "alice" in html and "bob" in html and "3+2" in html and "Matched" in html
    assert f"Game {game.pk}</a>" in html
    assert admin_client.get("/admin/games/pairingrequest/add/").status_code == 403
