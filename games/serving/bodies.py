"""Request bodies kept to the limit before Django reads them.

Django's ASGI handler reads the whole body into a file that moves to disk
past FILE_UPLOAD_MAX_MEMORY_SIZE, before any middleware runs: a 3 GB upload,
or a chunked one (no Content-Length to check), would be written to disk
first and refused after. ``LimitRequestBody`` wraps the ASGI application
(tttsite/asgi.py) and

- refuses a declared Content-Length over the limit at once, reading nothing;
- counts the bytes of a declared body as they arrive, and once past the
  limit tells Django the client went away (so it stops reading and drops
  what it has, at most the limit, in memory) and answers 413 itself;
- reads a body of no declared length (chunked) itself, up to the limit: past
  it, a 413; within it, the app gets the body with its length, which DRF
  needs to read it at all.

``LimitRequestBodyWSGI`` does the same for a WSGI server (tttsite/wsgi.py),
under which Django reads no more than the Content-Length either.

The answer is games.serving.middleware's 413: the API's error shape under
/api/, the standalone page elsewhere, with ``Connection: close`` so the
server stops reading the rest.
"""

from __future__ import annotations

import io
from types import SimpleNamespace

from games.serving.clients import client_address
from games.serving.middleware import body_limit, request_too_large


def _declared_length(headers) -> int | None:
    """The Content-Length header as a number, None when absent or unreadable."""
    for name, value in headers:
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _client(scope) -> str:
    meta = {"REMOTE_ADDR": (scope.get("client") or ("",))[0]}
    for name, value in scope.get("headers", ()):
        if name.lower() == b"x-forwarded-for":
            meta["HTTP_X_FORWARDED_FOR"] = value.decode("latin-1")
    return client_address(SimpleNamespace(META=meta))


class LimitRequestBody:
    """ASGI middleware: no HTTP request body longer than ``body_limit()`` reaches the app."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = body_limit()
        declared = _declared_length(scope.get("headers", ()))
        if declared is not None and declared > limit:
            return await self._refuse(scope, send, declared)
        if declared is None:
            return await self._with_length(scope, receive, send, limit)

        received = 0
        over = False
        started = False

        async def counting_receive():
            nonlocal received, over
            if over:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    over = True
                    return {"type": "http.disconnect"}
            return message

        async def watching_send(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        await self.app(scope, counting_receive, watching_send)
        if over and not started:
            await self._refuse(scope, send, None)

    async def _with_length(self, scope, receive, send, limit: int):
        """A body of no declared length (chunked, or none at all), read here up
        to the limit: past it, a 413; within it, the app gets it whole, with
        its Content-Length (DRF, like Django under WSGI, reads no more than
        the declared length, and would see a chunked body empty)."""
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break  # the client went away
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > limit:
                return await self._refuse(scope, send, None)
            if not message.get("more_body", False):
                message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
                break
        if size:
            scope = {**scope, "headers": [*scope.get("headers", ()), (b"content-length", str(size).encode())]}
        replay = [message]

        async def replaying_receive():
            return replay.pop() if replay else await receive()

        await self.app(scope, replaying_receive, send)

    async def _refuse(self, scope, send, length: int | None):
        path_info = scope["path"]
        root = scope.get("root_path", "")
        if root and path_info.startswith(root):
            path_info = path_info[len(root) :]
        response = request_too_large(
            path_info=path_info,
            method=scope.get("method", ""),
            path=scope["path"],
            client=_client(scope),
            length=length,
        )
        body = response.content
        headers = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in response.items()]
        headers += [
            (b"content-length", str(len(body)).encode()),
            (b"x-content-type-options", b"nosniff"),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": response.status_code, "headers": headers})
        await send({"type": "http.response.body", "body": body})


class LimitRequestBodyWSGI:
    """WSGI middleware: the same limit as :class:`LimitRequestBody`, and chunked
    bodies within it served as if they had declared their length."""

    #: Bytes read from a chunked body at a time.
    CHUNK = 64 * 1024

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        limit = body_limit()
        try:
            declared = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            declared = 0
        if declared > limit:
            return self._refuse(environ, start_response, declared)
        if not declared and "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
            body = bytearray()
            stream = environ["wsgi.input"]
            while len(body) <= limit:
                piece = stream.read(min(self.CHUNK, limit + 1 - len(body)))
                if not piece:
                    break
                body += piece
            if len(body) > limit:
                return self._refuse(environ, start_response, None)
            environ["wsgi.input"] = io.BytesIO(bytes(body))
            environ["CONTENT_LENGTH"] = str(len(body))
        return self.app(environ, start_response)

    def _refuse(self, environ, start_response, length: int | None):
        response = request_too_large(
            path_info=environ.get("PATH_INFO", ""),
            method=environ.get("REQUEST_METHOD", ""),
            path=environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", ""),
            client=client_address(SimpleNamespace(META=environ)),
            length=length,
        )
        body = response.content
        headers = [*response.items(), ("Content-Length", str(len(body))), ("X-Content-Type-Options", "nosniff")]
        start_response(f"{response.status_code} {response.reason_phrase}", headers)
        return [body]
