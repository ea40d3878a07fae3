"""A program playing over the game's socket needs nothing else: the socket
opens with the whole game, and every event that changes it says how it now
stands, clocks and result included (checked against games/api/asyncapi.yaml
by tests/live/conftest.py)."""

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from games.lobby import services as lobby_services
from games.play import offers, services
from games.play.players import Player
from games.routing import websocket_urlpatterns
from tests.live.players import signed_in

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

application = URLRouter(websocket_urlpatterns)


@database_sync_to_async
def _clocked_game():
    users = get_user_model().objects
    alice, bob = users.create_user("alice", password="x"), users.create_user("bob", password="x")
    challenge = lobby_services.challenge_create(challenger=alice, side="X", time_control="1+0")
    return alice, bob, lobby_services.challenge_accept(user=bob, challenge_id=challenge.pk)


async def _socket(user, game):
    communicator = WebsocketCommunicator(application, f"/ws/games/{game.pk}/")
    communicator.scope.update(await signed_in(user))
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def _next(communicator, kind):
    while True:
        message = await communicator.receive_json_from(timeout=3)
        if message["type"] == kind:
            return message


async def test_the_socket_opens_with_the_whole_game_and_its_clocks():
    alice, bob, game = await _clocked_game()
    await database_sync_to_async(services.game_play_move)(game_id=game.pk, player=Player(user=alice), cell=4, ply=0)

    bob_socket = await _socket(bob, game)
    state = await _next(bob_socket, "state")

    assert state["side"] == "O" and state["board"] == "....X...." and state["moves"] == [4]
    assert state["to_move"] == "O" and state["status"] == "in_progress" and state["result"] is None
    clock = state["clock"]
    # O's first move has a deadline of its own; the clocks run once both sides have moved.
    assert clock["time_control"] == "1+0" and clock["running"] is None and clock["first_move"] is True
    assert clock["o_ms"] == clock["x_ms"] == 60_000 and clock["deadline"]
    await bob_socket.disconnect()


async def test_every_move_carries_the_clocks_and_the_last_one_the_result():
    alice, bob, game = await _clocked_game()
    bob_socket = await _socket(bob, game)
    await _next(bob_socket, "state")

    play = database_sync_to_async(services.game_play_move)
    for ply, (user, cell) in enumerate([(alice, 0), (bob, 3), (alice, 1), (bob, 4)]):
        await play(game_id=game.pk, player=Player(user=user), cell=cell, ply=ply)
        moved = await _next(bob_socket, "move")
        assert moved["state"]["moves"] == [0, 3, 1, 4][: ply + 1]
        to_move = "O" if ply % 2 == 0 else "X"
        assert moved["state"]["to_move"] == to_move
        assert moved["state"]["clock"]["running"] == (to_move if ply >= 1 else None)
    assert moved["state"]["board"] == "XX.OO...."

    await play(game_id=game.pk, player=Player(user=alice), cell=2, ply=4)
    won = await _next(bob_socket, "move")
    assert won["state"]["status"] == "finished" and won["state"]["result"] == "x_won"
    assert won["state"]["winning_line"] == [0, 1, 2] and won["state"]["to_move"] is None
    assert won["state"]["clock"]["running"] is None and won["state"]["clock"]["deadline"] is None
    await bob_socket.disconnect()


async def test_an_offer_and_a_resignation_say_how_the_game_stands():
    alice, bob, game = await _clocked_game()
    play = database_sync_to_async(services.game_play_move)
    await play(game_id=game.pk, player=Player(user=alice), cell=4, ply=0)
    await play(game_id=game.pk, player=Player(user=bob), cell=0, ply=1)
    alice_socket = await _socket(alice, game)
    await _next(alice_socket, "state")

    await database_sync_to_async(offers.game_offer_draw)(game_id=game.pk, player=Player(user=bob))
    offered = await _next(alice_socket, "draw_offered")
    assert offered["state"]["draw_offer"] == "O" and offered["state"]["moves"] == [4, 0]

    await database_sync_to_async(services.game_resign)(game_id=game.pk, player=Player(user=bob))
    resigned = await _next(alice_socket, "resigned")
    assert resigned["state"]["result"] == "x_won" and resigned["state"]["status"] == "finished"
    assert resigned["state"]["draw_offer"] is None
    await alice_socket.disconnect()
