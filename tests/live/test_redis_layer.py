"""The production path: with REDIS_URL, the channel layer is Redis.

These tests need the Redis server the README names (127.0.0.1:6379, or
TEST_REDIS_URL); one that does not answer fails the run, it is not skipped.
"""

import os

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games.play import services
from games.play.players import Player
from games.routing import websocket_urlpatterns
from tests.live.players import alice_and_bob_in_a_game

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


@pytest.fixture
def redis_layer(settings):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # A prefix of our own so a concurrent run cannot hear these messages.
            "CONFIG": {"hosts": [REDIS_URL], "prefix": f"tttsite-test-{os.getpid()}"},
        }
    }
    layer = get_channel_layer()
    assert type(layer).__name__ == "RedisChannelLayer"
    return layer


_game = database_sync_to_async(alice_and_bob_in_a_game)


async def test_moves_travel_through_redis_to_both_players(redis_layer):
    alice, bob, game = await _game()
    application = URLRouter(websocket_urlpatterns)
    sockets = []
    for user in (alice, bob):
        communicator = WebsocketCommunicator(application, f"/ws/games/{game.pk}/")
        communicator.scope["user"] = user
        connected, _ = await communicator.connect()
        assert connected
        assert (await communicator.receive_json_from())["type"] == "state"
        sockets.append(communicator)
    await database_sync_to_async(services.game_play_move)(game_id=game.pk, player=Player(user=alice), cell=4, ply=0)
    for communicator in sockets:
        event = await communicator.receive_json_from(timeout=5)
        assert (event["type"], event["ply"], event["cell"]) == ("move", 1, 4)
        await communicator.disconnect()
    await redis_layer.flush()
