"""The WebSocket stack's answer to a stopped service: close, never crash."""

from __future__ import annotations

import logging

from games.serving import outages

logger = logging.getLogger(__name__)

# Redis (the channel layer) or the database stopped: the page reloads what it
# shows every few seconds instead, and keeps trying to reconnect.
CLOSE_SERVICE_UNAVAILABLE = 4503


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
            )
            if not accepted:
                await send({"type": "websocket.accept"})
            # When the browser has gone already the server drops this, harmlessly.
            await send({"type": "websocket.close", "code": CLOSE_SERVICE_UNAVAILABLE})
