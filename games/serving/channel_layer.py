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
"""

from __future__ import annotations

import asyncio

from channels_redis.core import RedisChannelLayer as ChannelsRedisLayer


def _retrieve(pop: asyncio.Future) -> None:
    """A pop's exception counts as seen (the one that takes it over raises it)."""
    if not pop.cancelled():
        pop.exception()


class RedisChannelLayer(ChannelsRedisLayer):
    """channels_redis's layer whose pops of the process's queue are never interrupted."""

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
