"""Live play over WebSockets, with Channels' test communicator."""

import asyncio
import threading

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from games.lobby import services as lobby_services
from games.play import services
from games.play.models import Move
from games.play.players import Player
from games.routing import websocket_urlpatterns
from tests.live.players import alice_and_bob_in_a_game, game_between, signed_in

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

application = URLRouter(websocket_urlpatterns)


async def _connect(user, path):
    communicator = WebsocketCommunicator(application, path)
    communicator.scope.update(await signed_in(user) if user.is_authenticated else {"user": user})
    connected, code = await communicator.connect()
    return communicator, connected, code


@database_sync_to_async
def _players_and_game():
    from django.contrib.auth import get_user_model

    alice, bob, game = alice_and_bob_in_a_game()
    carol = get_user_model().objects.create_user("carol", password="x")
    return alice, bob, carol, game


@database_sync_to_async
def _user(username):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username, password="x")


@database_sync_to_async
def _move(game, user, cell, ply):
    services.game_play_move(game_id=game.pk, player=Player(user=user), cell=cell, ply=ply)


@database_sync_to_async
def _moves(game):
    return list(Move.objects.filter(game=game).order_by("ply").values_list("cell", flat=True))


async def _closed_with(communicator, code):
    """Accepted, then closed with ``code`` and a reason: a browser hears both
    (a refused handshake reaches it as a bare failure)."""
    closing = await communicator.receive_output()
    assert closing["type"] == "websocket.close" and closing["code"] == code
    assert closing["reason"]
    return closing["reason"]


async def test_anonymous_connections_are_accepted_then_closed_with_4401():
    alice, bob, carol, game = await _players_and_game()
    communicator, connected, _ = await _connect(AnonymousUser(), f"/ws/games/{game.pk}/")
    assert connected
    assert "sign in" in await _closed_with(communicator, 4401)
    # The socket joined the game's group to read the game; refused, it left it.
    assert not get_channel_layer().groups.get(f"game-{game.pk}")
    communicator, connected, _ = await _connect(AnonymousUser(), "/ws/lobby/")
    assert connected
    assert "sign in" in await _closed_with(communicator, 4401)


async def test_an_unknown_game_is_accepted_then_closed_with_4404():
    alice, *_ = await _players_and_game()
    communicator, connected, _ = await _connect(alice, "/ws/games/999999/")
    assert connected
    assert await _closed_with(communicator, 4404) == "no such game"


async def test_moves_reach_both_players_in_order_with_no_gaps():
    alice, bob, carol, game = await _players_and_game()
    a, connected, _ = await _connect(alice, f"/ws/games/{game.pk}/")
    assert connected
    b, connected, _ = await _connect(bob, f"/ws/games/{game.pk}/")
    assert connected
    assert (await a.receive_json_from())["type"] == "state"
    first = await b.receive_json_from()
    assert (first["type"], first["ply"], first["side"]) == ("state", 0, "O")
    players = [alice, bob]
    for ply, cell in enumerate([4, 0, 8, 2, 1]):
        await _move(game, players[ply % 2], cell, ply)
    for communicator in (a, b):
        events = [await communicator.receive_json_from() for _ in range(5)]
        assert [e["type"] for e in events] == ["move"] * 5
        assert [e["ply"] for e in events] == [1, 2, 3, 4, 5]
        assert [e["cell"] for e in events] == [4, 0, 8, 2, 1]
    await a.disconnect()
    await b.disconnect()


async def test_a_player_can_move_over_the_socket_and_everyone_hears_it():
    alice, bob, carol, game = await _players_and_game()
    a, _, _ = await _connect(alice, f"/ws/games/{game.pk}/")
    b, _, _ = await _connect(bob, f"/ws/games/{game.pk}/")
    await a.receive_json_from()
    await b.receive_json_from()
    await a.send_json_to({"action": "move", "cell": 4, "ply": 0})
    for communicator in (a, b):
        event = await communicator.receive_json_from()
        assert (event["type"], event["ply"], event["cell"]) == ("move", 1, 4)
    # A stale or out-of-turn move is refused with the current ply.
    await a.send_json_to({"action": "move", "cell": 0, "ply": 1})
    refusal = await a.receive_json_from()
    assert (refusal["type"], refusal["code"], refusal["ply"]) == ("refused", "not_your_turn", 1)
    assert await _moves(game) == [4]
    await a.disconnect()
    await b.disconnect()


