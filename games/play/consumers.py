"""WebSocket consumers: thin, like views. They check who is connecting, pass
moves to the services and forward the events the services publish.

Every message to a browser carries the game's ply; a page that sees a ply it
does not have asks the server for the game, so nothing is lost to a dropped
message or a reconnection.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async
from django.conf import settings
from django.core.cache import cache

from games.errors import GameError
from games.play import live, selectors, services
from games.play.models import Game
from games.play.players import GUEST_SESSION_KEY, Player
from games.serving.sockets import CLOSE_NO_SUCH_GAME, CLOSE_NOT_SIGNED_IN, LiveConsumer

logger = logging.getLogger(__name__)

__all__ = ["CLOSE_NOT_SIGNED_IN", "CLOSE_NO_SUCH_GAME", "GameConsumer"]


class _SocketThreads:
    """The threads of this process that do its sockets' database work: a few
    (settings.SOCKET_THREADS), not the event loop's default pool of six. Each
    more thread was one more for the event loop to share Python's interpreter
    lock with, and every socket of the process waited for the loop.

    Made on first use in each process: threads do not survive a fork, and a
    pool copied into a forked server's child would hold only dead ones."""

    def __init__(self):
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        self._pid = 0

    def submit(self, fn, /, *args, **kwargs):
        if self._pid != os.getpid():
            with self._lock:
                if self._pid != os.getpid():
                    self._pool = ThreadPoolExecutor(max_workers=settings.SOCKET_THREADS, thread_name_prefix="socket")
                    self._pid = os.getpid()
        return self._pool.submit(fn, *args, **kwargs)


_threads = _SocketThreads()


def in_a_thread(method):
    """Run ``method`` in one of the process's socket threads, with its own
    database connection, closed (back to the pool) when it is done. Not
    Channels' default one thread per process for every socket's database
    work: there, one socket's slow query or lock wait would hold up the moves
    of every other socket connected to the same process."""
    return database_sync_to_async(method, thread_sensitive=False, executor=_threads)


# No game has more moves than the largest board has cells (5x5): a ply or a
# cell beyond this is not a number a page could have meant.
LARGEST_NUMBER = 25


def _whole_number(value: object, upper: int) -> int | None:
    """``value`` when it is a JSON integer from 0 to ``upper``, else None: not
    a float (4.0, Infinity, NaN), a string, a boolean or anything nested."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= upper:
        return None
    return value


#: A spectator counts for this many seconds unless its socket renews its
#: presence, as every socket does every HEARTBEAT_SECONDS: a socket whose
#: disconnection is never seen (its server stopped) stops counting.
PRESENCE_SECONDS = 60
HEARTBEAT_SECONDS = 20


def _now() -> float:
    # Wall time, not monotonic: several server processes share the cache.
    return time.time()


def _watchers_key(game_id: int) -> str:
    return f"watchers:{game_id}"


#: A game's watcher count is told to its sockets at once, then at most once
#: per this many seconds by one server process: a hundred spectators arriving
#: together (or leaving when the game ends) are a few messages to each socket,
#: not a hundred, which would queue in front of the next move.
WATCHERS_TOLD_EVERY = 0.25

#: Games whose count this process told lately: game id -> [until when (monotonic
#: seconds) news waits, whether something changed meanwhile]. An entry whose
#: time is up counts as none, so a waiting task that died with its event loop
#: never silences a game.
_told_lately: dict[int, list] = {}


async def tell_watchers(consumer: GameConsumer, watchers: int, ply: int | None = None) -> None:
    """Tell ``consumer``'s game that ``watchers`` watch it (at ``ply``, read
    if not given) if nothing was told lately; else the count as it then stands
    is told when the time is up."""
    game_id, now = consumer.game_id, time.monotonic()
    lately = _told_lately.get(game_id)
    if lately is not None and lately[0] > now:
        lately[1] = True
        return
    lately = _told_lately[game_id] = [now + WATCHERS_TOLD_EVERY, False]
    try:
        if ply is None:
            ply = await _ply(game_id)
        await _send_watchers(consumer.channel_layer, consumer.group, watchers, ply)
    finally:
        asyncio.ensure_future(_tell_later(consumer.channel_layer, consumer.group, game_id, lately))


async def _tell_later(layer, group: str, game_id: int, lately: list) -> None:
    """When the time is up, tell what changed meanwhile (and wait again), or stop."""
    try:
        while True:
            await asyncio.sleep(max(0.0, lately[0] - time.monotonic()))
            if not lately[1]:
                return
            lately[:] = [time.monotonic() + WATCHERS_TOLD_EVERY, False]
            watchers, ply = await _watchers_and_ply(game_id)
            await _send_watchers(layer, group, watchers, ply)
    except Exception:  # the next arrival, departure or heartbeat tells it again
        logger.warning("watchers of game %s not told", game_id, exc_info=True)
    finally:
        if _told_lately.get(game_id) is lately:
            del _told_lately[game_id]


async def _send_watchers(layer, group: str, watchers: int, ply: int) -> None:
    await layer.group_send(group, {"type": "game.event", "event": "watchers", "watchers": watchers, "ply": ply})


@in_a_thread
def _watchers_and_ply(game_id: int) -> tuple[int, int]:
    """The game's watchers (presences not yet lapsed) and ply, as they now stand."""
    return len(_lasting(cache.get(_watchers_key(game_id)), _now())), _game_ply(game_id)


