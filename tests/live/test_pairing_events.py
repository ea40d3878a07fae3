"""A waiting player's socket hears "paired" with the game's address the moment
someone is paired with them: the waiting page goes there at once."""

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from games.lobby import pairing_services
from games.routing import websocket_urlpatterns
from tests.live.players import signed_in

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

application = URLRouter(websocket_urlpatterns)


@database_sync_to_async
def _players():
    users = get_user_model().objects
    return users.create_user("alice", password="x"), users.create_user("bob", password="x")


@database_sync_to_async
def _ask(player):
    return pairing_services.pairing_request(player=player, variant="3x3", time_control="1+0")[0]


async def test_the_waiting_player_hears_they_are_paired_with_the_game_s_address():
    alice, bob = await _players()
    waiting = await _ask(alice)
    socket = WebsocketCommunicator(application, "/ws/lobby/")
    socket.scope.update(await signed_in(alice))
    connected, _ = await socket.connect()
    assert connected and (await socket.receive_json_from())["type"] == "ready"

    paired = await _ask(bob)

    messages = [await socket.receive_json_from() for _ in range(2)]
    by_type = {message["type"]: message for message in messages}
    assert set(by_type) == {"paired", "game_started"}  # hers, and the lobby's news of a game to watch
    assert by_type["paired"]["url"] == f"/games/{paired.game_id}/"
    assert (by_type["paired"]["game"], by_type["paired"]["request"]) == (paired.game_id, waiting.pk)
    await socket.disconnect()
