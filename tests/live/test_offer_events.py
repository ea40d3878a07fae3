"""Draw offers and takebacks reach the other player's socket as they happen,
each event with the game's ply (a takeback's lower than before), so their
page fetches the panel that shows the offer or the position."""

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from games.lobby import services as lobby_services
from games.play import offers, services
from games.play.players import Player
from games.routing import websocket_urlpatterns
from tests.live.players import game_between, signed_in

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

application = URLRouter(websocket_urlpatterns)


@database_sync_to_async
def _alice_and_bob_agreeing_to_takebacks():
    users = get_user_model().objects
    alice, bob = users.create_user("alice", password="x"), users.create_user("bob", password="x")
    challenge = lobby_services.challenge_create(challenger=alice, side="X", takebacks_allowed=True)
    return alice, bob, lobby_services.challenge_accept(user=bob, challenge_id=challenge.pk)


@database_sync_to_async
def _do(action, game, user, **kwargs):
    action(game_id=game.pk, player=Player(user=user), **kwargs)


async def _listening(user, game):
    communicator = WebsocketCommunicator(application, f"/ws/games/{game.pk}/")
    communicator.scope.update(await signed_in(user))
    connected, _ = await communicator.connect()
    assert connected
    assert (await communicator.receive_json_from())["type"] == "state"
    return communicator


async def test_each_offer_and_answer_reaches_the_other_player():
    alice, bob, game = await _alice_and_bob_agreeing_to_takebacks()
    b = await _listening(bob, game)
    await _do(services.game_play_move, game, alice, cell=4, ply=0)
    assert (await b.receive_json_from())["type"] == "move"

    await _do(offers.game_request_takeback, game, alice)
    event = await b.receive_json_from()
    assert (event["type"], event["side"], event["ply"]) == ("takeback_requested", "X", 1)
    await _do(offers.game_answer_takeback, game, bob, accept=True)
    event = await b.receive_json_from()
    assert (event["type"], event["ply"], event["moves"]) == ("taken_back", 0, 1)

    await _do(offers.game_offer_draw, game, alice)
    event = await b.receive_json_from()
    assert (event["type"], event["side"], event["ply"]) == ("draw_offered", "X", 0)
    await _do(offers.game_answer_draw, game, bob, accept=False)
    assert (await b.receive_json_from())["type"] == "draw_declined"
    # A draw agreed before both sides have moved would abort the game instead.
    for player, cell, ply in ((alice, 4, 0), (bob, 0, 1)):
        await _do(services.game_play_move, game, player, cell=cell, ply=ply)
        assert (await b.receive_json_from())["type"] == "move"
    await _do(offers.game_offer_draw, game, bob)
    assert (await b.receive_json_from())["type"] == "draw_offered"
    await _do(offers.game_answer_draw, game, alice, accept=True)
    event = await b.receive_json_from()
    assert (event["type"], event["status"]) == ("draw_agreed", "finished")
    await b.disconnect()


async def test_offering_twice_is_announced_once():
    users = get_user_model().objects
    alice = await database_sync_to_async(users.create_user)("alice", password="x")
    bob = await database_sync_to_async(users.create_user)("bob", password="x")
    game = await database_sync_to_async(game_between)(alice, bob)
    b = await _listening(bob, game)
    await _do(offers.game_offer_draw, game, alice)
    await _do(offers.game_offer_draw, game, alice)
    assert (await b.receive_json_from())["type"] == "draw_offered"
    assert await b.receive_nothing(timeout=0.2)
    await b.disconnect()
