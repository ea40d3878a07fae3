"""Publishing in the in-memory layer (one process): a group nobody is in is
not sent to at all; one with a member hears every message."""

from __future__ import annotations

from unittest import mock

import pytest
from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from games.play import live


@pytest.fixture
def layer():
    layer = get_channel_layer()
    if not isinstance(layer, InMemoryChannelLayer):
        pytest.skip("the in-memory layer's own behaviour (REDIS_URL is set)")
    async_to_sync(layer.flush)()
    yield layer
    async_to_sync(layer.flush)()


def test_a_group_nobody_is_in_costs_no_trip_to_an_event_loop(layer):
    with mock.patch.object(live, "async_to_sync") as hop:
        live._send(live.game_group(41), {"type": "game.event", "event": "move", "game": 41, "ply": 1})
    assert not hop.called


def test_a_member_of_the_group_hears_the_message(layer):
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(live.game_group(42), channel)
    message = {"type": "game.event", "event": "move", "game": 42, "ply": 1}
    live._send(live.game_group(42), message)
    assert async_to_sync(layer.receive)(channel) == message
    # Once it has left, nobody is sent to again.
    async_to_sync(layer.group_discard)(live.game_group(42), channel)
    with mock.patch.object(live, "async_to_sync") as hop:
        live._send(live.game_group(42), message)
    assert not hop.called
