"""WebSockets on the Redis channel layer, as the site configures it."""

from __future__ import annotations

import asyncio
import os

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from games import services
from games.services import Player
from tttsite.settings import redis_channel_layer

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def _alice_bob_and_game():
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    alice = users.create_user("alice", password="x")
    bob = users.create_user("bob", password="x")
    challenge = services.challenge_create(challenger=alice, side="X")
    game = services.challenge_accept(user=bob, challenge_id=challenge.pk)
    client = Client()
    client.force_login(alice)
    return alice, game, client.cookies[settings.SESSION_COOKIE_NAME].value


def _site_socket(path, session):
    from tttsite.asgi import application

    return WebsocketCommunicator(
        application,
        path,
        headers=[(b"origin", b"http://127.0.0.1"), (b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}".encode())],
    )


async def test_an_idle_socket_on_redis_outlives_the_layers_wait(settings):
    """The Redis layer waits for messages 5 s at a time; redis-py's default
    socket timeout is 5 s too. Without the site's longer timeout every idle
    socket was closed after 5 s. Needs the README's Redis (TEST_REDIS_URL)."""
    layer = redis_channel_layer(os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15"))
    layer["CONFIG"]["prefix"] = f"tttsite-test-{os.getpid()}"  # a concurrent run cannot hear these
    settings.CHANNEL_LAYERS = {"default": layer}
    alice, game, session = await _alice_bob_and_game()
    socket = _site_socket(f"/ws/games/{game.pk}/", session)
    connected, _ = await socket.connect()
    assert connected
    assert (await socket.receive_json_from())["type"] == "state"
    await asyncio.sleep(12)  # two of the layer's waits for messages, and then some
    assert await socket.receive_nothing(timeout=0.1)  # not closed
    await database_sync_to_async(services.game_play_move)(game_id=game.pk, player=Player(user=alice), cell=4, ply=0)
    assert (await socket.receive_json_from(timeout=5))["cell"] == 4
    await socket.disconnect()
