"""Who may open a socket, through the site's whole WebSocket stack
(tttsite.asgi): a page of the site itself with its session, checked by its
full origin (scheme, host and port); or an API token, in a header or in the
first message, from anywhere. A refused socket is accepted, then closed with
a code and a reason a client can read."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from games.accounts.services import api_token_create
from games.play.models import Move
from tests.live.players import alice_and_bob_in_a_game

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

HOST = "localhost:8000"


@database_sync_to_async
def _alice_her_game_session_and_token():
    alice, _, game = alice_and_bob_in_a_game()
    client = Client()
    client.force_login(alice)
    return game, client.cookies[settings.SESSION_COOKIE_NAME].value, api_token_create(user=alice)


@database_sync_to_async
def _moves(game):
    return list(Move.objects.filter(game=game).values_list("cell", flat=True))


def _socket(path, *, origin=None, session=None, token=None, scheme="ws", host=HOST):
    from tttsite.asgi import application

    headers = [(b"host", host.encode())]
    if origin:
        headers.append((b"origin", origin.encode()))
    if session:
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}".encode()))
    if token is not None:
        headers.append((b"authorization", f"Token {token}".encode()))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    communicator.scope["scheme"] = scheme
    return communicator


async def _state(communicator):
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    state = await communicator.receive_json_from(timeout=5)
    assert state["type"] == "state"
    return state


async def _closed_with(communicator, code):
    closing = await communicator.receive_output(timeout=5)
    assert (closing["type"], closing["code"]) == ("websocket.close", code)
    assert closing["reason"]
    return closing["reason"]


@pytest.fixture(autouse=True)
def _hosts(settings):
    settings.ALLOWED_HOSTS = ["localhost", "play.example.com"]
    settings.CSRF_TRUSTED_ORIGINS = []


@pytest.mark.parametrize(
    "scheme, host, origin",
    [
        ("ws", HOST, f"http://{HOST}"),
        ("wss", HOST, f"https://{HOST}"),
        ("wss", "play.example.com", "https://play.example.com"),
    ],
)
async def test_a_page_of_the_site_itself_uses_its_session(scheme, host, origin):
    game, session, _ = await _alice_her_game_session_and_token()
    socket = _socket(f"/ws/games/{game.pk}/", origin=origin, session=session, scheme=scheme, host=host)
    assert (await _state(socket))["side"] == "X"
    await socket.disconnect()


@pytest.mark.parametrize(
    "origin",
    [
        "http://localhost:9999",  # another port: another site
        "https://localhost:8000",  # another scheme
        "http://localhost",  # the default port is another port
        "http://evil.localhost:8000",
        "null",
    ],
)
async def test_a_page_from_another_origin_cannot_use_the_session(origin):
    """The session cookie the browser sends along is not that page's to use:
    the socket waits for a token and, sent a move instead, closes with 4403."""
    game, session, _ = await _alice_her_game_session_and_token()
    socket = _socket(f"/ws/games/{game.pk}/", origin=origin, session=session)
    connected, _ = await socket.connect(timeout=5)
    assert connected
    await socket.send_json_to({"action": "move", "cell": 4, "ply": 0})
    assert "origin" in await _closed_with(socket, 4403)
    assert await _moves(game) == []


async def test_trusted_origins_are_compared_whole_and_by_wildcard(settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://app.example.com", "https://*.example.org"]
    game, session, _ = await _alice_her_game_session_and_token()
    for origin in ("https://app.example.com", "https://play.example.org"):
        socket = _socket(f"/ws/games/{game.pk}/", origin=origin, session=session)
        assert (await _state(socket))["side"] == "X"
        await socket.disconnect()
    socket = _socket(f"/ws/games/{game.pk}/", origin="http://app.example.com", session=session)  # not https
    await socket.connect(timeout=5)
    await socket.send_json_to({"action": "move", "cell": 4, "ply": 0})
    await _closed_with(socket, 4403)


async def test_a_page_on_another_port_or_scheme_of_the_same_host_is_not_the_site():
    """Pages and sockets share one address: an Origin is the site only when
    its scheme, host and port are the socket's own."""
    game, session, _ = await _alice_her_game_session_and_token()
    socket = _socket(f"/ws/games/{game.pk}/", origin="http://localhost:8000", session=session, host="localhost:8000")
    assert (await _state(socket))["side"] == "X"
    await socket.disconnect()
    for origin in ("http://localhost:8001", "https://localhost:8000", "http://evil.localhost:8000"):
        socket = _socket(f"/ws/games/{game.pk}/", origin=origin, session=session, host="localhost:8000")
        await socket.connect(timeout=5)
        await socket.send_json_to({"action": "move", "cell": 4, "ply": 0})
        assert "origin" in await _closed_with(socket, 4403)
    assert await _moves(game) == []


