"""ws/notifications/: the header's bell hears each notification as it is made
and the count as they are read; the lobby's socket carries them too (bots).
Opening and closing it is the player being on the site (the turn mails)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from games.lobby import services as lobby_services
from games.notifications import services
from games.notifications.models import NotificationSettings
from games.routing import websocket_urlpatterns
from tests.live.players import signed_in

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

application = URLRouter(websocket_urlpatterns)


@database_sync_to_async
def _people():
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    return users.create_user("alice", password="x"), users.create_user("bob", password="x")


async def _open(user, path="/ws/notifications/"):
    communicator = WebsocketCommunicator(application, path)
    communicator.scope.update(await signed_in(user))
    connected, _ = await communicator.connect()
    assert connected
    assert (await communicator.receive_json_from())["type"] == "ready"
    return communicator


@database_sync_to_async
def _last_seen(user):
    return NotificationSettings.objects.get(user=user).last_seen_at


async def test_a_challenge_rings_the_bell_and_reading_it_brings_the_count_down():
    alice, bob = await _people()
    bell = await _open(bob)
    lobby = await _open(bob, "/ws/lobby/")
    await database_sync_to_async(lobby_services.challenge_create)(
        challenger=alice, kind="direct", opponent_username="bob"
    )
    heard = [await bell.receive_json_from(), await bell.receive_json_from()]
    assert [m["type"] for m in heard] == ["challenge_received", "notification"]
    told = heard[1]
    assert told["unread"] == 1 and told["notification"]["text"] == "alice challenges you (3×3, no limit, rated)"
    # The lobby's socket (a bot's) hears the same notification.
    lobby_heard = [await lobby.receive_json_from(), await lobby.receive_json_from()]
    assert lobby_heard[1]["type"] == "notification"
    await database_sync_to_async(services.notifications_read)(user=bob)
    assert await bell.receive_json_from() == {"type": "notifications_read", "unread": 0}
    await bell.disconnect()
    await lobby.disconnect()


async def test_opening_and_closing_the_socket_is_being_on_the_site():
    _, bob = await _people()
    before = timezone.now()
    bell = await _open(bob)
    opened = await _last_seen(bob)
    assert opened >= before
    await database_sync_to_async(NotificationSettings.objects.filter(user=bob).update)(
        last_seen_at=timezone.now() - timedelta(hours=1)
    )
    await bell.disconnect()
    assert await _last_seen(bob) >= before


async def test_a_visitor_who_is_not_signed_in_is_closed_with_4401():
    communicator = WebsocketCommunicator(application, "/ws/notifications/")
    communicator.scope["user"] = AnonymousUser()
    connected, _ = await communicator.connect()
    assert connected
    closing = await communicator.receive_output()
    assert closing["type"] == "websocket.close" and closing["code"] == 4401
