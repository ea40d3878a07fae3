"""The Redis channel layer, with one socket's closing kept from costing
another socket its message.

channels_redis's layer (``channels_redis.core.RedisChannelLayer``) gives each
server process one queue in Redis for all its sockets. Whichever socket's
``receive()`` holds the process's receive lock pops the next message with
BZPOPMIN and hands it to the socket it is for. When a socket closes, Channels
cancels its ``receive()``; if that one held the lock, the cancellation lands in
the middle of its BZPOPMIN:

- a message Redis had already popped and sent back is dropped with the
  connection (redis-py closes a connection whose read is interrupted), so
  another socket never hears a move that is stored (channels_redis keeps a
  copy only once the reply is read; django/channels#1683 and
  django/channels_redis#366 describe the same loss);
- or redis-py swallows the cancellation, and the closed socket's
  ``receive()`` goes on for ever: its connection never finishes closing.

Both happened under ``scripts/load``, where one uvicorn process holds every
socket and sockets close many times a second: a player's move was stored, and
the move never came back over its socket.

Here the popping runs in a task of its own that a cancellation does not reach:
the cancelled ``receive()`` ends at once, as Channels expects, and its pop
carries on. Whichever socket takes the receive lock next takes that pop over
rather than starting one of its own, and hands its message on as any pop's
(to itself, or to the socket it is for). Messages are still handed on only
by the lock's holder, as channels_redis expects: a socket that holds the lock
never misses one put in its own buffer meanwhile.

And a group's message costs two round trips to Redis, not four: every move
is one (games/play/live.py), sent by the pages' and the API's processes as
by the sockets'; joining a group (every socket opened on a game) one, not two;
and a message off the process's queue one, not four.
"""

from __future__ import annotations

import asyncio
import logging
import time

import redis
from channels_redis.core import RedisChannelLayer as ChannelsRedisLayer

logger = logging.getLogger(__name__)