async def test_outsiders_watch_but_cannot_send_moves():
    alice, bob, carol, game = await _players_and_game()
    a, _, _ = await _connect(alice, f"/ws/games/{game.pk}/")
    await a.receive_json_from()
    c, connected, _ = await _connect(carol, f"/ws/games/{game.pk}/")
    assert connected
    state = await c.receive_json_from()
    assert state["side"] is None and state["watchers"] == 1
    assert (await c.receive_json_from())["type"] == "watchers"  # the group's news reaches carol too
    # The players hear that someone is watching.
    watchers = await a.receive_json_from()
    assert (watchers["type"], watchers["watchers"], watchers["ply"]) == ("watchers", 1, 0)
    await c.send_json_to({"action": "move", "cell": 4, "ply": 0})
    refusal = await c.receive_json_from()
    assert (refusal["type"], refusal["code"]) == ("refused", "not_a_player")
    assert await _moves(game) == []
    # The spectator still sees the players' moves.
    await _move(game, alice, 4, 0)
    assert (await c.receive_json_from())["cell"] == 4
    assert (await a.receive_json_from())["cell"] == 4
    await c.disconnect()
    gone = await a.receive_json_from()
    assert (gone["type"], gone["watchers"]) == ("watchers", 0)
    await a.disconnect()


async def test_the_lobby_hears_new_challenges_and_the_challenged_player_is_told():
    alice, bob, carol, game = await _players_and_game()
    lobby, connected, _ = await _connect(carol, "/ws/lobby/")
    assert connected
    assert (await lobby.receive_json_from())["type"] == "ready"  # subscribed: the page counts it live
    challenge = await database_sync_to_async(lobby_services.challenge_create)(challenger=alice, kind="open")
    event = await lobby.receive_json_from()
    assert (event["type"], event["challenge"]["id"]) == ("challenge_created", challenge.pk)
    assert event["challenge"]["challenger"] == "alice" and event["challenge"]["kind"] == "open"
    direct = await database_sync_to_async(lobby_services.challenge_create)(
        challenger=alice, kind="direct", opponent_username="carol"
    )
    event = await lobby.receive_json_from()
    # The whole challenge: a bot answers it without asking for it first.
    assert (event["type"], event["challenge"]["id"]) == ("challenge_received", direct.pk)
    assert event["challenge"]["opponent"] == "carol" and event["challenge"]["time_control"] == "none"
    await lobby.disconnect()


@pytest.mark.parametrize(
    "frame, code",
    [
        ("not json", "malformed"),
        ("[4, 0]", "malformed"),
        ('"move"', "malformed"),
        ("null", "malformed"),
        ("[" * 5000 + "]" * 5000, "malformed"),
        ('{"action": "move", "cell": "4", "ply": []}', "invalid_ply"),
        ('{"action": "move", "cell": 99999999999999999999999, "ply": 0}', "invalid_cell"),
        ('{"action": "move\\u0000", "cell": 4}', "unknown_action"),
        ('{"action": "move", "cell": 4, "ply": Infinity}', "invalid_ply"),
        ('{"action": "move", "cell": 4, "ply": -Infinity}', "invalid_ply"),
        ('{"action": "move", "cell": 4, "ply": NaN}', "invalid_ply"),
        ('{"action": "move", "cell": 4, "ply": 1e400}', "invalid_ply"),
        ('{"action": "move", "cell": 4, "ply": 99999999999999999999999}', "invalid_ply"),
        ('{"action": "move", "cell": 4, "ply": -1}', "invalid_ply"),
        ('{"action": "move", "cell": 4, "ply": 0.5}', "invalid_ply"),
        ('{"action": "move", "cell": 4, "ply": "0"}', "invalid_ply"),
        ('{"action": "move", "cell": 4, "ply": true}', "invalid_ply"),
        ('{"action": "move", "cell": 4}', "invalid_ply"),
        ('{"action": "move", "cell": Infinity, "ply": 0}', "invalid_cell"),
        ('{"action": "move", "cell": NaN, "ply": 0}', "invalid_cell"),
        ('{"action": "move", "cell": 4.0, "ply": 0}', "invalid_cell"),
        ('{"action": "move", "cell": {"x": [[[{}]]]}, "ply": 0}', "invalid_cell"),
        ('{"action": "move", "cell": -1, "ply": 0}', "invalid_cell"),
        ('{"action": ["move"], "cell": 4, "ply": 0}', "unknown_action"),
        ('{"action": {"move": 1}}', "unknown_action"),
    ],
    ids=[
        "text",
        "array",
        "string",
        "null",
        "nested",
        "wrong-types",
        "huge-int",
        "nul",
        "ply-infinity",
        "ply-minus-infinity",
        "ply-nan",
        "ply-overflowing-float",
        "ply-huge-int",
        "ply-negative",
        "ply-fraction",
        "ply-string",
        "ply-bool",
        "ply-missing",
        "cell-infinity",
        "cell-nan",
        "cell-float",
        "cell-nested",
        "cell-negative",
        "action-array",
        "action-object",
    ],
)
async def test_a_hostile_frame_is_refused_and_the_socket_goes_on(frame, code):
    alice, bob, carol, game = await _players_and_game()
    a, connected, _ = await _connect(alice, f"/ws/games/{game.pk}/")
    assert connected
    assert (await a.receive_json_from())["type"] == "state"
    await a.send_to(text_data=frame)
    refusal = await a.receive_json_from()
    assert (refusal["type"], refusal["code"]) == ("refused", code)
    assert refusal["message"]  # a reason, for the page to show
    assert await _moves(game) == []
    await a.send_json_to({"action": "move", "cell": 4, "ply": 0})  # still listening
    assert (await a.receive_json_from())["cell"] == 4
    await a.disconnect()


