"""The WebSocket stack around the consumers (tttsite/asgi.py): who is
connecting (an API token, or the session of a page from the site itself), and
the answer to a stopped service: close, never crash.

A socket that is refused is accepted first and then closed with a code and a
reason (a browser never hears the code of a refused handshake, only that it
failed, and would try again forever). The codes are below; the protocol is
described in games/api/asyncapi.yaml, served at /api/asyncapi.yaml.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections import Counter
from importlib import import_module
from types import SimpleNamespace
from urllib.parse import urlsplit

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.contrib import auth
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.settings import api_settings

from games.serving import outages
from games.serving.clients import client_address

logger = logging.getLogger(__name__)

# Nobody signed in who may open this socket (no valid token, no session), or
# no longer: its token was revoked, its session signed out, the password
# changed, or the account deactivated or deleted.
CLOSE_NOT_SIGNED_IN = 4401
# A page from another site, holding no token: the browser's cookies are not its own to use.
CLOSE_FORBIDDEN_ORIGIN = 4403
# No such game.
CLOSE_NO_SUCH_GAME = 4404
# Too many sockets open from one address, or too many messages on one socket.
CLOSE_TOO_MANY = 4429
# Redis (the channel layer) or the database stopped: the page reloads what it
# shows every few seconds instead, and keeps trying to reconnect.
CLOSE_SERVICE_UNAVAILABLE = 4503

#: Seconds a socket that came with no credential has to send {"action": "auth", ...}.
AUTH_WAIT_SECONDS = 10


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def origin_allowed(scope) -> bool:
    """Whether the socket's Origin is the site itself, scheme and port
    included, or one of
    CSRF_TRUSTED_ORIGINS: the check Django's CSRF middleware makes of an
    HTTPS form. No Origin is no browser page of ours."""
    origin = _header(scope, b"origin")
    if not origin:
        return False
    host = _header(scope, b"host") or ""
    domain, _port = split_domain_port(host)
    secure = scope.get("scheme") in ("wss", "https")
    if domain and validate_host(domain, settings.ALLOWED_HOSTS):
        scheme = "https" if secure else "http"
        if origin == f"{scheme}://{host}":
            return True
    trusted = settings.CSRF_TRUSTED_ORIGINS
    if origin in trusted:
        return True
    try:
        parsed = urlsplit(origin)
    except ValueError:
        return False
    return any(
        is_same_domain(parsed.netloc, urlsplit(entry).netloc.lstrip("*"))
        for entry in trusted
        if "*" in entry and urlsplit(entry).scheme == parsed.scheme
    )


def _token_class() -> type[TokenAuthentication]:
    """The API's own token authentication (settings.REST_FRAMEWORK), so a
    socket accepts exactly the tokens the API does."""
    for cls in api_settings.DEFAULT_AUTHENTICATION_CLASSES:
        if issubclass(cls, TokenAuthentication):
            return cls
    return TokenAuthentication


def _token_credentials(key: object) -> dict | None:
    """The scope's credentials for API token ``key`` (its active user, and
    the token, to check again later), or None."""
    if not isinstance(key, str) or not key or len(key) > 256:
        return None
    try:
        user, token = _token_class()().authenticate_credentials(key)
    except AuthenticationFailed:
        return None
    return {"user": user, "credential": "token", "token": token.pk}


#: ``_token_credentials`` in a thread of the event loop's pool (a slow lookup holds
#: up no other socket), through Channels' wrapper, which closes the thread's
#: database connection before and after (back to the pool), as for every other
#: read of the sockets: one kept in the thread was dead after PostgreSQL
#: restarted, and every socket opened with a token was then closed with 4503
#: until the server restarted (bench/outage.sh).
token_credentials = database_sync_to_async(_token_credentials, thread_sensitive=False)


def credentials_group(user_id: int) -> str:
    """The group of every socket of one signed-in user, told when their
    credentials change (games.accounts.signals)."""
    return f"credentials-{user_id}"


def session_digest(session_key: str) -> str:
    """How a signed-out session is named to its sockets (never its key)."""
    return hashlib.sha256(session_key.encode()).hexdigest()


def _credential_holds(scope) -> bool:
    """Whether the socket's credential still signs in its user: its token
    not revoked, its session not signed out nor made stale by a new password,
    the account active. A guest's socket has none to lose."""
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return True
    if scope.get("credential") == "token":
        tokens = _token_class()().get_model().objects
        return tokens.filter(pk=scope.get("token"), user_id=user.pk, user__is_active=True).exists()
    session = scope.get("session")
    if session is None or session.session_key is None:
        return False
    fresh = import_module(settings.SESSION_ENGINE).SessionStore(session.session_key)
    # Django's own reading of a request's session: the backend, the password's hash, the account active.
    return auth.get_user(SimpleNamespace(session=fresh)).pk == user.pk


credential_holds = database_sync_to_async(_credential_holds, thread_sensitive=False)


