"""A game against the AI, watched live: a move and the AI's reply arrive in one event."""

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games.play import services
from games.play.players import Player
from games.routing import websocket_urlpatterns

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def _players_and_game():
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    alice = users.create_user("alice", password="x")
    watcher = users.create_user("watcher", password="x")
    game = services.game_create_against_ai(player=Player(user=alice), side="X", level="perfect", seed=3)
    return alice, watcher, game


@database_sync_to_async
def _move(game, user, cell, ply):
    return services.game_play_move(game_id=game.pk, player=Player(user=user), cell=cell, ply=ply).game


async def _next_move(socket):
    while True:
        message = await socket.receive_json_from(timeout=5)
        if message["type"] == "move":
            return message


async def test_a_spectator_hears_the_move_and_the_ais_reply_together():
    alice, watcher, game = await _players_and_game()
    socket = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{game.pk}/")
    socket.scope["user"] = watcher
    connected, _ = await socket.connect()
    assert connected
    assert (await socket.receive_json_from())["type"] == "state"

    played = await _move(game, alice, 0, 0)
    event = await _next_move(socket)
    assert event["moves"] == [{"ply": 0, "cell": 0}, {"ply": 1, "cell": played.cells[1]}]
    assert (event["ply"], event["cell"], event["status"]) == (2, played.cells[1], "in_progress")

    # Play on until the game ends: the last event says so.
    while played.is_in_progress:
        free = min(set(range(9)) - set(played.cells))
        played = await _move(game, alice, free, played.move_count)
    last = None
    while last is None or last["ply"] < played.move_count:
        last = await _next_move(socket)
    assert (last["ply"], last["status"]) == (played.move_count, "finished")
    # The last event carries the game's last moves, in the order they were played.
    assert [move["cell"] for move in last["moves"]] == played.cells[-len(last["moves"]) :]
    assert [move["ply"] for move in last["moves"]] == list(
        range(played.move_count - len(last["moves"]), played.move_count)
    )
    await socket.disconnect()
