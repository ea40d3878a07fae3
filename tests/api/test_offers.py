"""Draw offers and takebacks through the API: each action answers with the
game; a refusal is a 409 with the game, a spectator a 403, bad input a 400,
and none of them changes anything stored."""

import pytest

from games.lobby import services as lobby_services
from games.play import services
from games.play.players import Player
from tests.api.conftest import assert_error, stored

pytestmark = pytest.mark.django_db


@pytest.fixture
def agreed_game(alice, bob, as_alice, as_bob):
    """Alice (X) against Bob (O), made through the API with takebacks allowed."""
    challenge = as_alice.post(
        "/api/challenges/", {"kind": "direct", "opponent": "bob", "side": "X", "takebacks_allowed": True}, format="json"
    ).json()
    assert challenge["takebacks_allowed"] is True
    return as_bob.post(f"/api/challenges/{challenge['id']}/accept/").json()


def _move(game_id, user, cell, ply):
    services.game_play_move(game_id=game_id, player=Player(user=user), cell=cell, ply=ply)


def test_a_draw_offered_and_accepted(as_alice, as_bob, human_game, alice, bob):
    _move(human_game.pk, alice, 4, 0)
    _move(human_game.pk, bob, 0, 1)
    url = f"/api/games/{human_game.pk}/draw/"
    game = as_alice.post(url).json()
    assert (game["draw_offer"], game["takeback_offer"], game["takebacks_allowed"]) == ("X", None, False)
    assert as_bob.get(f"/api/games/{human_game.pk}/").json()["draw_offer"] == "X"

    response = as_bob.post(url + "accept/")

    assert response.status_code == 200
    game = response.json()
    assert (game["status"], game["result"], game["termination"], game["draw_offer"]) == (
        "finished",
        "draw",
        "agreed",
        None,
    )


def test_a_draw_declined(as_alice, as_bob, human_game):
    as_bob.post(f"/api/games/{human_game.pk}/draw/")
    game = as_alice.post(f"/api/games/{human_game.pk}/draw/decline/").json()
    assert (game["status"], game["draw_offer"]) == ("in_progress", None)


def test_draw_refusals_say_why_and_change_nothing(as_alice, as_bob, as_carol, anon, human_game, ai_game):
    base = f"/api/games/{human_game.pk}/draw/"
    before = stored()
    body = assert_error(as_bob.post(base + "accept/"), 409, "no_draw_offer")
    assert body["game"]["id"] == human_game.pk
    assert_error(as_carol.post(base), 403, "not_a_player")
    assert_error(anon.post(base), 401, "not_authenticated")
    assert_error(as_alice.post("/api/games/999999/draw/"), 404, "not_found")
    assert_error(as_alice.post(f"/api/games/{ai_game.pk}/draw/"), 409, "no_draws_with_ai")
    assert stored() == before
    as_alice.post(base)
    before = stored()
    assert_error(as_alice.post(base + "accept/"), 409, "own_offer")
    assert stored() == before


def test_no_offer_on_a_finished_game(as_alice, finished_game):
    body = assert_error(as_alice.post(f"/api/games/{finished_game.pk}/draw/"), 409, "game_over")
    assert body["game"]["status"] == "finished"


def test_a_takeback_asked_for_and_accepted(as_alice, as_bob, alice, agreed_game):
    assert agreed_game["takebacks_allowed"] is True
    url = f"/api/games/{agreed_game['id']}/takeback/"
    _move(agreed_game["id"], alice, 4, 0)
    game = as_alice.post(url).json()
    assert (game["takeback_offer"], game["ply"]) == ("X", 1)

    response = as_bob.post(url + "accept/", {"ply": 1}, format="json")

    assert response.status_code == 200
    game = response.json()
    assert (game["ply"], game["moves"], game["to_move"], game["takeback_offer"]) == (0, [], "X", None)
    # The game's record keeps what was taken back.
    (kept,) = as_bob.get(f"/api/games/{agreed_game['id']}/").json()["takebacks"]
    assert (kept["ply"], kept["cells"], kept["side"], kept["agreed_by"]) == (0, [4], "X", "O")


def test_a_takeback_declined_leaves_the_move(as_alice, as_bob, alice, agreed_game):
    _move(agreed_game["id"], alice, 4, 0)
    as_alice.post(f"/api/games/{agreed_game['id']}/takeback/")
    game = as_bob.post(f"/api/games/{agreed_game['id']}/takeback/decline/").json()
    assert (game["moves"], game["takeback_offer"]) == ([4], None)


def test_takeback_refusals_say_why_and_change_nothing(as_alice, as_bob, alice, bob, agreed_game, human_game):
    url = f"/api/games/{agreed_game['id']}/takeback/"
    _move(agreed_game["id"], alice, 4, 0)
    as_alice.post(url)
    _move(agreed_game["id"], bob, 0, 1)  # bob plays on: the request lapses
    _move(human_game.pk, alice, 4, 0)
    before = stored()
    assert_error(as_bob.post(url + "accept/", {"ply": 1}, format="json"), 409, "takeback_stale")
    assert_error(as_bob.post(url + "accept/"), 409, "no_takeback_request")
    body = assert_error(as_bob.post(url + "accept/", {"ply": "one"}, format="json"), 400, "invalid")
    assert "ply" in body["fields"]
    assert_error(as_alice.post(url), 409, "move_answered")
    assert_error(as_alice.post(f"/api/games/{human_game.pk}/takeback/"), 409, "takebacks_not_allowed")
    assert stored() == before


def test_against_the_ai_a_move_and_its_reply_are_taken_back_at_once(as_alice, alice, ai_game):
    _move(ai_game.pk, alice, 4, 0)
    game = as_alice.post(f"/api/games/{ai_game.pk}/takeback/").json()
    assert (game["ply"], game["to_move"], game["your_side"]) == (0, "X", "X")
    assert_error(as_alice.post(f"/api/games/{ai_game.pk}/takeback/"), 409, "nothing_to_take_back")


def test_a_challenge_without_takebacks_says_so(as_alice, bob):
    challenge = as_alice.post("/api/challenges/", {"kind": "direct", "opponent": "bob"}, format="json").json()
    assert challenge["takebacks_allowed"] is False
    game = lobby_services.challenge_accept(user=bob, challenge_id=challenge["id"])
    assert not game.takebacks_allowed