def _token_in_header(value: str) -> str:
    """The key of "Token <key>" ("" for any other scheme or shape)."""
    parts = value.split()
    keyword = _token_class().keyword
    return parts[1] if len(parts) == 2 and parts[0].lower() == keyword.lower() else ""


async def _close(send, code: int, reason: str) -> None:
    await send({"type": "websocket.close", "code": code, "reason": reason})


async def _accept_and_close(receive, send, code: int, reason: str) -> None:
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await _close(send, code, reason)


class SocketCredentials:
    """ASGI middleware: who the socket belongs to, put in ``scope["user"]``.

    - ``Authorization: Token <key>`` on the handshake: the token's user. No
      Origin check: a token is no ambient credential a foreign page could
      borrow. The session is not read.
    - An Origin that is the site itself (or trusted): the session, as pages use.
    - Anything else (no Origin, as from a program, or another site's page):
      the browser's cookies are ignored; the socket is accepted and its first
      message must be ``{"action": "auth", "token": "<key>"}`` (browsers'
      WebSocket API cannot set headers), else it is closed with 4403 (another
      site's page) or 4401.

    ``scope["credential"]`` says which: "token" (``scope["token"]`` is the
    token's id) or "session". A socket's credential is checked again before
    each of its actions, and whenever its user's credentials change
    (:meth:`LiveConsumer.credentials_changed`).
    """

    def __init__(self, app):
        self.app = app
        self.with_session = AuthMiddlewareStack(app)

    async def __call__(self, scope, receive, send):
        authorization = _header(scope, b"authorization")
        if authorization is not None:
            credentials = await token_credentials(_token_in_header(authorization))
            if credentials is None:
                return await _accept_and_close(receive, send, CLOSE_NOT_SIGNED_IN, "invalid token")
            return await self.app({**scope, **credentials}, receive, send)
        if origin_allowed(scope):
            return await self.with_session({**scope, "credential": "session"}, receive, send)
        return await self._first_message_auth(scope, receive, send)

    async def _first_message_auth(self, scope, receive, send):
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        foreign = bool(_header(scope, b"origin"))
        refusal = (
            (CLOSE_FORBIDDEN_ORIGIN, 'origin not allowed: send {"action": "auth", "token": ...} first')
            if foreign
            else (CLOSE_NOT_SIGNED_IN, "not signed in: send an API token first")
        )
        try:
            message = await asyncio.wait_for(receive(), AUTH_WAIT_SECONDS)
        except TimeoutError:
            return await _close(send, *refusal)
        if message["type"] != "websocket.receive":
            return
        try:
            content = json.loads(message.get("text") or "")
        except (ValueError, RecursionError):
            content = None
        if not isinstance(content, dict) or content.get("action") != "auth":
            return await _close(send, *refusal)
        credentials = await token_credentials(content.get("token"))
        if credentials is None:
            return await _close(send, CLOSE_NOT_SIGNED_IN, "invalid token")
        # The consumer starts as on any other socket; it is open already.
        replay = [{"type": "websocket.connect"}]

        async def receive_after():
            return replay.pop() if replay else await receive()

        async def send_after(message):
            if message["type"] != "websocket.accept":
                await send(message)

        await self.app({**scope, **credentials}, receive_after, send_after)


class Bucket:
    """A token bucket: ``burst`` at once, then ``per_second``."""

    def __init__(self, burst: int, per_second: float):
        self.burst, self.per_second = burst, per_second
        self.tokens, self.at = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.per_second)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


#: Sockets open in this process, by client address.
_open_by_address: Counter[str] = Counter()


def scope_address(scope) -> str:
    """The client's address, worked out as for a request (games.serving.clients)."""
    client = scope.get("client") or ("", 0)
    meta = {"REMOTE_ADDR": client[0] or "", "HTTP_X_FORWARDED_FOR": _header(scope, b"x-forwarded-for") or ""}
    return client_address(SimpleNamespace(META=meta))


