"""The channel layer as the site runs it on Redis (tttsite/settings.py): a
socket that closes while others wait costs none of them its message, and a
game's message reaches every socket watching it, in any server process.

These tests need the Redis server the README names (127.0.0.1:6379, or
TEST_REDIS_URL); one that does not answer fails the run, it is not skipped.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time

import pytest
from django.utils.module_loading import import_string

from tttsite.settings import redis_channel_layer

pytestmark = pytest.mark.asyncio

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def _layer():
    """A server process's layer, as settings.py configures it; a prefix of its own
    so that a concurrent run cannot hear these messages."""
    layer = redis_channel_layer(REDIS_URL)
    return import_string(layer["BACKEND"])(**layer["CONFIG"], prefix=f"tttsite-layer-test-{os.getpid()}")


def _send_from_another_process(channel: str, message: dict) -> None:
    """Sent as another server process would (a thread with a loop and a layer of
    its own), while this loop is held up: nothing here reads Redis's answers meanwhile."""

    async def send():
        await _layer().send(channel, message)

    thread = threading.Thread(target=asyncio.run, args=(send(),))
    thread.start()
    thread.join()


async def test_a_message_sent_while_another_socket_closes_still_reaches_its_socket():
    layer = _layer()
    closing, staying = await layer.new_channel(), await layer.new_channel()
    # Both sockets wait for their next message.
    closing_receive = asyncio.ensure_future(layer.receive(closing))
    await asyncio.sleep(0.3)
    staying_receive = asyncio.ensure_future(layer.receive(staying))
    await asyncio.sleep(0.1)

    move = {"type": "game.event", "event": "move", "ply": 1}
    _send_from_another_process(staying, move)
    # The move is on its way to this process when the first socket closes
    # (Channels cancels its receive()).
    time.sleep(0.3)
    closing_receive.cancel()

    assert await asyncio.wait_for(staying_receive, timeout=8) == move
    with pytest.raises(asyncio.CancelledError):
        await closing_receive
    await layer.flush()


async def test_a_closed_sockets_receive_ends_however_busy_the_layer_is():
    """Sockets opening and closing while messages flow: every cancelled receive()
    ends, and every message reaches the socket it was sent to."""
    layer = _layer()
    staying = [await layer.new_channel() for _ in range(5)]
    heard: dict[str, list[int]] = {channel: [] for channel in staying}

    async def listen(channel):
        while True:
            heard[channel].append((await layer.receive(channel))["n"])

    async def open_and_close():
        for _ in range(15):
            receive = asyncio.ensure_future(layer.receive(await layer.new_channel()))
            await asyncio.sleep(0.05)
            receive.cancel()
            # Not wait_for: it would wait for ever on a receive() that ignores its cancellation.
            await asyncio.wait({receive}, timeout=8)
            assert receive.cancelled(), "a closed socket's receive() went on"

    listeners = [asyncio.ensure_future(listen(channel)) for channel in staying]
    sender = _layer()
    closers = [asyncio.ensure_future(open_and_close()) for _ in range(10)]
    sent = 0
    while not all(closer.done() for closer in closers):
        for channel in staying:
            sent += 1
            await sender.send(channel, {"type": "m", "n": sent})
        time.sleep(0.002)  # a busy server: answers wait in the socket a moment
        await asyncio.sleep(0.005)
    await asyncio.gather(*closers)
    deadline = time.monotonic() + 8
    while sum(len(numbers) for numbers in heard.values()) < sent and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    for listener in listeners:
        listener.cancel()
    await asyncio.gather(*listeners, return_exceptions=True)
    assert sorted(n for numbers in heard.values() for n in numbers) == list(range(1, sent + 1))
    await layer.flush()


# -- a group's message ---------------------------------------------------------------


async def test_a_groups_message_reaches_every_member_in_this_process_and_another():
    here, elsewhere = _layer(), _layer()  # two server processes' layers
    spectators = [await here.new_channel() for _ in range(3)]
    player = await elsewhere.new_channel()
    for channel in spectators:
        await here.group_add("game-1", channel)
    await elsewhere.group_add("game-1", player)

    move = {"type": "game.event", "event": "move", "ply": 3}
    await _layer().group_send("game-1", move)

    for layer, channel in [*((here, channel) for channel in spectators), (elsewhere, player)]:
        assert await asyncio.wait_for(layer.receive(channel), timeout=5) == move
    await here.flush()
