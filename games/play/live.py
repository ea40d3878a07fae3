"""Telling connected browsers that something changed.

Services call these after their transaction commits. A game's message
carries what happened, the game's ply and, when the game changed, the game as
it now stands (:func:`game_state`: the board, the moves, whose turn, the
result, the clocks and the offers), so a program playing over the socket
never has to ask. A page that sees a ply it does not have fetches the game
from the server, so a client that missed a message, or reconnects, catches
up by asking, never by trusting a stream. When the channel layer is down (Redis
stopped), the write has already succeeded: the failure is logged and pages
fall back on reloading.

On Redis the request does not wait for the message to be sent: it hands it
to the process's publisher, one thread with an event loop of its own, where
the layer keeps its connection, that sends the messages in the order they
were handed over (a request's thread has no event loop, and
``async_to_sync`` would make one, and a connection, for every message). The
publisher sends what it holds before the process exits normally. The
in-memory layer (one process, development and tests) keeps its queues on the
server's own event loop, so there the message is sent from the request's
thread, when the group has a member at all.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import os
import threading

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import transaction

from games.serving.sockets import credentials_group

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
    """One thread, with an event loop of its own, that sends a layer's
    messages in the order they were handed over."""

    def __init__(self, layer):
        self.layer = layer
        self.pid = os.getpid()
        self.loop = asyncio.new_event_loop()
        self.messages: asyncio.Queue = asyncio.Queue()
        self.thread = threading.Thread(target=self._run, name="live-publisher", daemon=True)
        self.thread.start()

    def put(self, group: str, message: dict) -> None:
        """Send ``message`` to ``group``'s members, after what was put before."""
        self._hand_over((group, message))

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every message handed over so far has been sent (or failed)."""
        done = threading.Event()
        return self._hand_over(done) and done.wait(timeout)

    def stop(self, timeout: float | None = None) -> None:
        """Send what is waiting, then end the thread."""
        self._hand_over(None)
        self.thread.join(timeout)

    def _hand_over(self, item) -> bool:
        try:
            self.loop.call_soon_threadsafe(self.messages.put_nowait, item)
        except RuntimeError:  # the thread has ended and closed its loop
            return False
        return True

    def _run(self) -> None:
        try:
            self.loop.run_until_complete(self._send_all())
        finally:
            self.loop.close()  # and with it the layer's connections for this loop

    async def _send_all(self) -> None:
        while (item := await self.messages.get()) is not None:
            if isinstance(item, threading.Event):
                item.set()  # every message handed over before it is sent
                continue
            group, message = item
            try:
                await self.layer.group_send(group, message)
            except Exception:  # a live update is a courtesy; the stored game is the truth
                logger.warning("could not publish %s to %s", message.get("event"), group, exc_info=True)


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


def _nobody_listens(layer, group: str) -> bool:
    """In the in-memory layer, whether ``group`` has no member to send to.
    Sending anyway would cost a hop to the server's event loop, and in a
    thread without one (a WSGI server, a script) a new loop and thread per
    message, to reach nobody: a game no page watches (an API client's, say)."""
    return not layer.groups.get(group)


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    if not isinstance(layer, InMemoryChannelLayer):
        _publisher_for(layer).put(group, message)
        return
    if _nobody_listens(layer, group):
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # a live update is a courtesy; the stored game is the truth
        logger.warning("could not publish %s to %s", message.get("event"), group, exc_info=True)


def game_state(game, now=None) -> dict:
    """The game as a socket tells it, in the API's words: the position, every
    cell played, whose turn, the status and result, the clocks read at
    ``now`` and the offers standing."""
    board = game.board_at()
    clock = game.clock_state(now)
    line = board.winning_line
    return {
        "board": str(board),
        "moves": list(game.cells),
        "ply": game.move_count,
        "to_move": board.to_move if game.is_in_progress else None,
        "status": game.status,
        "result": game.result or None,
        "termination": game.termination or None,
        "winning_line": list(line) if line else None,
        "clock": None
        if clock is None
        else {
            "time_control": clock["time_control"].key,
            "x_ms": clock["x_ms"],
            "o_ms": clock["o_ms"],
            "running": clock["running"],
            "deadline": clock["deadline"].isoformat() if clock["deadline"] else None,
            "first_move": clock["first_move"],
        },
        "draw_offer": game.draw_offer or None,
        "takeback_offer": game.takeback_offer or None,
    }


def publish_game(game, event: str = "changed", *, changed: bool = True, **extra) -> None:
    """After commit: tell everyone watching ``game`` what happened (with its
    ply) and, when the game ``changed`` (not a chat line, say), the game as it
    now stands, read now, before the transaction ends."""
    message = {
        "type": "game.event",
        "event": event,
        "game": game.pk,
        "ply": game.move_count,
        "status": game.status,
        **extra,
    }
    if changed:
        message["state"] = game_state(game)
    transaction.on_commit(lambda: _send(game_group(game.pk), message))


def publish_lobby(event: str, **extra) -> None:
    """After commit: the list of open challenges or live games changed."""
    message = {"type": "lobby.event", "event": event, **extra}
    transaction.on_commit(lambda: _send(lobby_group(), message))


def publish_user(user_id: int, event: str, **extra) -> None:
    """After commit: something for one player (a challenge sent to them)."""
    message = {"type": "user.event", "event": event, **extra}
    transaction.on_commit(lambda: _send(user_group(user_id), message))


def publish_credentials_changed(user_id: int, signed_out: str = "") -> None:
    """After commit: a token of ``user_id`` revoked, a session signed out (its
    ``session_digest`` in ``signed_out``), the password or the account
    changed; each of their sockets checks its own credential again, and
    closes if it no longer holds."""
    message = {"type": "credentials.changed", "event": "credentials_changed", "signed_out": signed_out}
    transaction.on_commit(lambda: _send(credentials_group(user_id), message))
