"""games/serving/channel_layer.py: a socket that closes while its receive()
is popping the process's queue in Redis costs no other socket its message.

These tests need the Redis server the README names (127.0.0.1:6379, or
TEST_REDIS_URL); one that does not answer fails the run, it is not skipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time

import pytest

from games.serving.channel_layer import RedisChannelLayer

pytestmark = pytest.mark.asyncio

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def _layer() -> RedisChannelLayer:
    """A server process's layer, as settings.py configures it; a prefix of its own
    so that a concurrent run cannot hear these messages."""
    host = {"address": REDIS_URL, "socket_timeout": 10}
    return RedisChannelLayer(hosts=[host], capacity=1000, prefix=f"tttsite-layer-test-{os.getpid()}")


def _send_from_another_process(channel: str, message: dict) -> None:
    """Sent as another server process would (a thread with a loop and a layer of
    its own), while this loop is held up: nothing here reads Redis's answers meanwhile."""

    async def send():
        await _layer().send(channel, message)

    thread = threading.Thread(target=asyncio.run, args=(send(),))
    thread.start()
    thread.join()


@contextlib.contextmanager
def commands_sent(connection):
    """The Redis commands sent on ``connection`` meanwhile, one round trip each,
    and the options of each pipeline opened (one round trip for all its commands)."""
    sent: dict[str, list] = {"commands": [], "pipelines": []}
    execute, pipeline = connection.execute_command, connection.pipeline

    async def counted(*args, **options):
        sent["commands"].append(args[0])
        return await execute(*args, **options)

    def counted_pipeline(*args, **options):
        sent["pipelines"].append(options)
        return pipeline(*args, **options)

    connection.execute_command, connection.pipeline = counted, counted_pipeline
    try:
        yield sent
    finally:
        connection.execute_command, connection.pipeline = execute, pipeline


async def test_a_message_popped_while_another_socket_closes_still_reaches_its_socket():
    layer = _layer()
    closing, staying = await layer.new_channel(), await layer.new_channel()
    # The first socket's receive() takes the process's receive lock and waits in BZPOPMIN.
    closing_receive = asyncio.ensure_future(layer.receive(closing))
    await asyncio.sleep(0.3)
    staying_receive = asyncio.ensure_future(layer.receive(staying))
    await asyncio.sleep(0.1)

    move = {"type": "game.event", "event": "move", "ply": 1}
    _send_from_another_process(staying, move)
    # Redis pops the move for the waiting BZPOPMIN and answers; the answer waits
    # unread in this process when the first socket closes (Channels cancels its receive()).
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
    assert layer.receive_count == 0
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


async def test_a_group_without_members_is_sent_nothing_and_a_lapsed_member_nothing():
    layer = _layer()
    await layer.group_send("game-2", {"type": "game.event", "event": "move", "ply": 1})  # nobody: no error

    gone, staying = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("game-2", gone)
    await layer.group_add("game-2", staying)
    connection = layer.connection(0)
    # The member's entry as a socket that stopped renewing it a day ago would leave it.
    await connection.zadd(layer._group_key("game-2"), {gone: time.time() - 86400 - layer.group_expiry})

    await layer.group_send("game-2", {"type": "game.event", "event": "move", "ply": 1})

    assert (await asyncio.wait_for(layer.receive(staying), timeout=5))["ply"] == 1
    members = await connection.zrange(layer._group_key("game-2"), 0, -1)
    assert [member.decode() for member in members] == [staying]
    await layer.flush()


async def test_a_full_queue_drops_the_groups_new_message_and_keeps_the_others():
    host = {"address": REDIS_URL, "socket_timeout": 10}
    layer = RedisChannelLayer(hosts=[host], capacity=2, prefix=f"tttsite-layer-full-{os.getpid()}")
    channel = await layer.new_channel()
    await layer.group_add("game-3", channel)

    for ply in range(4):
        await layer.group_send("game-3", {"type": "game.event", "event": "move", "ply": ply})

    assert [(await asyncio.wait_for(layer.receive(channel), timeout=5))["ply"] for _ in range(2)] == [0, 1]
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(channel), timeout=0.5)
    await layer.flush()


async def test_a_groups_message_takes_two_round_trips_to_redis():
    layer = _layer()
    channel = await layer.new_channel()
    await layer.group_add("game-4", channel)
    # Redis learns the scripts the first time (SCRIPT LOAD); each call after sends only their digest.
    await layer.group_send("game-4", {"type": "game.event", "event": "move", "ply": 0})
    assert (await asyncio.wait_for(layer.receive(channel), timeout=5))["ply"] == 0
    with commands_sent(layer.connection(0)) as sent:
        await layer.group_send("game-4", {"type": "game.event", "event": "move", "ply": 1})

    assert sent == {"commands": ["EVALSHA", "EVALSHA"], "pipelines": []}
    assert (await asyncio.wait_for(layer.receive(channel), timeout=5))["ply"] == 1
    await layer.flush()


async def test_a_groups_message_skips_the_member_asked_and_reaches_the_others():
    layer = _layer()
    sender, other = await layer.new_channel(), await layer.new_channel()
    for channel in (sender, other):
        await layer.group_add("game-6", channel)
    await layer.group_send("game-6", {"type": "game.event", "ply": 1}, skip=sender)
    assert (await asyncio.wait_for(layer.receive(other), timeout=5))["ply"] == 1
    await layer.group_send("game-6", {"type": "game.event", "ply": 2})  # skipping nobody
    assert (await asyncio.wait_for(layer.receive(sender), timeout=5))["ply"] == 2  # not 1
    # With only the one skipped left in the group, only its members are read.
    await layer.group_discard("game-6", other)
    with commands_sent(layer.connection(0)) as sent:
        await layer.group_send("game-6", {"type": "game.event", "ply": 3}, skip=sender)
    assert sent == {"commands": ["EVALSHA"], "pipelines": []}
    await layer.flush()


async def test_joining_a_group_takes_one_round_trip_and_keeps_the_group_for_its_expiry():
    layer = _layer()
    channel = await layer.new_channel()
    connection = layer.connection(0)
    with commands_sent(connection) as sent:
        await layer.group_add("game-5", channel)

    assert sent == {"commands": [], "pipelines": [{"transaction": False}]}  # one pipeline: one round trip
    key = layer._group_key("game-5")
    assert [member.decode() for member in await connection.zrange(key, 0, -1)] == [channel]
    assert 0 < await connection.ttl(key) <= layer.group_expiry
    await layer.flush()


async def test_a_message_off_the_processs_queue_takes_one_round_trip():
    layer, sender = _layer(), _layer()
    channel = await layer.new_channel()
    await sender.send(channel, {"type": "game.event", "ply": 1})
    with commands_sent(layer.connection(layer.consistent_hash(layer.non_local_name(channel)))) as sent:
        assert (await asyncio.wait_for(layer.receive(channel), timeout=5))["ply"] == 1
        await asyncio.sleep(0.1)  # any clean-up channels_redis would make afterwards

    assert sent == {"commands": ["BZPOPMIN"], "pipelines": []}
    await layer.flush()