def _lasting(stored, now: float) -> dict[str, float]:
    """The presences in a game's stored record that have not lapsed by ``now``."""
    if not isinstance(stored, dict):  # none yet, or expired with every socket gone
        return {}
    return {channel: until for channel, until in stored["until"].items() if until > now}


def _game_ply(game_id: int) -> int:
    game = selectors.game_row(game_id)
    return game.move_count if game is not None else 0


_ply = in_a_thread(_game_ply)


class GameConsumer(LiveConsumer):
    """ws/games/<pk>/: the players and the spectators of one game.

    A game between people is followed by signed-in people only; a game
    against the AI by anyone who can open its page, guests included (a guest
    is known by the key in their session, so a guest's own game counts them
    as its player, not as a spectator)."""

    async def connect(self):
        user = self.scope.get("user")
        signed_in = user is not None and user.is_authenticated
        self.game_id = int(self.scope["url_route"]["kwargs"]["pk"])
        # In the group before the game is read, so no move made meanwhile is
        # missed: one made after the read is heard after the state.
        self.group = live.game_group(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        state = await self._state(user, signed_in)
        refusal = state.get("refusal")
        if refusal is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None
            await self.refuse(*refusal)
            return
        self.side, self.guest_key = state["side"], state.pop("guest_key")
        self.moves_in_play: set[asyncio.Future] = set()
        await self.accept()
        await self.follow_credentials()
        await self.send_json({"type": "state", **state})
        if self.side is None:
            await tell_watchers(self, state["watchers"], state["ply"])
        self.heartbeat = asyncio.ensure_future(self._beat())

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:  # however the socket ends, its heartbeat stops with it
            heartbeat = getattr(self, "heartbeat", None)
            if heartbeat is not None:
                heartbeat.cancel()

    async def disconnect(self, code):
        await self.unfollow_credentials()
        group = getattr(self, "group", None)
        if group is None:
            return
        heartbeat = getattr(self, "heartbeat", None)  # None: the connection never got as far as being told the game
        if heartbeat is not None:
            heartbeat.cancel()
        await self.channel_layer.group_discard(group, self.channel_name)
        if heartbeat is not None and self.side is None:
            watchers, _ = await self._presence(here=False)
            await tell_watchers(self, watchers)

    async def _beat(self):
        """Renew this spectator's presence, and tell the game when the count
        changed without anyone saying so (a spectator's server stopped)."""
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                watchers, changed = await self._presence(here=True if self.side is None else None)
                if changed:
                    await tell_watchers(self, watchers)
            except Exception:  # a missed beat is made up by the next one
                logger.warning("presence in game %s not renewed", self.game_id, exc_info=True)

    async def receive_json(self, content, **kwargs):
        """A move sent over the socket: {"action": "move", "cell": 4, "ply": 0}."""
        if content.get("action") != "move":
            await self.send_json({"type": "refused", "code": "unknown_action", "message": "only moves are sent here"})
            return
        # Checked here, in the order the services check them (ply, then cell):
        # a number the services would choke on never reaches them.
        ply = _whole_number(content.get("ply"), LARGEST_NUMBER)
        if ply is None:
            message = f"ply must be a whole number from 0 to {LARGEST_NUMBER}: the number of moves made"
            await self.send_json({"type": "refused", "code": "invalid_ply", "message": message})
            return
        cell = _whole_number(content.get("cell"), LARGEST_NUMBER - 1)
        if cell is None:
            message = "cell must be a whole number: 0 is the top left cell, counted row by row"
            await self.send_json({"type": "refused", "code": "invalid_cell", "message": message})
            return
        # Played beside the socket's other messages, not before them: on 4x4
        # and 5x5 the AI thinks once the move is stored, and the move's own
        # event reaches this socket meanwhile.
        playing = asyncio.ensure_future(self._play_and_answer(cell, ply))
        self.moves_in_play.add(playing)
        playing.add_done_callback(self.moves_in_play.discard)

    async def _play_and_answer(self, cell: int, ply: int) -> None:
        """The move played, once the socket's credential is found to still
        hold; its refusal sent back, or what failed answered as a message
        that fails is (LiveConsumer.answer_failure)."""
        try:
            if not await self.still_signed_in():
                return
            refusal = await self._play(cell, ply)
            if refusal is not None:
                await self.send_json(refusal)
        except Exception as error:
            await self.answer_failure(error)

    async def game_event(self, event):
        """Forward what a service published: {"type": "move", "ply": 5, ...}."""
        message = {key: value for key, value in event.items() if key not in ("type", "event")}
        await self.send_json({"type": event["event"], **message})

    # -- database work, in a thread ---------------------------------------------

    @in_a_thread
    def _state(self, user, signed_in: bool) -> dict:
        """The game as the socket's first message tells it (live.game_state), with the number
        watching (this socket counted in when it is a spectator's), or the
        refusal (code, reason) when the socket may not follow the game. A
        guest is known by the key in their session (``guest_key``: a guest's
        own game counts them as its player)."""
        game = selectors.game_row(self.game_id)
        if game is None:
            return {"refusal": (CLOSE_NO_SUCH_GAME, "no such game")}
        if not signed_in and not game.ai_side:
            return {"refusal": (CLOSE_NOT_SIGNED_IN, "sign in to follow a game between people")}
        session = self.scope.get("session")
        guest_key = "" if signed_in or session is None else session.get(GUEST_SESSION_KEY, "")
        side = game.side_of(user, guest_key)
        watchers, _ = self._presence_now(here=True if side is None else None)
        return {
            "game": game.pk,
            "side": side,
            "watchers": watchers,
            "guest_key": guest_key,
            **live.game_state(game),
        }

    @in_a_thread
    def _play(self, cell, ply) -> dict | None:
        """Play through the services; the refusal to send back, or None. A
        stored move reaches everyone as the event the services publish, this
        socket included."""
        try:
            player = Player(user=self.scope.get("user"), guest_key=self.guest_key)
            services.game_play_move(game_id=self.game_id, player=player, cell=cell, ply=ply)
        except Game.DoesNotExist:
            return {"type": "refused", "code": "not_found", "message": "no such game"}
        except GameError as error:
            current = error.game.move_count if error.game is not None else None
            return {"type": "refused", "code": error.code, "message": error.message, "ply": current}
        return None

    @in_a_thread
    def _presence(self, *, here: bool | None) -> tuple[int, bool]:
        return self._presence_now(here=here)

    def _presence_now(self, *, here: bool | None) -> tuple[int, bool]:
        """Mark this socket watching (``here``), gone (False) or neither
        (None); drop every presence not renewed in time. The number watching,
        and whether it differs from the number last told to the game.

        Read and written whole: two sockets writing at once can lose one's
        mark, which its next heartbeat puts back."""
        key, now = _watchers_key(self.game_id), _now()
        stored = cache.get(key)
        if not isinstance(stored, dict):  # none yet, or expired with every socket gone
            stored = {"until": {}, "told": 0}
        until = _lasting(stored, now)
        if here:
            until[self.channel_name] = now + PRESENCE_SECONDS
        elif here is False:
            until.pop(self.channel_name, None)
        watchers = len(until)
        changed = watchers != stored["told"]
        if here is not None or changed or len(until) != len(stored["until"]):
            cache.set(key, {"until": until, "told": watchers}, timeout=PRESENCE_SECONDS * 2)
        return watchers, changed
