"""The chat over the game's WebSocket: a message sent reaches every socket
watching the game, players and spectators alike; a refused one reaches none."""

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from games.errors import ChatRefused
from games.play import chat_services
from games.play.chat_models import ChatMessage
from games.play.players import Player
from games.routing import websocket_urlpatterns
from tests.live.players import alice_and_bob_in_a_game, signed_in

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

application = URLRouter(websocket_urlpatterns)


@database_sync_to_async
def _players_and_game():
    alice, bob, game = alice_and_bob_in_a_game()
    carol = get_user_model().objects.create_user("carol", password="x")
    return alice, bob, carol, game


@database_sync_to_async
def _say(game, user, text):
    return chat_services.chat_send(game_id=game.pk, player=Player(user=user), text=text)


@database_sync_to_async
def _mute(game, user):
    chat_services.chat_mute_opponent(game_id=game.pk, player=Player(user=user))


async def _connect(user, game):
    communicator = WebsocketCommunicator(application, f"/ws/games/{game.pk}/")
    communicator.scope.update(await signed_in(user))
    connected, _ = await communicator.connect()
    assert connected
    assert (await communicator.receive_json_from())["type"] == "state"
    return communicator


async def test_a_message_reaches_the_players_and_the_spectators_sockets():
    alice, bob, carol, game = await _players_and_game()
    a = await _connect(alice, game)
    b = await _connect(bob, game)
    c = await _connect(carol, game)
    for player in (a, b):
        assert (await player.receive_json_from())["type"] == "watchers"  # carol came to watch
    assert (await c.receive_json_from())["type"] == "watchers"

    message = await _say(game, bob, "<i>hi</i> alice")

    for communicator in (a, b, c):
        event = await communicator.receive_json_from()
        assert (event["type"], event["game"], event["ply"], event["status"]) == ("chat", game.pk, 0, "in_progress")
        assert event["message"]["id"] == message.pk
        assert (event["message"]["side"], event["message"]["author"]) == ("O", "bob")
        assert event["message"]["text"] == "<i>hi</i> alice"  # plain text: the page sets it as text, not HTML
    for communicator in (a, b, c):
        await communicator.disconnect()


async def test_a_refused_message_reaches_no_one():
    alice, bob, carol, game = await _players_and_game()
    a = await _connect(alice, game)
    await _mute(game, alice)
    with pytest.raises(ChatRefused):
        await _say(game, bob, "you cannot hear me")
    await _say(game, alice, "only this one")
    event = await a.receive_json_from()
    assert (event["type"], event["message"]["text"]) == ("chat", "only this one")
    assert await a.receive_nothing()
    assert await database_sync_to_async(ChatMessage.objects.count)() == 1
    await a.disconnect()
