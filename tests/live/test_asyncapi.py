"""The sockets' protocol as an AsyncAPI document, served beside the OpenAPI
schema; every message a test socket hears is checked against it
(tests/live/conftest.py), and a game played through most events here."""

from __future__ import annotations

import pytest
import yaml
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.test import Client

from games.lobby import services as lobby_services
from games.play import chat_services, offers, services
from games.play.players import Player
from games.routing import websocket_urlpatterns
from tests.live.asyncapi import DOCUMENT_PATH, check_received, document, messages, validator
from tests.live.players import alice_and_bob_in_a_game, signed_in

application = URLRouter(websocket_urlpatterns)


@pytest.mark.django_db
def test_the_document_is_served_beside_the_openapi_schema():
    response = Client().get("/api/asyncapi.yaml")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/yaml")
    assert response.content == DOCUMENT_PATH.read_bytes()
    served = yaml.safe_load(response.content)
    assert served["asyncapi"] == "2.6.0"
    assert set(served["channels"]) == {"/ws/games/{gameId}/", "/ws/lobby/", "/ws/notifications/"}


def test_the_api_guide_links_it():
    from pathlib import Path

    assert "/api/asyncapi.yaml" in (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()


@pytest.mark.parametrize(
    "channel, operation, name",
    [
        (channel, operation, name)
        for channel in ("/ws/games/{gameId}/", "/ws/lobby/")
        for operation in ("subscribe", "publish")
        for name in messages(channel, operation)
    ],
)
def test_every_example_matches_its_own_schema(channel, operation, name):
    message = messages(channel, operation)[name]
    assert message.get("examples"), f"{name} has no example"
    for example in message["examples"]:
        assert not list(validator(message).iter_errors(example["payload"]))
        key = "type" if operation == "subscribe" else "action"
        assert example["payload"][key] == name


def test_a_message_off_the_document_is_caught():
    with pytest.raises(AssertionError, match="not in"):
        check_received("/ws/games/1/", {"type": "surprise", "ply": 0})
    with pytest.raises(AssertionError, match="does not match"):
        check_received("/ws/games/1/", {"type": "watchers", "watchers": -1, "ply": 0})
    with pytest.raises(AssertionError, match="does not match"):
        check_received("/ws/lobby/", {"type": "ready", "event": "ready"})


def test_the_moves_a_client_sends_are_the_ones_the_server_takes():
    play = messages("/ws/games/{gameId}/", "publish")["move"]
    assert not list(validator(play).iter_errors({"action": "move", "cell": 4, "ply": 0}))
    for wrong in ({"action": "move", "cell": "4", "ply": 0}, {"action": "move", "cell": 4, "ply": -1}):
        assert list(validator(play).iter_errors(wrong))


@database_sync_to_async
def _a_game_and_carol():
    from django.contrib.auth import get_user_model

    alice, bob, game = alice_and_bob_in_a_game()
    return alice, bob, get_user_model().objects.create_user("carol", password="x"), game


async def _socket(user, path):
    communicator = WebsocketCommunicator(application, path)
    communicator.scope.update(await signed_in(user))
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def _heard(communicator) -> list[dict]:
    heard = []
    while not await communicator.receive_nothing(timeout=0.3):
        heard.append(await communicator.receive_json_from())  # checked against the document
    return heard


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_game_played_through_its_events_says_only_what_the_document_says():
    alice, bob, carol, game = await _a_game_and_carol()
    a = await _socket(alice, f"/ws/games/{game.pk}/")
    c = await _socket(carol, f"/ws/games/{game.pk}/")
    lobby = await _socket(alice, "/ws/lobby/")
    x, o = Player(user=alice), Player(user=bob)

    def play_through():
        services.game_play_move(game_id=game.pk, player=x, cell=4, ply=0)
        chat_services.chat_send(game_id=game.pk, player=o, text="good luck")
        offers.game_offer_draw(game_id=game.pk, player=x)
        offers.game_answer_draw(game_id=game.pk, player=o, accept=False)
        services.game_play_move(game_id=game.pk, player=o, cell=0, ply=1)
        services.game_resign(game_id=game.pk, player=o)
        lobby_services.game_offer_rematch(game_id=game.pk, player=x)
        open_challenge = lobby_services.challenge_create(challenger=alice, kind="open")
        lobby_services.challenge_accept(user=carol, challenge_id=open_challenge.pk)
        sent = lobby_services.challenge_create(challenger=alice, kind="direct", opponent_username="carol")
        lobby_services.challenge_decline(user=carol, challenge_id=sent.pk)

    await a.send_json_to({"action": "move", "cell": 99, "ply": 0})
    await database_sync_to_async(play_through)()
    heard = {
        message["type"]
        for communicator, path in ((a, "game"), (c, "game"), (lobby, "lobby"))
        for message in await _heard(communicator)
    }
    assert {
        "state",
        "watchers",
        "refused",
        "move",
        "chat",
        "draw_offered",
        "draw_declined",
        "resigned",
        "rematch_offered",
        "ready",
        "challenge_created",
        "challenge_accepted",
        "game_started",
        "game_ended",
        "challenge_declined",
    } <= heard
    for communicator in (a, c, lobby):
        await communicator.disconnect()


def test_the_document_lists_every_close_code():
    description = document()["info"]["description"]
    from games.serving import sockets

    for code in (
        sockets.CLOSE_NOT_SIGNED_IN,
        sockets.CLOSE_FORBIDDEN_ORIGIN,
        sockets.CLOSE_NO_SUCH_GAME,
        sockets.CLOSE_SERVICE_UNAVAILABLE,
    ):
        assert f"- {code}:" in description