async def test_a_move_held_up_in_one_game_does_not_hold_up_another_games_moves(monkeypatch):
    alice, bob, carol, game = await _players_and_game()

    @database_sync_to_async
    def carol_and_dave_in_a_game():
        from django.contrib.auth import get_user_model

        return game_between(carol, get_user_model().objects.create_user("dave", password="x"))

    other = await carol_and_dave_in_a_game()
    # Alice's move waits (a slow database, a row lock) until it is let go.
    let_go, held = threading.Event(), threading.Event()
    play = services.game_play_move

    def slow_in_alices_game(*, game_id, **kwargs):
        if game_id == game.pk:
            held.set()
            let_go.wait(timeout=10)
        return play(game_id=game_id, **kwargs)

    monkeypatch.setattr(services, "game_play_move", slow_in_alices_game)
    a, _, _ = await _connect(alice, f"/ws/games/{game.pk}/")
    c, _, _ = await _connect(carol, f"/ws/games/{other.pk}/")
    await a.receive_json_from()
    await c.receive_json_from()
    await a.send_json_to({"action": "move", "cell": 4, "ply": 0})
    assert await asyncio.to_thread(held.wait, 5)
    try:
        await c.send_json_to({"action": "move", "cell": 0, "ply": 0})
        event = await c.receive_json_from(timeout=5)
        assert (event["type"], event["ply"], event["cell"]) == ("move", 1, 0)
    finally:
        let_go.set()
    event = await a.receive_json_from(timeout=5)
    assert (event["type"], event["ply"], event["cell"]) == ("move", 1, 4)
    await a.disconnect()
    await c.disconnect()


async def _everything_heard(communicator) -> list[dict]:
    """What a socket hears until it has been quiet for half a second."""
    heard = [await communicator.receive_json_from(timeout=5)]
    while not await communicator.receive_nothing(timeout=0.5):
        heard.append(await communicator.receive_json_from())
    return heard


async def test_two_moves_sent_at_once_for_the_same_ply_store_one_and_refuse_the_other():
    alice, bob, carol, game = await _players_and_game()
    first, _, _ = await _connect(alice, f"/ws/games/{game.pk}/")
    second, _, _ = await _connect(alice, f"/ws/games/{game.pk}/")  # a second tab
    await first.receive_json_from()
    await second.receive_json_from()
    await asyncio.gather(
        first.send_json_to({"action": "move", "cell": 4, "ply": 0}),
        second.send_json_to({"action": "move", "cell": 0, "ply": 0}),
    )
    heard = [event for tab in (first, second) for event in await _everything_heard(tab)]
    moves = [event for event in heard if event["type"] == "move"]
    refusals = [event for event in heard if event["type"] == "refused"]
    stored = await _moves(game)
    assert len(stored) == 1
    assert [(event["ply"], event["cell"]) for event in moves] == [(1, stored[0])] * 2  # both tabs hear it
    assert [(event["code"], event["ply"]) for event in refusals] == [("stale_ply", 1)]  # the other is told
    await first.disconnect()
    await second.disconnect()


