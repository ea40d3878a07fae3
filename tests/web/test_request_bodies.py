"""Bodies over the limit are refused by the ASGI application the production
server runs (tttsite/asgi.py) before Django reads them, whether they declare
their length or come chunked: a 413 at once, and the rest never read, so no
request can fill the memory or the disk."""

from __future__ import annotations

import io
import json

import pytest
from asgiref.testing import ApplicationCommunicator
from django.conf import settings

from tttsite.asgi import application

LIMIT = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
CHUNK = 8 * 1024


def http_scope(path, headers, method="POST"):
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1"), *headers],
        "client": ("198.51.100.7", 50000),
        "server": ("127.0.0.1", 8000),
    }


async def answer(communicator):
    """(status, headers, body) of the response."""
    start = await communicator.receive_output(5)
    assert start["type"] == "http.response.start", start
    body = b""
    while True:
        message = await communicator.receive_output(5)
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    return start["status"], dict(start["headers"]), body


@pytest.mark.asyncio
async def test_a_3_gb_content_length_is_refused_before_a_byte_is_read():
    communicator = ApplicationCommunicator(
        application,
        http_scope("/api/games/", [(b"content-type", b"application/json"), (b"content-length", b"3000000000")]),
    )
    # No body sent at all: the answer cannot wait for it.
    status, headers, body = await answer(communicator)

    assert status == 413
    assert headers[b"content-type"] == b"application/json"
    assert headers[b"connection"] == b"close"
    error = json.loads(body)
    assert error["code"] == "request_too_large"
    assert error["message"] == f"The request body is 3000000000 bytes; this site accepts at most {LIMIT}."


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("path", "content_type"),
    [("/api/analyse/", b"application/json"), ("/play/", b"application/x-www-form-urlencoded")],
)
async def test_a_chunked_body_is_refused_once_past_the_limit_and_the_rest_never_read(path, content_type):
    communicator = ApplicationCommunicator(
        application, http_scope(path, [(b"content-type", content_type), (b"transfer-encoding", b"chunked")])
    )
    sent = 100  # 800 KiB, and the client says there is more to come
    for _ in range(sent):
        await communicator.send_input({"type": "http.request", "body": b"x" * CHUNK, "more_body": True})

    status, headers, body = await answer(communicator)

    assert status == 413
    if path.startswith("/api/"):
        assert json.loads(body) == {
            "code": "request_too_large",
            "message": f"The request body is more than {LIMIT} bytes; this site accepts at most {LIMIT}.",
        }
    else:
        assert headers[b"content-type"].startswith(b"text/html")
        assert "too much to send" in body.decode()
    # Read up to the chunk that went past the limit, and not one more.
    assert communicator.input_queue.qsize() == sent - (LIMIT // CHUNK + 1)
    await communicator.wait(5)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_body_within_the_limit_arriving_in_pieces_is_served():
    payload = ('{"board": "X...O...."' + " " * (LIMIT - 100) + "}").encode()  # no unknown field: whitespace
    communicator = ApplicationCommunicator(
        application,
        http_scope(
            "/api/analyse/",
            [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())],
        ),
    )
    for start in range(0, len(payload), CHUNK):
        piece = payload[start : start + CHUNK]
        await communicator.send_input(
            {"type": "http.request", "body": piece, "more_body": start + CHUNK < len(payload)}
        )

    status, _, body = await answer(communicator)

    assert status == 200, body
    assert json.loads(body)["board"] == "X...O...."


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_chunked_body_within_the_limit_is_served_as_if_its_length_were_declared():
    payload = json.dumps({"board": "X...O...."}).encode()
    communicator = ApplicationCommunicator(
        application, http_scope("/api/analyse/", [(b"content-type", b"application/json")])
    )
    for start in range(0, len(payload), 5):
        await communicator.send_input(
            {"type": "http.request", "body": payload[start : start + 5], "more_body": start + 5 < len(payload)}
        )

    status, _, body = await answer(communicator)

    assert status == 200, body
    assert json.loads(body)["board"] == "X...O...."


# -- the same under WSGI (tttsite/wsgi.py, for a WSGI server) -------------------------------------


class Trickle(io.RawIOBase):
    """A chunked body as a WSGI server hands it over: ``pieces`` of CHUNK bytes, counting what is read."""

    def __init__(self, pieces: int):
        self.left, self.read_bytes = pieces * CHUNK, 0

    def readable(self):
        return True

    def readinto(self, buffer):
        size = min(len(buffer), self.left, CHUNK)
        buffer[:size] = b"x" * size
        self.left -= size
        self.read_bytes += size
        return size


def wsgi_call(path, headers, stream, method="POST"):
    """(status, headers, body) of tttsite.wsgi.application for one request."""
    from tttsite.wsgi import application as wsgi_application

    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "SCRIPT_NAME": "",
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "198.51.100.7",
        "HTTP_HOST": "127.0.0.1",
        "wsgi.input": stream,
        "wsgi.url_scheme": "http",
        "wsgi.errors": io.StringIO(),
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "wsgi.version": (1, 0),
        **headers,
    }
    started = {}

    def start_response(status, response_headers, exc_info=None):
        started["status"], started["headers"] = int(status.split()[0]), dict(response_headers)

    body = b"".join(wsgi_application(environ, start_response))
    return started["status"], started["headers"], body


def test_under_wsgi_a_3_gb_content_length_is_refused_before_a_byte_is_read():
    stream = Trickle(0)
    status, headers, body = wsgi_call(
        "/api/games/", {"CONTENT_TYPE": "application/json", "CONTENT_LENGTH": "3000000000"}, stream
    )

    assert status == 413 and headers["Content-Type"] == "application/json"
    assert json.loads(body)["message"] == f"The request body is 3000000000 bytes; this site accepts at most {LIMIT}."
    assert stream.read_bytes == 0


@pytest.mark.parametrize(
    ("path", "content_type"),
    [("/api/analyse/", "application/json"), ("/play/", "application/x-www-form-urlencoded")],
)
def test_under_wsgi_a_chunked_body_is_refused_once_past_the_limit_and_the_rest_never_read(path, content_type):
    stream = Trickle(100)  # 800 KiB
    status, headers, body = wsgi_call(path, {"CONTENT_TYPE": content_type, "HTTP_TRANSFER_ENCODING": "chunked"}, stream)

    assert status == 413
    if path.startswith("/api/"):
        assert json.loads(body)["code"] == "request_too_large"
    else:
        assert headers["Content-Type"].startswith("text/html") and "too much to send" in body.decode()
    assert stream.read_bytes == LIMIT + 1


@pytest.mark.django_db
def test_under_wsgi_a_chunked_body_within_the_limit_is_served_as_if_its_length_were_declared():
    payload = json.dumps({"board": "X...O...."}).encode()
    status, _, body = wsgi_call(
        "/api/analyse/",
        {"CONTENT_TYPE": "application/json", "HTTP_TRANSFER_ENCODING": "chunked"},
        io.BytesIO(payload),
    )

    assert status == 200, body
    assert json.loads(body)["board"] == "X...O...."
