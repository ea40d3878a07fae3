"""WebSockets while Redis or the database is down: the socket is closed with
4503 (the page then fetches the game every few seconds), never left to crash.

These go through the site's whole WebSocket stack (tttsite.asgi: origin
check, session, user), signed in with a real session cookie.
"""

from __future__ import annotations

import asyncio
import os
from unittest import mock

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.utils import OperationalError
from django.test import Client

from games.play import services
from games.play.players import Player
from games.routing import websocket_urlpatterns
from games.serving.sockets import CLOSE_SERVICE_UNAVAILABLE, CloseWhenServiceDown
from tests.live.players import alice_and_bob_in_a_game, signed_in
from tttsite.settings import redis_channel_layer

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def redis_down(settings):
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]}}
    }


@database_sync_to_async
def _alice_her_game_and_session():
    alice, _, game = alice_and_bob_in_a_game()
    client = Client()
    client.force_login(alice)
    return alice, game, client.cookies[settings.SESSION_COOKIE_NAME].value


def _site_socket(path, session):
    from tttsite.asgi import application

    return WebsocketCommunicator(
        application,
        path,
        headers=[
            (b"host", b"127.0.0.1"),
            (b"origin", b"http://127.0.0.1"),
            (b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}".encode()),
        ],
    )


async def _closed_with_4503(communicator):
    connected, _ = await communicator.connect(timeout=10)
    assert connected  # accepted, so that a browser hears the code
    closing = await communicator.receive_output(timeout=10)
    assert closing == {"type": "websocket.close", "code": CLOSE_SERVICE_UNAVAILABLE}
    await communicator.wait(timeout=5)  # the consumer ended without an unhandled exception


async def test_the_site_works_over_its_whole_stack():
    _, game, session = await _alice_her_game_and_session()
    socket = _site_socket(f"/ws/games/{game.pk}/", session)
    connected, _ = await socket.connect()
    assert connected
    state = await socket.receive_json_from()
    # The session cookie made her alice: she is told her side of her game.
    assert (state["type"], state["game"], state["side"], state["ply"]) == ("state", game.pk, "X", 0)
    await socket.disconnect()


@pytest.mark.parametrize("path", ["/ws/games/{game}/", "/ws/lobby/"])
async def test_redis_down_closes_the_socket_with_4503(redis_down, path):
    _, game, session = await _alice_her_game_and_session()
    await _closed_with_4503(_site_socket(path.format(game=game.pk), session))


async def test_the_session_lookup_failing_closes_the_socket_with_4503():
    _, game, session = await _alice_her_game_and_session()
    with mock.patch.object(SessionStore, "load", side_effect=OperationalError("server closed the connection")):
        await _closed_with_4503(_site_socket(f"/ws/games/{game.pk}/", session))


async def test_the_database_down_inside_the_consumer_closes_the_socket_with_4503():
    alice, game, _ = await _alice_her_game_and_session()
    communicator = WebsocketCommunicator(
        CloseWhenServiceDown(URLRouter(websocket_urlpatterns)), f"/ws/games/{game.pk}/"
    )
    communicator.scope.update(await signed_in(alice))  # signed in already: the consumer's own query is the first
    with mock.patch.object(BaseDatabaseWrapper, "ensure_connection", side_effect=OperationalError("refused")):
        await _closed_with_4503(communicator)


async def test_other_failures_are_not_dressed_up_as_outages():
    alice, game, _ = await _alice_her_game_and_session()
    communicator = WebsocketCommunicator(
        CloseWhenServiceDown(URLRouter(websocket_urlpatterns)), f"/ws/games/{game.pk}/"
    )
    communicator.scope.update(await signed_in(alice))
    with mock.patch("games.play.consumers.GameConsumer._state", side_effect=RuntimeError("a bug")):
        with pytest.raises(RuntimeError, match="a bug"):
            await communicator.connect(timeout=5)


async def test_an_idle_socket_on_redis_outlives_the_layers_wait(settings):
    """The Redis layer waits for messages 5 s at a time; redis-py's default
    socket timeout is 5 s too. Without the site's longer timeout every idle
    socket was closed after 5 s. Needs the README's Redis (TEST_REDIS_URL)."""
    layer = redis_channel_layer(os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15"))
    layer["CONFIG"]["prefix"] = f"tttsite-test-{os.getpid()}"  # a concurrent run cannot hear these
    settings.CHANNEL_LAYERS = {"default": layer}
    alice, game, session = await _alice_her_game_and_session()
    socket = _site_socket(f"/ws/games/{game.pk}/", session)
    connected, _ = await socket.connect()
    assert connected
    assert (await socket.receive_json_from())["type"] == "state"
    await asyncio.sleep(12)  # two of the layer's waits for messages, and then some
    assert await socket.receive_nothing(timeout=0.1)  # not closed
    await database_sync_to_async(services.game_play_move)(game_id=game.pk, player=Player(user=alice), cell=4, ply=0)
    assert (await socket.receive_json_from(timeout=5))["cell"] == 4
    await socket.disconnect()