async def test_a_message_that_fails_on_the_server_is_answered_and_the_watcher_still_counted_out(monkeypatch):
    alice, bob, carol, game = await _players_and_game()

    def broken(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(services, "game_play_move", broken)
    a, _, _ = await _connect(alice, f"/ws/games/{game.pk}/")
    await a.receive_json_from()
    c, _, _ = await _connect(carol, f"/ws/games/{game.pk}/")
    await c.receive_json_from()  # state
    await c.receive_json_from()  # watchers: 1
    assert (await a.receive_json_from())["watchers"] == 1
    await c.send_json_to({"action": "move", "cell": 4, "ply": 0})
    refusal = await c.receive_json_from()
    assert (refusal["type"], refusal["code"]) == ("refused", "server_error") and refusal["message"]
    await c.disconnect()
    gone = await a.receive_json_from()
    assert (gone["type"], gone["watchers"]) == ("watchers", 0)
    await a.disconnect()


async def test_spectators_whose_disconnection_is_never_seen_stop_counting(monkeypatch):
    """A socket's presence lasts a few seconds unless it renews it: a server
    that stopped (its sockets never said goodbye) leaves no phantom watchers."""
    from games.play import consumers

    monkeypatch.setattr(consumers, "PRESENCE_SECONDS", 1, raising=False)
    monkeypatch.setattr(consumers, "HEARTBEAT_SECONDS", 0.2, raising=False)
    alice, bob, carol, game = await _players_and_game()
    a, _, _ = await _connect(alice, f"/ws/games/{game.pk}/")
    await a.receive_json_from()
    c, _, _ = await _connect(carol, f"/ws/games/{game.pk}/")
    assert (await c.receive_json_from())["watchers"] == 1
    assert (await a.receive_json_from())["watchers"] == 1
    c.future.cancel()  # carol's consumer stops without its disconnect handler running
    gone = await a.receive_json_from(timeout=4)  # alice's own socket notices, with nobody joining or leaving
    assert (gone["type"], gone["watchers"]) == ("watchers", 0)
    assert await a.receive_nothing(timeout=0.6)  # said once, not at every heartbeat
    # Carol's socket went on renewing for a while: alice, carol and everyone else's server stops.
    c, _, _ = await _connect(carol, f"/ws/games/{game.pk}/")
    assert (await c.receive_json_from())["watchers"] == 1
    a.future.cancel()
    c.future.cancel()
    await asyncio.sleep(1.5)
    # Started again: the count is the people watching now.
    d, _, _ = await _connect(bob, f"/ws/games/{game.pk}/")
    assert (await d.receive_json_from())["watchers"] == 0
    dave = await _user("dave")
    e, _, _ = await _connect(dave, f"/ws/games/{game.pk}/")
    assert (await e.receive_json_from())["watchers"] == 1
    await d.disconnect()
    await e.disconnect()


async def test_a_crowd_arriving_at_once_is_told_in_a_few_messages_ending_with_its_size():
    """Each arrival is not a message to everyone (a hundred spectators would be
    ten thousand, queued in front of the next move): the count goes out at
    once, then at most every WATCHERS_TOLD_EVERY, and the last one is right."""
    from games.play.consumers import WATCHERS_TOLD_EVERY

    alice, bob, carol, game = await _players_and_game()
    a, _, _ = await _connect(alice, f"/ws/games/{game.pk}/")
    await a.receive_json_from()
    crowd = [await _user(f"fan{n}") for n in range(12)]
    spectators = [
        communicator
        for communicator, _, _ in await asyncio.gather(*(_connect(fan, f"/ws/games/{game.pk}/") for fan in crowd))
    ]
    told = []
    while not told or told[-1]["watchers"] < len(crowd):
        told.append(await a.receive_json_from(timeout=3))
    assert {message["type"] for message in told} == {"watchers"}
    assert len(told) < len(crowd) / 2, [message["watchers"] for message in told]
    assert await a.receive_nothing(timeout=WATCHERS_TOLD_EVERY + 0.5)  # nothing more once it is told
    # The moves still reach everyone, and so does the crowd leaving.
    await _move(game, alice, 4, 0)
    assert (await a.receive_json_from())["cell"] == 4
    await asyncio.gather(*(spectator.disconnect() for spectator in spectators))
    while (left := await a.receive_json_from(timeout=3))["watchers"]:
        assert left["type"] == "watchers"
    assert left["ply"] == 1
    await a.disconnect()
