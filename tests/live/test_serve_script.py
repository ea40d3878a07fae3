"""scripts/serve itself, started as an operator starts it, against the test
database: nginx on one address in front of granian's workers (the pages and
the API) and uvicorn's (the WebSockets), Redis carrying a move from one to
the other, and the background worker beside them.

What a user would notice: the pages open their sockets on their own address;
a move made through the API is heard on a socket; a page of another origin
cannot use the session; an oversized chunked body is refused and one within
the limit played; a port already taken is said at once; and stopping the
script stops everything it started. One server for the module: the script
takes some seconds to start.
These tests need Redis at 127.0.0.1:6379 (or TEST_SERVE_REDIS_URL).
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from bench.process_groups import group_members, start_serve, stop_group
from games.accounts.services import api_token_create
from tests.live.players import alice_and_bob_in_a_game
from tests.live.test_production_server import database_url, free_port, post_move, receive, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("TEST_SERVE_REDIS_URL", "redis://127.0.0.1:6379/15")


@dataclass
class Served:
    process: subprocess.Popen
    port: int
    log: Path

    @property
    def pages(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def sockets(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


@pytest.fixture(scope="module")
def served(django_db_setup, collected_static, tmp_path_factory):
    """scripts/serve on a free port, on the test database and a Redis database of its own."""
    redis.Redis.from_url(REDIS_URL).flushdb()
    port = free_port()
    env = serve_environment(port, collected_static)
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with open(log, "w") as output:
        process = start_serve(env, output)
    server = Served(process, port, log)
    try:
        wait_until_up(server)
        yield server
    finally:
        stop_group(process, timeout=30)
        connection.close()


def serve_environment(port: int, static_root) -> dict:
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    env.update(
        DEBUG="0",
        SECRET_KEY=settings.SECRET_KEY,  # the sessions made here must open there
        DATABASE_URL=database_url(),
        REDIS_URL=REDIS_URL,
        ALLOWED_HOSTS="127.0.0.1",
        STATIC_ROOT=str(static_root),
        HOST="127.0.0.1",
        PORT=str(port),
        WORKERS="2",
        SOCKET_WORKERS="2",
        RUN_WORKER="1",  # so that stopping the script is seen to stop the worker too
        LOG_LEVEL="WARNING",
    )
    return env


def wait_until_up(server: Served) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise AssertionError(f"scripts/serve exited with {server.process.returncode}:\n{server.log_tail()}")
        try:
            with urllib.request.urlopen(f"{server.pages}/healthz/", timeout=2):
                return
        except OSError:  # refused, or accepted before a worker is up to answer
            time.sleep(0.2)
    raise AssertionError(f"scripts/serve did not answer on {server.port} within 120 s:\n{server.log_tail()}")


def test_the_pages_open_their_sockets_on_their_own_address(served):
    with urllib.request.urlopen(served.pages + "/", timeout=10) as response:
        policy = response.headers["Content-Security-Policy"]
    assert re.search(r"connect-src ([^;]*)", policy)[1].split() == ["'self'"]


def test_a_move_posted_to_the_site_is_heard_on_a_socket_of_the_same_address(served):
    """granian's worker stores the move and publishes it through Redis; uvicorn pushes it to Bob."""
    alice, bob, game = alice_and_bob_in_a_game()
    token = api_token_create(user=alice)
    with connect(
        f"{served.sockets}/ws/games/{game.pk}/",
        additional_headers={"Cookie": session_cookie(bob), "Origin": served.pages},
    ) as bob_socket:
        assert receive(bob_socket, "state")["side"] == "O"
        assert post_move(served.pages, game.pk, token, cell=8, ply=0) == 201
        heard = receive(bob_socket, "move")
        assert (heard["cell"], heard["ply"]) == (8, 1)
        # And Bob's answer over the socket is stored, as the API then tells Alice.
        bob_socket.send(json.dumps({"action": "move", "cell": 0, "ply": 1}))
        assert receive(bob_socket, "move", ply=2)["cell"] == 0
    request = urllib.request.Request(
        f"{served.pages}/api/games/{game.pk}/", headers={"Authorization": f"Token {token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert json.load(response)["moves"] == [8, 0]


def test_socket_messages_are_sent_uncompressed_even_to_a_browser_that_offers_compression(served):
    """Browsers offer permessage-deflate on every socket; a move of a hundred
    bytes is not worth compressing for each spectator."""
    alice, _bob, game = alice_and_bob_in_a_game()
    with connect(
        f"{served.sockets}/ws/games/{game.pk}/",
        additional_headers={"Cookie": session_cookie(alice), "Origin": served.pages},
        compression="deflate",
    ) as socket_:
        assert receive(socket_, "state")["side"] == "X"
        assert "Sec-WebSocket-Extensions" not in socket_.response.headers


@pytest.mark.parametrize("origin", ["http://127.0.0.1:{other}", "http://evil.example"])
def test_a_socket_from_another_origin_cannot_use_the_session(served, origin):
    alice, _bob, game = alice_and_bob_in_a_game()
    origin = origin.format(other=free_port())
    with connect(
        f"{served.sockets}/ws/games/{game.pk}/",
        additional_headers={"Cookie": session_cookie(alice), "Origin": origin},
    ) as socket_:
        socket_.send(json.dumps({"action": "move", "cell": 4, "ply": 0}))
        with pytest.raises(ConnectionClosed) as closed:
            socket_.recv(timeout=10)
    assert closed.value.rcvd.code == 4403
    game.refresh_from_db()
    assert game.cells == []


def test_a_chunked_body_over_the_limit_gets_a_413(served):
    """No Content-Length to refuse it by: nginx and granian hand the body over
    as it comes, and it is cut off once past the limit."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    piece = b"x" * 16384
    conversation = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    conversation.putrequest("POST", "/api/games/")
    conversation.putheader("Content-Type", "application/json")
    conversation.putheader("Transfer-Encoding", "chunked")
    conversation.endheaders()
    sent = 0
    try:
        while sent <= 4 * limit:
            conversation.send(b"%x\r\n%s\r\n" % (len(piece), piece))
            sent += len(piece)
        conversation.send(b"0\r\n\r\n")
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server stopped reading, as it should: its answer is waiting
    response = conversation.getresponse()
    body = json.loads(response.read())
    conversation.close()
    assert response.status == 413
    assert body["code"] == "request_too_large"


def test_a_form_over_the_limit_gets_the_sites_own_page_not_the_proxys(served):
    """nginx refuses it before the site sees it, in the site's words."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    conversation = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    conversation.request(
        "POST",
        "/accounts/login/",
        body=b"x" * (limit + 1),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    response = conversation.getresponse()
    page = response.read().decode()
    conversation.close()
    assert response.status == 413
    assert response.getheader("Content-Type").startswith("text/html")
    assert "That was too much to send" in page
    assert "nginx" not in page


def test_a_chunked_move_within_the_limit_is_played(served):
    """The same path as above, a body that ends in time: the server reads it
    whole and the move is stored, as if its length had been declared."""
    alice, _bob, game = alice_and_bob_in_a_game()
    token = api_token_create(user=alice)
    body = json.dumps({"cell": 4, "ply": 0}).encode()
    conversation = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    conversation.putrequest("POST", f"/api/games/{game.pk}/moves/")
    conversation.putheader("Authorization", f"Token {token}")
    conversation.putheader("Content-Type", "application/json")
    conversation.putheader("Transfer-Encoding", "chunked")
    conversation.endheaders()
    for piece in (body[:5], body[5:]):  # in two pieces, as a slow client sends it
        conversation.send(b"%x\r\n%s\r\n" % (len(piece), piece))
    conversation.send(b"0\r\n\r\n")
    response = conversation.getresponse()
    answer = json.loads(response.read())
    conversation.close()
    assert response.status == 201, answer
    game.refresh_from_db()
    assert game.cells == [4]


def test_a_port_already_taken_is_said_at_once_and_nothing_is_started(served, tmp_path):
    """Another server on the port (here the module's own): the script says so
    and stops, rather than serving nothing while the other answers."""
    env = serve_environment(served.port, tmp_path)
    result = subprocess.run(
        [str(ROOT / "scripts" / "serve")], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 1
    assert f"cannot serve on 127.0.0.1:{served.port}" in result.stderr and "PORT=" in result.stderr
    assert "migrat" not in result.stdout.lower()  # stopped before anything else


def test_stopping_the_script_leaves_no_server_process_behind(served):
    """Last in this module: it stops the module's server."""
    group = served.process.pid
    before = {pid: command for pid, (_parent, command) in group_members(group).items()}
    commands = " ".join(before.values())
    # The script, nginx, granian's master and its two workers, uvicorn and its two, the worker.
    assert sum("nginx: master" in command for command in before.values()) == 1, before
    assert sum("bin/granian" in command for command in before.values()) == 3, before
    assert sum("bin/uvicorn" in command for command in before.values()) == 1, before
    assert sum("spawn_main" in command for command in before.values()) == 2, before
    assert "run_worker" in commands and "scripts/serve" in commands, before

    os.killpg(group, signal.SIGTERM)
    # 143: the script's own TERM trap ended it, the one that stops what it started.
    assert served.process.wait(timeout=30) == 143, served.log_tail()
    deadline = time.monotonic() + 15
    while (left := group_members(group)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert left == {}, f"left behind: {left}"
    assert not [pid for pid in before if alive(pid)]
    with pytest.raises(OSError):
        urllib.request.urlopen(f"{served.pages}/healthz/", timeout=2)
