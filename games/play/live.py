"""Telling connected browsers that something changed.

Services call these after their transaction commits. A message carries only
what happened and the game's ply: a page that hears it fetches the game from
the server, so a client that missed a message, or reconnects, catches up by
asking, never by trusting a stream. When the channel layer is down (Redis
stopped), the write has already succeeded: the failure is logged and pages
fall back on reloading.

On Redis the request does not wait for the message to be sent: it hands it
to the process's publisher, one thread with Redis connections of its own
that sends the messages in the order they were handed over, with Redis's
blocking client (games/serving/channel_layer.py). Without it each message
cost the request an event-loop hop (under ASGI) or a new event loop and a
new Redis connection (in a thread without a loop). The publisher sends what
it holds before the process exits normally. A move played over a socket
reaches that socket at once, from its own server (heard_here), and the
others through the publisher. The in-memory layer (one process, development and tests) keeps its
queues on the server's own event loop, so there the message is sent as before,
when the group has a member at all.
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import threading
from collections.abc import Callable
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from asgiref.sync import async_to_sync
from channels import DEFAULT_CHANNEL_LAYER
from channels.layers import InMemoryChannelLayer, channel_layers, get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

#: Seconds a process that exits normally waits for its messages to be sent.
FLUSH_AT_EXIT_SECONDS = 5.0


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def lobby_group() -> str:
    return "lobby"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


class _Publisher:
    """One thread that sends a layer's messages, in the order they were handed
    over, each with Redis's blocking client (no event loop: driving the
    asyncio client from one of its own was 11% of an API move's CPU)."""

    def __init__(self, layer):
        self.layer = layer  # the process's layer, to know when settings changed it
        # A layer of its own, made from the same settings, whose blocking
        # clients only this thread uses.
        self.sender = channel_layers.make_backend(DEFAULT_CHANNEL_LAYER)
        self.pid = os.getpid()
        self.messages: queue.SimpleQueue = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="live-publisher", daemon=True)
        self.thread.start()

    def put(self, group: str, message: dict, skip: str | None = None) -> None:
        """Send ``message`` to ``group``'s members (but ``skip``), after what was put before."""
        self.messages.put((group, message, skip))

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every message handed over so far has been sent (or failed)."""
        if not self.thread.is_alive():
            return False
        done = threading.Event()
        self.messages.put(done)
        return done.wait(timeout)

    def stop(self, timeout: float | None = None) -> None:
        """Send what is waiting, then end the thread."""
        self.messages.put(None)
        self.thread.join(timeout)

    def _run(self) -> None:
        try:
            while True:
                item = self.messages.get()
                if item is None:
                    return
                if isinstance(item, threading.Event):
                    item.set()  # every message handed over before it is sent
                    continue
                group, message, skip = item
                try:
                    self.sender.group_send_blocking(group, message, skip)
                except Exception:  # a live update is a courtesy; the stored game is the truth
                    logger.warning("could not publish %s to %s", message.get("event"), group, exc_info=True)
        finally:
            self.sender.close_blocking()


_publisher: _Publisher | None = None
_publisher_lock = threading.Lock()


def _publisher_for(layer) -> _Publisher:
    """The process's publisher for ``layer``: a new one after a fork (threads
    do not survive it) or when the layer changed (tests change settings)."""
    global _publisher
    with _publisher_lock:
        current = _publisher
        if current is None or current.pid != os.getpid() or current.layer is not layer:
            if current is not None and current.pid == os.getpid():
                current.stop(FLUSH_AT_EXIT_SECONDS)
            current = _publisher = _Publisher(layer)
        return current


def flush(timeout: float | None = FLUSH_AT_EXIT_SECONDS) -> bool:
    """Wait until every message published so far by this process has been sent."""
    current = _publisher
    if current is None or current.pid != os.getpid():
        return True
    return current.flush(timeout)


atexit.register(flush)


def _sends_in_background(layer) -> bool:
    from games.serving.channel_layer import RedisChannelLayer

    return isinstance(layer, RedisChannelLayer)


def _nobody_listens(layer, group: str) -> bool:
    """In the in-memory layer, whether ``group`` has no member to send to.
    Sending anyway would cost a hop to the server's event loop, and in a
    thread without one (a WSGI server, a script) a new loop and thread per
    message, to reach nobody: a game no page watches (an API client's, say)."""
    return isinstance(layer, InMemoryChannelLayer) and not layer.groups.get(group)


@dataclass
class _Origin:
    group: str
    deliver: Callable[[dict], None]
    channel: str


_origin: ContextVar[_Origin | None] = ContextVar("live_origin", default=None)


@contextmanager
def heard_here(group: str, deliver: Callable[[dict], None], channel: str):
    """While a socket (its channel ``channel``) plays a move: each message for
    its own game's group is handed to ``deliver`` (called in this thread, as
    each commit publishes it), and the publisher sends it to the group's
    other members only: the socket hears it at once, with no trip out to
    Redis and back. With the Redis layer; the in-memory layer sends them as
    ever."""
    token = _origin.set(_Origin(group, deliver, channel))
    try:
        yield
    finally:
        _origin.reset(token)


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    if _sends_in_background(layer):
        origin, skip = _origin.get(), None
        if origin is not None and origin.group == group:
            origin.deliver(message)  # the socket that played the move hears it at once (heard_here)
            skip = origin.channel
        _publisher_for(layer).put(group, message, skip=skip)
        return
    if _nobody_listens(layer, group):
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # a live update is a courtesy; the stored game is the truth
        logger.warning("could not publish %s to %s", message.get("event"), group, exc_info=True)


def publish_game(game, event: str = "changed", **extra) -> None:
    """After commit: tell everyone watching ``game`` it changed (with its ply)."""
    message = {
        "type": "game.event",
        "event": event,
        "game": game.pk,
        "ply": game.move_count,
        "status": game.status,
        **extra,
    }
    transaction.on_commit(lambda: _send(game_group(game.pk), message))


def publish_lobby(event: str, **extra) -> None:
    """After commit: the list of open challenges or live games changed."""
    message = {"type": "lobby.event", "event": event, **extra}
    transaction.on_commit(lambda: _send(lobby_group(), message))


def publish_user(user_id: int, event: str, **extra) -> None:
    """After commit: something for one player (a challenge sent to them)."""
    message = {"type": "user.event", "event": event, **extra}
    transaction.on_commit(lambda: _send(user_group(user_id), message))
