"""A game against the AI, watched live: a move and the AI's reply arrive in one event,
for signed-in spectators and visitors who are not signed in alike."""

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from games.play import services
from games.play.players import GUEST_SESSION_KEY, Player
from games.routing import websocket_urlpatterns
from tests.live.players import signed_in

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
    socket.scope.update(await signed_in(watcher))
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


@database_sync_to_async
def _guest_game():
    guest = Player(guest_key="a-guest-key")
    return services.game_create_against_ai(player=guest, variant="4x4", side="X", level="perfect", seed=3)


@database_sync_to_async
def _guest_move(game, cell, ply):
    return services.game_play_move(game_id=game.pk, player=Player(guest_key="a-guest-key"), cell=cell, ply=ply).game


async def _connect_as_guest(game, guest_key=""):
    socket = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{game.pk}/")
    socket.scope["user"] = AnonymousUser()
    socket.scope["session"] = {GUEST_SESSION_KEY: guest_key} if guest_key else {}
    connected, code = await socket.connect()
    assert connected, code
    return socket


async def test_a_visitor_who_is_not_signed_in_watches_a_game_against_the_ai():
    game = await _guest_game()
    watcher = await _connect_as_guest(game)
    state = await watcher.receive_json_from()
    assert (state["type"], state["side"], state["watchers"]) == ("state", None, 1)

    # On 4x4 the AI thinks once the move is stored: the move, then the reply.
    played = await _guest_move(game, 0, 0)
    move, reply = await _next_move(watcher), await _next_move(watcher)
    assert (move["ply"], move["cell"], move["status"]) == (1, 0, "in_progress")
    assert (reply["ply"], reply["cell"]) == (2, played.cells[1])

    # Watching is all: a move sent down the socket is refused and changes nothing.
    await watcher.send_json_to({"action": "move", "cell": 5, "ply": 2})
    refused = await watcher.receive_json_from()
    assert (refused["type"], refused["code"]) == ("refused", "not_a_player")
    await watcher.disconnect()


async def test_a_guest_following_their_own_game_is_its_player_not_a_spectator():
    game = await _guest_game()
    player = await _connect_as_guest(game, "a-guest-key")
    state = await player.receive_json_from()
    assert (state["side"], state["watchers"]) == ("X", 0)
    await player.send_json_to({"action": "move", "cell": 5, "ply": 0})
    move, reply = await _next_move(player), await _next_move(player)
    assert (move["ply"], move["cell"], reply["ply"]) == (1, 5, 2)
    await player.disconnect()
