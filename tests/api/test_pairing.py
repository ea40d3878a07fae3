"""Quick pairing through the API: ask (POST), look (GET), stop waiting (DELETE)."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.lobby import pairing_services
from games.lobby.models import PairingRequest
from games.play.models import Game
from tests.api.conftest import assert_error, client_for, stored
from tests.factories import rate
from tests.races import at_once

pytestmark = pytest.mark.django_db

PAIRING_KEYS = {
    "id",
    "status",
    "board",
    "time_control",
    "rating",
    "rated",
    "waited",
    "rating_range",
    "game",
    "game_url",
    "created_at",
    "resolved_at",
}


def _ask(client, board="3x3", time_control="3+2"):
    return client.post("/api/pairing/", {"board": board, "time_control": time_control})


def test_the_second_player_to_ask_is_paired_with_the_first(as_alice, as_bob, alice, bob):
    response = _ask(as_alice, "5x5", "1+0")
    assert response.status_code == 201
    waiting = response.json()
    assert set(waiting) == PAIRING_KEYS
    assert (waiting["status"], waiting["board"], waiting["time_control"]) == ("waiting", "5x5", "1+0")
    assert (waiting["rating"], waiting["rating_range"], waiting["waited"]) == (1200, 100, 0)
    assert (waiting["game"], waiting["game_url"], waiting["resolved_at"]) == (None, None, None)

    response = _ask(as_bob, "5x5", "1+0")
    assert response.status_code == 201
    paired = response.json()
    game = Game.objects.get()
    assert (paired["status"], paired["game"]) == ("matched", game.pk)
    assert paired["game_url"] == f"http://testserver/games/{game.pk}/"
    assert paired["rating_range"] is None
    assert {game.x_player, game.o_player} == {alice, bob} and game.clock_initial == 60

    # Alice, looking, finds her game.
    mine = as_alice.get("/api/pairing/").json()
    assert (mine["id"], mine["status"], mine["game"]) == (waiting["id"], "matched", game.pk)


def test_asking_again_keeps_the_request_and_checks_in(as_alice, as_bob, alice, bob):
    rate(alice, 1000)
    rate(bob, 1500)
    first = _ask(as_alice).json()
    _ask(as_bob)
    assert not Game.objects.exists()  # 500 apart
    again = _ask(as_alice)
    assert again.status_code == 200 and again.json()["id"] == first["id"]
    # Half a minute later either range is any rating: asking again pairs them.
    PairingRequest.objects.update(created_at=timezone.now() - timedelta(seconds=31))
    looked = as_alice.get("/api/pairing/").json()
    assert (looked["status"], looked["waited"], looked["rating_range"]) == ("waiting", 31, None)
    assert not Game.objects.exists()  # looking is not checking in
    paired = _ask(as_alice)
    assert paired.status_code == 200 and paired.json()["status"] == "matched"


def test_cancelling_stops_the_wait_and_says_why_not_when_it_cannot(as_alice, as_bob, as_carol):
    assert_error(as_alice.delete("/api/pairing/"), 404, "not_found")
    asked = _ask(as_alice).json()
    cancelled = as_alice.delete("/api/pairing/")
    assert cancelled.status_code == 200
    assert (cancelled.json()["id"], cancelled.json()["status"]) == (asked["id"], "cancelled")
    assert _ask(as_bob).json()["status"] == "waiting"  # alice is not there any more
    body = assert_error(as_alice.delete("/api/pairing/"), 409, "not_waiting")
    assert body["message"] == "This request is cancelled already."

    # Paired before cancelling: refused, with the game.
    paired = _ask(as_carol).json()
    body = assert_error(as_bob.delete("/api/pairing/"), 409, "already_paired")
    assert body["game"]["id"] == paired["game"]
    assert f"your game is at /games/{paired['game']}/" in body["message"]


def test_asking_for_another_game_while_waiting_is_a_conflict(as_alice):
    _ask(as_alice)
    before = list(PairingRequest.objects.values())
    body = assert_error(_ask(as_alice, "4x4", "10+5"), 409, "already_waiting")
    assert body["message"] == "You are waiting for a 3x3 3+2 game already: cancel it first."
    assert list(PairingRequest.objects.values()) == before


@pytest.mark.parametrize(
    "data, field, code",
    [
        ({"board": "9x9", "time_control": "3+2"}, "board", "invalid_board"),
        ({"board": "3x3", "time_control": "2+1"}, "time_control", "invalid_time_control"),
        ({"board": "3x3", "time_control": "30s"}, "time_control", "invalid_time_control"),
        ({"board": "3x3"}, "time_control", "invalid"),  # missing, not a bad choice
        ({"time_control": "3+2"}, "board", "invalid"),
    ],
)
def test_a_bad_board_or_time_control_is_refused_and_nothing_is_stored(as_alice, data, field, code):
    before = stored()
    body = assert_error(as_alice.post("/api/pairing/", data), 400, code)
    assert list(body["fields"]) == [field]
    assert stored() == before and not PairingRequest.objects.exists()


def test_only_a_signed_in_player_asks(anon):
    for response in (_ask(anon), anon.get("/api/pairing/"), anon.delete("/api/pairing/")):
        assert_error(response, 401, "not_authenticated")
    assert not PairingRequest.objects.exists()


def test_never_asked_is_a_404(as_alice):
    body = assert_error(as_alice.get("/api/pairing/"), 404, "not_found")
    assert body["message"] == "You have not asked for a quick game."


def test_the_worker_pairs_api_clients_once_their_ranges_have_widened(as_alice, alice, bob):
    rate(alice, 1000)
    rate(bob, 1600)
    _ask(as_alice)
    _ask(client_for(bob))
    assert pairing_services.pairing_match_waiting() == 0
    PairingRequest.objects.update(created_at=timezone.now() - timedelta(seconds=30))
    assert pairing_services.pairing_match_waiting() == 1
    mine = as_alice.get("/api/pairing/").json()
    assert mine["status"] == "matched" and mine["game"] == Game.objects.get().pk


def test_a_browser_session_cancels_only_with_the_csrf_token(alice, as_alice):
    _ask(as_alice)
    session = APIClient(enforce_csrf_checks=True)
    session.force_login(alice)
    assert_error(session.delete("/api/pairing/"), 403, "csrf_failed")
    assert PairingRequest.objects.get().status == "waiting"
    html = session.get("/play/").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    assert session.delete("/api/pairing/", HTTP_X_CSRFTOKEN=token).json()["status"] == "cancelled"


@pytest.mark.django_db(transaction=True)
def test_the_same_request_sent_three_times_at_once_is_made_once_and_kept_twice(alice):
    def ask():
        return client_for(alice).post("/api/pairing/", {"board": "3x3", "time_control": "3+2"}, format="json")

    statuses = [response.status_code for response in at_once(ask, ask, ask)]
    assert sorted(statuses) == [200, 200, 201]
    assert PairingRequest.objects.count() == 1