async def test_an_api_client_signs_in_with_a_token_header_and_plays():
    """What a generated API client does: no Origin, no cookie, the token."""
    game, _, token = await _alice_her_game_session_and_token()
    socket = _socket(f"/ws/games/{game.pk}/", token=token)
    assert (await _state(socket))["side"] == "X"
    await socket.send_json_to({"action": "move", "cell": 4, "ply": 0})
    move = await socket.receive_json_from(timeout=5)
    assert (move["type"], move["ply"], move["cell"]) == ("move", 1, 4)
    assert await _moves(game) == [4]
    await socket.disconnect()


async def test_a_token_header_needs_no_origin_check():
    game, _, token = await _alice_her_game_session_and_token()
    socket = _socket(f"/ws/games/{game.pk}/", token=token, origin="https://elsewhere.example")
    assert (await _state(socket))["side"] == "X"
    await socket.disconnect()


@pytest.mark.parametrize("header", ["Token nope", "Bearer {token}", "Token", "Token {token} extra"])
async def test_a_wrong_token_header_is_accepted_then_closed_with_4401(header):
    game, session, token = await _alice_her_game_session_and_token()
    from tttsite.asgi import application

    socket = WebsocketCommunicator(
        application,
        f"/ws/games/{game.pk}/",
        headers=[(b"host", HOST.encode()), (b"authorization", header.format(token=token).encode())],
    )
    connected, _ = await socket.connect(timeout=5)
    assert connected
    assert await _closed_with(socket, 4401) == "invalid token"


async def test_a_browser_on_another_site_signs_in_with_a_first_message():
    game, _, token = await _alice_her_game_session_and_token()
    socket = _socket(f"/ws/games/{game.pk}/", origin="https://elsewhere.example")
    connected, _ = await socket.connect(timeout=5)
    assert connected
    await socket.send_json_to({"action": "auth", "token": token})
    state = await socket.receive_json_from(timeout=5)
    assert (state["type"], state["side"]) == ("state", "X")
    await socket.send_json_to({"action": "move", "cell": 4, "ply": 0})
    assert (await socket.receive_json_from(timeout=5))["cell"] == 4
    await socket.disconnect()


@pytest.mark.parametrize(
    "first, code",
    [
        ({"action": "auth", "token": "nope"}, 4401),
        ({"action": "auth", "token": ["a"]}, 4401),
        ({"action": "move", "cell": 4, "ply": 0}, 4401),
    ],
)
async def test_a_program_without_a_token_is_closed_with_4401(first, code):
    game, _, _ = await _alice_her_game_session_and_token()
    socket = _socket(f"/ws/games/{game.pk}/")
    connected, _ = await socket.connect(timeout=5)
    assert connected
    await socket.send_json_to(first)
    await _closed_with(socket, code)
    assert await _moves(game) == []


async def test_a_socket_that_never_signs_in_is_closed(monkeypatch):
    from games.serving import sockets

    monkeypatch.setattr(sockets, "AUTH_WAIT_SECONDS", 0.2)
    game, _, _ = await _alice_her_game_session_and_token()
    socket = _socket(f"/ws/games/{game.pk}/")
    await socket.connect(timeout=5)
    await _closed_with(socket, 4401)


async def test_the_lobby_takes_a_token_too():
    _, _, token = await _alice_her_game_session_and_token()
    socket = _socket("/ws/lobby/", token=token)
    connected, _ = await socket.connect(timeout=5)
    assert connected
    assert (await socket.receive_json_from(timeout=5))["type"] == "ready"
    await socket.disconnect()
