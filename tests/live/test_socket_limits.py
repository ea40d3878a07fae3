"""The caps on sockets, through the site's whole WebSocket stack
(tttsite.asgi): so many open from one address, so many frames a second on
one socket; past either, closed with 4429. A client that has gone away is
one line in the log, not a traceback."""

from __future__ import annotations

import logging

import pytest
from channels.db import database_sync_to_async
from uvicorn.protocols.utils import ClientDisconnected

from games.accounts.services import api_token_create
from games.serving.sockets import SocketLimits
from tests.factories import ai_game
from tests.live.test_socket_credentials import _socket, _state

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _hosts(settings):
    settings.ALLOWED_HOSTS = ["localhost"]


@database_sync_to_async
def _game_and_token(django_user_model):
    alice = django_user_model.objects.create_user("alice", password="x")
    return ai_game(alice, resign=True), api_token_create(user=alice)


async def _closed_with(socket, code) -> str:
    while True:
        output = await socket.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            assert output.get("code") == code, output
            return output["reason"]


async def test_sockets_from_one_address_past_the_cap_are_closed_with_4429(settings, django_user_model):
    settings.SOCKETS_PER_ADDRESS = 2
    game, token = await _game_and_token(django_user_model)
    first, second, third = (_socket(f"/ws/games/{game.pk}/", token=token) for _ in range(3))
    await _state(first)
    await _state(second)

    connected, _ = await third.connect(timeout=5)
    assert connected
    assert "too many sockets" in await _closed_with(third, 4429)

    await first.disconnect()
    again = _socket(f"/ws/games/{game.pk}/", token=token)
    await _state(again)  # one closed, one more may open
    for socket in (second, again):
        await socket.disconnect()


async def test_frames_past_the_rate_close_the_socket_with_4429(settings, django_user_model):
    settings.SOCKET_FRAME_BURST, settings.SOCKET_FRAMES_PER_SECOND = 3, 0.01
    game, token = await _game_and_token(django_user_model)
    socket = _socket(f"/ws/games/{game.pk}/", token=token)
    await _state(socket)
    for _ in range(3):
        await socket.send_json_to({"action": "hello"})
        assert (await socket.receive_json_from(timeout=5))["code"] == "unknown_action"

    await socket.send_json_to({"action": "hello"})

    assert "too many messages" in await _closed_with(socket, 4429)


async def test_a_client_gone_before_the_answer_is_one_line_in_the_log(caplog):
    async def app(scope, receive, send):
        await receive()
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": "{}"})

    async def receive():
        return {"type": "websocket.connect"}

    async def send(message):
        if message["type"] == "websocket.send":
            raise ClientDisconnected("the client has gone")

    scope = {"type": "websocket", "path": "/ws/games/1/", "headers": [], "client": ("203.0.113.7", 5000)}
    with caplog.at_level(logging.INFO, logger="games.serving.sockets"):
        await SocketLimits(app)(scope, receive, send)

    (record,) = [r for r in caplog.records if r.name == "games.serving.sockets"]
    assert record.exc_info is None and "203.0.113.7 went away before websocket.send" in record.getMessage()
