"""A socket ends with its credentials: a token revoked (one, or all), a
password changed, a sign-out, the account deactivated or deleted closes that
user's sockets at once with 4401, through the site's whole WebSocket stack
(tttsite.asgi); and each move sent re-checks the credential first, so a
socket that missed the news plays nothing."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.accounts import services
from games.accounts.models import ApiToken
from games.play.models import Move
from tests.live.players import alice_and_bob_in_a_game
from tests.live.test_socket_credentials import HOST, _socket, _state

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

#: Seconds a revocation may take to close a socket.
WITHIN = 1.0


@pytest.fixture(autouse=True)
def _hosts(settings):
    settings.ALLOWED_HOSTS = ["localhost", "testserver"]
    settings.CSRF_TRUSTED_ORIGINS = []


@database_sync_to_async
def _alice_signed_in_twice():
    """Alice's game, two browsers of hers signed in, and two API tokens."""
    alice, bob, game = alice_and_bob_in_a_game()
    browsers = []
    for _ in range(2):
        browser = Client()
        browser.force_login(alice)
        browsers.append(browser)
    return alice, game, browsers, [services.api_token_create(user=alice) for _ in range(2)]


def _session_socket(game, browser):
    return _socket(f"/ws/games/{game.pk}/", origin=f"http://{HOST}", session=browser.cookies["sessionid"].value)


async def _closed_with(socket, code) -> str:
    """The socket's close, past the game's own news (an account deleted
    resigns or aborts its games first); its reason."""
    while True:
        output = await socket.receive_output(timeout=WITHIN)
        if output["type"] == "websocket.close":
            assert output.get("code") == code, output
            return output["reason"]


async def _open(*sockets):
    for socket in sockets:
        await _state(socket)


async def _still_open(socket):
    """Open and answering: a frame that is no move is refused, not closed on."""
    await socket.send_json_to({"action": "hello"})
    assert (await socket.receive_json_from(timeout=5))["code"] == "unknown_action"


@database_sync_to_async
def _moves(game):
    return list(Move.objects.filter(game=game).values_list("cell", flat=True))


async def test_revoking_a_token_closes_its_sockets_and_no_other():
    alice, game, browsers, (first, second) = await _alice_signed_in_twice()
    by_first, by_second, by_page = (
        _socket(f"/ws/games/{game.pk}/", token=first),
        _socket(f"/ws/games/{game.pk}/", token=second),
        _session_socket(game, browsers[0]),
    )
    await _open(by_first, by_second, by_page)
    token = await database_sync_to_async(ApiToken.objects.order_by("pk").first)()

    await database_sync_to_async(services.api_token_revoke)(user=alice, token_id=token.pk)

    await _closed_with(by_first, 4401)
    await _still_open(by_second)
    await _still_open(by_page)
    for socket in (by_second, by_page):
        await socket.disconnect()


async def test_revoking_every_token_closes_every_token_socket():
    alice, game, _, tokens = await _alice_signed_in_twice()
    sockets = [_socket(f"/ws/games/{game.pk}/", token=token) for token in tokens] + [
        _socket("/ws/lobby/", token=tokens[0])
    ]
    for socket in sockets[:2]:
        await _state(socket)
    connected, _ = await sockets[2].connect(timeout=5)
    assert connected and (await sockets[2].receive_json_from(timeout=5))["type"] == "ready"

    await database_sync_to_async(services.api_tokens_revoke_all)(user=alice)

    for socket in sockets:
        await _closed_with(socket, 4401)


async def test_signing_out_closes_that_browsers_sockets_only():
    _, game, (signing_out, staying), _ = await _alice_signed_in_twice()
    leaving, kept = _session_socket(game, signing_out), _session_socket(game, staying)
    await _open(leaving, kept)

    await database_sync_to_async(signing_out.post)(reverse("logout"))

    assert "signed out" in await _closed_with(leaving, 4401)
    await _still_open(kept)
    await kept.disconnect()


@pytest.mark.parametrize("change", ["password", "deactivated", "deleted"])
async def test_a_new_password_a_deactivation_or_a_deletion_closes_every_socket(change):
    alice, game, browsers, tokens = await _alice_signed_in_twice()
    sockets = [_session_socket(game, browser) for browser in browsers] + [
        _socket(f"/ws/games/{game.pk}/", token=tokens[0])
    ]
    await _open(*sockets)

    def make_the_change():
        user = get_user_model().objects.get(pk=alice.pk)
        if change == "password":
            user.set_password("a-brand-new-long-passphrase-42")
            user.save()
        elif change == "deactivated":
            user.is_active = False
            user.save()
        else:
            services.account_delete(user=user)

    await database_sync_to_async(make_the_change)()

    for socket in sockets:
        await _closed_with(socket, 4401)


async def test_a_move_on_a_socket_whose_credential_ended_unheard_is_not_played():
    """The account deactivated by an update that tells no socket: the move
    finds out, the socket closes, and nothing is stored."""
    alice, game, _, tokens = await _alice_signed_in_twice()
    socket = _socket(f"/ws/games/{game.pk}/", token=tokens[0])
    await _state(socket)

    await database_sync_to_async(get_user_model().objects.filter(pk=alice.pk).update)(is_active=False)
    await socket.send_json_to({"action": "move", "cell": 4, "ply": 0})

    await _closed_with(socket, 4401)
    assert await _moves(game) == []
