"""The production path: with REDIS_URL, the channel layer is Redis.

These tests need the Redis server the README names (127.0.0.1:6379, or
TEST_REDIS_URL); one that does not answer fails the run, it is not skipped.
"""

import asyncio
import os
import subprocess
import sys
import threading
import time

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games.play import live, services
from games.play.players import Player
from games.routing import websocket_urlpatterns
from tests.conftest import BASE_DIR
from tests.live.players import alice_and_bob_in_a_game, signed_in
from tttsite.settings import redis_channel_layer

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


@pytest.fixture
def redis_layer(settings):
    layer = redis_channel_layer(REDIS_URL)  # the site's (settings.py)
    # A prefix of our own so a concurrent run cannot hear these messages.
    layer["CONFIG"]["prefix"] = f"tttsite-test-{os.getpid()}"
    settings.CHANNEL_LAYERS = {"default": layer}
    return get_channel_layer()


_game = database_sync_to_async(alice_and_bob_in_a_game)


async def _socket_on(game, user) -> WebsocketCommunicator:
    """``user``'s socket on ``game``, open, its first message (the state) read."""
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{game.pk}/")
    communicator.scope.update(await signed_in(user))
    connected, _ = await communicator.connect()
    assert connected
    assert (await communicator.receive_json_from())["type"] == "state"
    return communicator


async def test_moves_travel_through_redis_to_both_players(redis_layer):
    alice, bob, game = await _game()
    sockets = [await _socket_on(game, user) for user in (alice, bob)]
    await database_sync_to_async(services.game_play_move)(game_id=game.pk, player=Player(user=alice), cell=4, ply=0)
    for communicator in sockets:
        event = await communicator.receive_json_from(timeout=5)
        assert (event["type"], event["ply"], event["cell"]) == ("move", 1, 4)
        await communicator.disconnect()
    await redis_layer.flush()


async def test_a_move_sent_over_a_socket_is_heard_once_by_its_sender_and_once_by_the_other_player(redis_layer):
    alice, bob, game = await _game()
    sockets = [await _socket_on(game, user) for user in (alice, bob)]
    await sockets[0].send_json_to({"action": "move", "cell": 4, "ply": 0})
    for communicator in sockets:
        event = await communicator.receive_json_from(timeout=5)
        assert (event["type"], event["ply"], event["cell"]) == ("move", 1, 4)
        assert await communicator.receive_nothing(timeout=1)
    # The next move, the other way round, likewise.
    await sockets[1].send_json_to({"action": "move", "cell": 0, "ply": 1})
    for communicator in sockets:
        event = await communicator.receive_json_from(timeout=5)
        assert (event["type"], event["ply"], event["cell"]) == ("move", 2, 0)
        assert await communicator.receive_nothing(timeout=1)
    for communicator in sockets:
        await communicator.disconnect()
    await redis_layer.flush()


async def test_on_a_larger_board_a_socket_hears_its_move_while_the_ai_still_thinks(redis_layer, monkeypatch):
    from django.contrib.auth import get_user_model

    user = await database_sync_to_async(get_user_model().objects.create_user)("thinker", password="x" * 12)
    game = await database_sync_to_async(services.game_create_against_ai)(
        player=Player(user=user), side="X", variant="4x4", seed=7
    )
    thought = threading.Event()
    choose = services._ai_choice

    def slow_choice(game, board):  # a 4x4 search that takes until the test says
        thought.wait(10)
        return choose(game, board)

    monkeypatch.setattr(services, "_ai_choice", slow_choice)
    socket = await _socket_on(game, user)
    await socket.send_json_to({"action": "move", "cell": 5, "ply": 0})
    mine = await socket.receive_json_from(timeout=5)  # the AI has not chosen yet
    assert (mine["type"], mine["ply"], mine["cell"]) == ("move", 1, 5)
    thought.set()
    reply = await socket.receive_json_from(timeout=10)
    assert (reply["type"], reply["ply"]) == ("move", 2)
    assert await socket.receive_nothing(timeout=0.5)
    await socket.disconnect()
    await redis_layer.flush()


def _publish_in_a_request(messages: int, game_id: int) -> float:
    """What services do after a commit, ``messages`` times; the seconds it took the caller."""
    started = time.perf_counter()
    for ply in range(messages):
        live._send(live.game_group(game_id), {"type": "game.event", "event": "move", "game": game_id, "ply": ply})
    return time.perf_counter() - started


async def test_a_games_messages_arrive_in_the_order_they_were_published(redis_layer):
    channel = await redis_layer.new_channel()
    await redis_layer.group_add(live.game_group(1), channel)
    other = await redis_layer.new_channel()
    await redis_layer.group_add(live.game_group(2), other)
    await sync_to_async(_publish_in_a_request)(50, 1)
    await sync_to_async(_publish_in_a_request)(3, 2)
    await sync_to_async(_publish_in_a_request)(30, 1)
    plies = [(await asyncio.wait_for(redis_layer.receive(channel), 5))["ply"] for _ in range(80)]
    assert plies == [*range(50), *range(30)]
    assert [(await asyncio.wait_for(redis_layer.receive(other), 5))["ply"] for _ in range(3)] == [0, 1, 2]
    await redis_layer.flush()


_EXITING_PROCESS = """
import sys
import django
from django.conf import settings
django.setup()
from tttsite.settings import redis_channel_layer
layer = redis_channel_layer(sys.argv[1])
layer["CONFIG"]["prefix"] = sys.argv[2]
settings.CHANNEL_LAYERS = {"default": layer}
from games.play import live
for ply in range(90):
    live._send(live.game_group(7), {"type": "game.event", "event": "move", "game": 7, "ply": ply})
# and the process ends at once, as a server stopped normally does
"""


async def test_messages_published_just_before_a_normal_exit_are_all_sent(redis_layer):
    channel = await redis_layer.new_channel()
    await redis_layer.group_add(live.game_group(7), channel)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tttsite.settings"}
    await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-c", _EXITING_PROCESS, REDIS_URL, redis_layer.prefix],
        cwd=BASE_DIR,
        env=env,
        check=True,
        timeout=60,
    )
    plies = [(await asyncio.wait_for(redis_layer.receive(channel), 5))["ply"] for _ in range(90)]
    assert plies == list(range(90))
    await redis_layer.flush()