#: The group's members, those that have not lapsed: KEYS[1] the group,
#: ARGV[1] the oldest score kept.
GROUP_MEMBERS_LUA = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1])
return redis.call('ZRANGE', KEYS[1], 0, -1)
"""

#: channels_redis's script for a group's message, which first drops the
#: messages that lapsed in each queue (channels_redis does that in a round
#: trip of its own). KEYS: the queues; ARGV: a message for each, the capacity
#: of each, then the time, the queues' expiry and the oldest score kept.
GROUP_SEND_LUA = """
local over_capacity = 0
local current_time = ARGV[#ARGV - 2]
local expiry = ARGV[#ARGV - 1]
local lapsed = ARGV[#ARGV]
for i=1,#KEYS do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, lapsed)
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[i + #KEYS]) then
        redis.call('ZADD', KEYS[i], current_time, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        over_capacity = over_capacity + 1
    end
end
return over_capacity
"""


def _retrieve(pop: asyncio.Future) -> None:
    """A pop's exception counts as seen (the one that takes it over raises it)."""
    if not pop.cancelled():
        pop.exception()


class RedisChannelLayer(ChannelsRedisLayer):
    """channels_redis's layer whose pops of the process's queue are never
    interrupted, and which goes to Redis fewer times for the same work."""

    async def _brpop_with_clean(self, index, channel, timeout):
        """A message off this process's own queue in one round trip: BZPOPMIN.

        channels_redis also keeps a copy of each message it pops, in a queue
        beside it: a script puts the copies back before each pop, each pop is
        copied, and the copy is dropped once handed on (three round trips
        more a message). The copy guards a pop whose receive() is cancelled
        half way, which cannot happen here (receive_single), and no other
        process ever reads this queue, whose name is this process's own. A
        shared channel (no "!") keeps channels_redis's copies."""
        if not channel.endswith("!"):
            return await super()._brpop_with_clean(index, channel, timeout)
        popped = await self.connection(index).bzpopmin(channel, timeout=timeout)
        return popped[1] if popped is not None else None

    async def _clean_receive_backup(self, index, channel):
        """Nothing to drop for this process's own queue (see _brpop_with_clean)."""
        if not channel.endswith("!"):
            await super()._clean_receive_backup(index, channel)

    async def group_add(self, group, channel):
        """channels_redis's group_add (the member added, the group's expiry
        renewed), both commands in one round trip."""
        assert self.require_valid_group_name(group), "Group name not valid"
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        key = self._group_key(group)
        async with self.connection(self.consistent_hash(group)).pipeline(transaction=False) as pipe:
            pipe.zadd(key, {channel: time.time()})
            pipe.expire(key, self.group_expiry)
            await pipe.execute()

    #: A pop whose ``receive()`` was cancelled, for the lock's next holder.
    _unclaimed_pop: asyncio.Future | None = None

    async def receive_single(self, channel):
        if "!" not in channel:  # a shared channel: no process queue, no receive lock
            return await super().receive_single(channel)
        # receive() calls this holding the receive lock: one pop at a time, the
        # one a cancelled receive() left if there is one.
        popping, self._unclaimed_pop = self._unclaimed_pop, None
        if popping is None:
            popping = asyncio.ensure_future(super().receive_single(channel))
        try:
            return await asyncio.shield(popping)
        except asyncio.CancelledError:
            # Left before receive() lets go of the lock, so its next holder finds it.
            self._unclaimed_pop = popping
            popping.add_done_callback(_retrieve)
            raise

    def _members_script_call(self, group: str, now: float) -> tuple[int, list[str], list]:
        """The host index, keys and arguments of GROUP_MEMBERS_LUA for ``group``."""
        assert self.require_valid_group_name(group), "Group name not valid"
        return self.consistent_hash(group), [self._group_key(group)], [int(now) - self.group_expiry]

    def _send_script_calls(self, names, message: dict, now: float, skip) -> list[tuple[int, list[str], list]]:
        """GROUP_SEND_LUA's calls (host index, keys, arguments) that put
        ``message`` in the queues of the members ``names`` (Redis's reply)
        but ``skip``: none when there is nobody else."""
        channel_names = [name for name in (member.decode("utf8") for member in names) if name != skip]
        if not channel_names:
            return []
        by_connection, messages, capacities = self._map_channel_keys_to_connection(channel_names, message)
        return [
            (
                index,
                keys,
                [
                    *(messages[key] for key in keys),
                    *(capacities[key] for key in keys),
                    now,
                    self.expiry,
                    int(now) - int(self.expiry),
                ],
            )
            for index, keys in by_connection.items()
        ]

    def _over_capacity(self, over: int, group: str, queues: int) -> None:
        if over > 0:
            logger.info("%s of %s channels over capacity in group %s", over, queues, group)

    async def group_send(self, group, message, skip=None):
        """channels_redis's group_send, each step a script: the group's
        members read (after the lapsed ones are dropped) in one round trip,
        then the message put in their queues (after the lapsed messages are
        dropped) in one more for each Redis the queues are on; none when the
        group is empty. channels_redis takes four: it drops and reads, and
        drops and puts, one command at a time.

        ``skip``: a member not to send it to (the socket that played a move,
        which hears it another way: games/play/live.py, heard_here)."""
        now = time.time()
        index, keys, args = self._members_script_call(group, now)
        names = await self.connection(index).register_script(GROUP_MEMBERS_LUA)(keys=keys, args=args)
        for index, keys, args in self._send_script_calls(names, message, now, skip):
            over = await self.connection(index).register_script(GROUP_SEND_LUA)(keys=keys, args=args)
            self._over_capacity(over, group, len(keys))

    def group_send_blocking(self, group: str, message: dict, skip=None) -> None:
        """``group_send`` for a thread with no event loop: the same scripts, in
        as many round trips, through redis-py's blocking client. Every process
        publishes moves so, from its publisher thread (games/play/live.py):
        driving the asyncio client from an event loop of that thread's own was
        11% of an API move's CPU, and from a socket server's own event loop,
        8% of a socket move's."""
        now = time.time()
        index, keys, args = self._members_script_call(group, now)
        names = self._blocking_scripts(index)[0](keys=keys, args=args)
        for index, keys, args in self._send_script_calls(names, message, now, skip):
            self._over_capacity(self._blocking_scripts(index)[1](keys=keys, args=args), group, len(keys))

    #: Host index -> (members script, send script, client): the blocking clients, made on first use.
    _blocking: dict | None = None

    def _blocking_scripts(self, index: int):
        """The two scripts on a blocking client of host ``index``."""
        if self._blocking is None:
            self._blocking = {}
        scripts = self._blocking
        if index not in scripts:
            host = dict(self.hosts[index])
            if "address" not in host:
                raise ValueError("a blocking client needs a host given by its address (no Sentinel)")
            client = redis.Redis.from_url(host.pop("address"), **host)
            scripts[index] = (client.register_script(GROUP_MEMBERS_LUA), client.register_script(GROUP_SEND_LUA), client)
        return scripts[index]

    def close_blocking(self) -> None:
        """Close the blocking clients' connections."""
        blocking, self._blocking = self._blocking or {}, None
        for *_, client in blocking.values():
            client.close()
