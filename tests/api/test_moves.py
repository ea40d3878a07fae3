"""Playing a move: 201 with the AI's answer, 200 for a repeat, 400 for what is
not a move, 409 with the current game for what the game refuses."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.play import services
from games.play.models import Game, Move
from games.play.players import Player
from tests.api.conftest import assert_error, stored
from tests.engine import reference

pytestmark = pytest.mark.django_db


def _move_url(game) -> str:
    return f"/api/games/{game.pk}/moves/"


def test_a_move_against_the_ai_comes_back_with_its_answer(as_alice, ai_game):
    response = as_alice.post(_move_url(ai_game), {"cell": 4, "ply": 0})
    assert response.status_code == 201
    game = response.json()
    assert game["ply"] == 2 and game["moves"][0] == 4
    assert game["board"][4] == "X" and game["board"].count("O") == 1
    assert game["to_move"] == "X"
    assert list(Move.objects.filter(game=ai_game).values_list("cell", flat=True).order_by("ply")) == game["moves"]


def test_a_move_between_people_passes_the_turn(as_alice, human_game):
    response = as_alice.post(_move_url(human_game), {"cell": 0, "ply": 0})
    assert response.status_code == 201
    game = response.json()
    assert (game["board"], game["ply"], game["to_move"]) == ("X........", 1, "O")


def test_the_same_move_sent_twice_is_played_once_and_the_repeat_is_a_200(as_alice, ai_game):
    first = as_alice.post(_move_url(ai_game), {"cell": 4, "ply": 0})
    before = stored()
    again = as_alice.post(_move_url(ai_game), {"cell": 4, "ply": 0})
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()
    assert stored() == before


def test_a_game_can_be_played_to_its_end(as_alice, alice):
    game = services.game_create_against_ai(player=Player(user=alice), side="X", level="easy", seed=3)
    body = {"status": "in_progress", "board": ".........", "ply": 0}
    while body["status"] == "in_progress":
        cell = body["board"].index(".")
        response = as_alice.post(_move_url(game), {"cell": cell, "ply": body["ply"]})
        assert response.status_code == 201
        body = response.json()
    # The result is what the final board says (the independent referee reads it).
    winner = reference.winner(body["board"])
    assert winner is not None or "." not in body["board"]
    assert body["status"] == "finished" and body["result"] == {"X": "x_won", "O": "o_won", None: "draw"}[winner]
    assert body["termination"] == ("line" if winner else "full_board")
    assert body["to_move"] is None and body["finished_at"]
    assert Game.objects.get(pk=game.pk).result == body["result"]
    assert_error(as_alice.post(_move_url(game), {"cell": 0, "ply": body["ply"]}), 409, "game_over")


@pytest.mark.parametrize("variant", ["4x4", "5x5"])
def test_the_bigger_boards_are_played_the_same_way(as_alice, alice, variant):
    game = services.game_create_against_ai(player=Player(user=alice), variant=variant, side="X", level="medium")
    response = as_alice.post(_move_url(game), {"cell": 5, "ply": 0})
    assert response.status_code == 201
    body = response.json()
    assert (body["ply"], body["to_move"], body["moves"][0]) == (2, "X", 5)
    assert body["board"][5] == "X" and body["board"].count("X") == 1 and body["board"].count("O") == 1


# -- what is not a move: 400 ----------------------------------------------------------


@pytest.mark.parametrize(
    "data, field",
    [
        ({"cell": "4", "ply": 0}, "cell"),
        ({"cell": "\u0664", "ply": 0}, "cell"),  # an Arabic-Indic four: a JSON integer only
        ({"cell": 4.5, "ply": 0}, "cell"),
        ({"cell": True, "ply": 0}, "cell"),
        ({"cell": None, "ply": 0}, "cell"),
        ({"cell": -1, "ply": 0}, "cell"),
        ({"cell": 25, "ply": 0}, "cell"),
        ({"ply": 0}, "cell"),
        ({"cell": 4}, "ply"),
        ({"cell": 4, "ply": "0"}, "ply"),
        ({"cell": 4, "ply": -1}, "ply"),
        ({"cell": [4], "ply": 0}, "cell"),
    ],
)
def test_what_is_not_a_move_is_a_400_naming_the_field(as_alice, ai_game, data, field):
    before = stored()
    body = assert_error(as_alice.post(_move_url(ai_game), data), 400, "invalid")
    assert field in body["fields"]
    assert stored() == before


def test_a_cell_off_this_board_is_a_400(as_alice, ai_game):
    before = stored()
    body = assert_error(as_alice.post(_move_url(ai_game), {"cell": 9, "ply": 0}), 400, "invalid_cell")
    assert "off the 3x3 board" in body["message"]
    assert stored() == before


def test_a_body_that_is_not_an_object_is_a_400(as_alice, ai_game):
    assert_error(as_alice.post(_move_url(ai_game), [4, 0]), 400, "invalid")


# -- what the game refuses: 409 with the game as it stands ---------------------------------


def _refused(client, game, data, code):
    before = stored()
    body = assert_error(client.post(_move_url(game), data), 409, code)
    assert stored() == before
    current = Game.objects.get(pk=game.pk)
    assert body["game"]["id"] == game.pk and body["game"]["ply"] == current.move_count
    assert body["game"]["board"] == str(current.board)
    return body


def test_an_occupied_cell_is_refused_with_the_current_game(as_alice, ai_game):
    played = as_alice.post(_move_url(ai_game), {"cell": 4, "ply": 0}).json()
    reply = played["moves"][1]
    body = _refused(as_alice, ai_game, {"cell": reply, "ply": 2}, "occupied")
    assert f"cell {reply} is occupied".capitalize() in body["message"]


def test_a_stale_ply_is_refused_with_the_current_game(as_alice, ai_game):
    as_alice.post(_move_url(ai_game), {"cell": 4, "ply": 0})
    body = _refused(as_alice, ai_game, {"cell": 0, "ply": 0}, "stale_ply")
    assert body["game"]["ply"] == 2
    assert body["message"] == "The game has moved on: 2 moves made, and you sent ply 0."


def test_a_ply_from_the_future_is_refused(as_alice, ai_game):
    body = _refused(as_alice, ai_game, {"cell": 0, "ply": 1}, "stale_ply")
    assert body["message"] == "The game is not that far on: 0 moves made, and you sent ply 1; send ply 0."
    assert "moved on" not in body["message"]


def test_one_move_is_counted_in_the_singular(as_bob, as_alice, human_game):
    as_alice.post(_move_url(human_game), {"cell": 4, "ply": 0})
    body = _refused(as_bob, human_game, {"cell": 0, "ply": 3}, "stale_ply")
    assert body["message"].startswith("The game is not that far on: 1 move made,")


def test_the_opponent_cannot_move_out_of_turn(as_bob, human_game):
    body = _refused(as_bob, human_game, {"cell": 0, "ply": 0}, "not_your_turn")
    assert body["game"]["to_move"] == "X"


def test_a_finished_game_refuses_moves(as_alice, finished_game):
    _refused(as_alice, finished_game, {"cell": 0, "ply": finished_game.move_count}, "game_over")


# -- who may move ----------------------------------------------------------------------


def test_someone_who_does_not_play_is_forbidden(as_carol, ai_game):
    before = stored()
    body = assert_error(as_carol.post(_move_url(ai_game), {"cell": 4, "ply": 0}), 403, "not_a_player")
    assert "game" not in body
    assert stored() == before


def test_a_move_in_an_unknown_game_is_a_404(as_alice):
    assert_error(as_alice.post("/api/games/424242/moves/", {"cell": 4, "ply": 0}), 404, "not_found")


def test_a_move_costs_as_many_queries_late_in_the_game_as_early(as_alice, as_bob, human_game):
    """The game is read with its players and its moves at once: no query per move played."""

    def queries_of(client, cell: int, ply: int) -> int:
        with CaptureQueriesContext(connection) as captured:
            response = client.post(_move_url(human_game), {"cell": cell, "ply": ply})
        assert response.status_code == 201, response.content
        return len(captured.captured_queries)

    queries_of(as_alice, 4, 0)  # alice's token is now noted as used
    queries_of(as_bob, 0, 1)
    early = queries_of(as_alice, 8, 2)
    queries_of(as_bob, 1, 3)
    assert queries_of(as_alice, 2, 4) == early