class SocketLimits:
    """ASGI middleware, outermost on the WebSocket stack (tttsite/asgi.py):
    at most settings.SOCKETS_PER_ADDRESS sockets open from one address in a
    server process, and settings.SOCKET_FRAMES_PER_SECOND frames a second on
    one socket (settings.SOCKET_FRAME_BURST at once); past either the socket
    is closed with 4429. A client that went away while the site still had
    something to send is one line in the log, not a traceback."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        address = scope_address(scope)
        if _open_by_address[address] >= settings.SOCKETS_PER_ADDRESS:
            return await _accept_and_close(receive, send, CLOSE_TOO_MANY, "too many sockets from your address")
        _open_by_address[address] += 1
        bucket = Bucket(settings.SOCKET_FRAME_BURST, settings.SOCKET_FRAMES_PER_SECOND)

        async def receive_within_rate():
            message = await receive()
            if message["type"] == "websocket.receive" and not bucket.take():
                await send_while_connected(
                    {"type": "websocket.close", "code": CLOSE_TOO_MANY, "reason": "too many messages: slow down"}
                )
                return {"type": "websocket.disconnect", "code": CLOSE_TOO_MANY}
            return message

        async def send_while_connected(message):
            try:
                await send(message)
            except OSError as error:  # uvicorn's ClientDisconnected: the client has gone
                logger.info("%s from %s went away before %s: %s", scope.get("path"), address, message["type"], error)

        try:
            await self.app(scope, receive_within_rate, send_while_connected)
        finally:
            _open_by_address[address] -= 1
            if _open_by_address[address] <= 0:
                del _open_by_address[address]


class CloseWhenServiceDown:
    """ASGI middleware for the WebSocket stack (tttsite/asgi.py): a stopped
    Redis or database closes the socket with 4503 instead of crashing it.

    Redis can fail in a consumer's own code (joining a group), or in Channels'
    loop that listens on the layer for the socket, which no handler of ours
    runs; the database can fail while the session is read, before any consumer
    starts. So the whole stack is wrapped. The socket is accepted first if it
    was not yet: a browser never hears the code of a refused handshake. Pages
    count a socket as live from its first message, not from its opening.
    """

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        accepted = False

        async def send_noting_accept(message):
            nonlocal accepted
            accepted = accepted or message["type"] == "websocket.accept"
            await send(message)

        try:
            await self.app(scope, receive, send_noting_accept)
        except Exception as error:
            service = outages.service_down(error)
            if service is None:
                raise
            logger.error(
                "%s is down, closing %s with %d: %s",
                service,
                scope.get("path"),
                CLOSE_SERVICE_UNAVAILABLE,
                outages.describe(error),
                extra=outages.OUTAGE,
            )
            if not accepted:
                await send({"type": "websocket.accept"})
            # When the browser has gone already the server drops this, harmlessly.
            await send({"type": "websocket.close", "code": CLOSE_SERVICE_UNAVAILABLE})


class LiveConsumer(AsyncJsonWebsocketConsumer):
    """The base of the site's consumers (a game's, the lobby's): a frame that
    is not a JSON object (anyone can send anything down a socket) and a bug
    are answered, not a crash; a stopped service closes the socket."""

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        try:
            content = json.loads(text_data) if text_data else None
        except (ValueError, RecursionError):
            content = None
        if not isinstance(content, dict):
            await self.send_json({"type": "refused", "code": "malformed", "message": "send a JSON object"})
            return
        try:
            await self.receive_json(content, **kwargs)
        except Exception as error:
            await self.answer_failure(error)

    async def answer_failure(self, error: Exception) -> None:
        """Answer a message that failed. A stopped service closes the socket
        with 4503, as CloseWhenServiceDown does outside the handlers; anything
        else is a bug, logged and answered, so that the socket (and everything
        its disconnection would undo) stays."""
        service = outages.service_down(error)
        if service is not None:
            path = self.scope.get("path")
            logger.error(
                "%s is down, closing %s with %d: %s",
                service,
                path,
                CLOSE_SERVICE_UNAVAILABLE,
                outages.describe(error),
                extra=outages.OUTAGE,
            )
            await self.close(code=CLOSE_SERVICE_UNAVAILABLE)
            return
        logger.error("a message on %s failed", self.scope.get("path"), exc_info=error)
        await self.send_json({"type": "refused", "code": "server_error", "message": "the server could not do that"})

    async def follow_credentials(self):
        """Join the group told when the signed-in user's credentials change
        (none for a guest); call once the socket is accepted."""
        user = self.scope.get("user")
        self.credentials_group = credentials_group(user.pk) if user is not None and user.is_authenticated else None
        if self.credentials_group is not None:
            await self.channel_layer.group_add(self.credentials_group, self.channel_name)

    async def unfollow_credentials(self):
        if getattr(self, "credentials_group", None) is not None:
            await self.channel_layer.group_discard(self.credentials_group, self.channel_name)

    async def credentials_changed(self, event):
        """The user's credentials changed somewhere: close if this socket's
        no longer holds. A sign-out names its session, which Django deletes
        only after telling: its sockets close without asking."""
        session = self.scope.get("session") if self.scope.get("credential") == "session" else None
        signed_out = event.get("signed_out")
        if (
            signed_out
            and session is not None
            and session.session_key
            and session_digest(session.session_key) == signed_out
        ):
            await self.close(code=CLOSE_NOT_SIGNED_IN, reason="signed out: sign in again")
            return
        await self.still_signed_in()

    async def still_signed_in(self) -> bool:
        """Whether the socket's credential still holds; if not, it is closed with 4401."""
        if await credential_holds(self.scope):
            return True
        await self.close(code=CLOSE_NOT_SIGNED_IN, reason="signed out: sign in again")
        return False

    async def refuse(self, code: int, reason: str):
        """Accept, then close with ``code`` and ``reason``: a refused handshake
        reaches a browser as a bare failure, with neither."""
        await self.accept()
        await self.close(code=code, reason=reason)
