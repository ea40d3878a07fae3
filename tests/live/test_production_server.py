"""The production server: two uvicorn processes of the production settings.

Production runs several worker processes (scripts/serve); a player's socket
lands on whichever worker accepts it. Here two real uvicorn processes share
the test database and a Redis channel layer, one player is connected to each,
and each hears the other's moves; and static files come hashed, compressed and
cacheable for ever. These tests need Redis at 127.0.0.1:6379 (or
TEST_REDIS_URL); one that does not answer fails the run.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.test import Client
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from games.accounts.models import ApiToken
from games.accounts.services import api_token_create
from games.play.models import Move
from tests.live.players import alice_and_bob_in_a_game

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/14")


def database_url() -> str:
    """The test database, as a DATABASE_URL the server processes can open."""
    db = settings.DATABASES["default"]
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{db['NAME']}"
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def workers(collected_static):
    """Two uvicorn processes of the production settings, sharing the database and Redis."""
    redis.Redis.from_url(REDIS_URL).flushdb()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tttsite.settings",
        "DEBUG": "0",
        "SECRET_KEY": settings.SECRET_KEY,  # the sessions made here must open there
        "DATABASE_URL": database_url(),
        "REDIS_URL": REDIS_URL,
        "ALLOWED_HOSTS": "127.0.0.1",
        "STATIC_ROOT": str(collected_static),
    }
    processes, bases = [], []
    for _ in range(2):
        port = free_port()
        command = [sys.executable, "-m", "uvicorn", "tttsite.asgi:application", "--port", str(port)]
        command += ["--lifespan", "off", "--ws", "websockets-sansio", "--log-level", "warning"]
        processes.append(subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT))
        bases.append(f"127.0.0.1:{port}")
    try:
        for process, base in zip(processes, bases, strict=True):
            wait_until_up(process, base)
        yield bases
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        connection.close()


def wait_until_up(process: subprocess.Popen, base: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server on {base} exited:\n{process.stdout.read().decode()}")
        try:
            with urllib.request.urlopen(f"http://{base}/healthz/", timeout=2):
                return
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.2)
    raise AssertionError(f"the server on {base} did not answer within 60 s")


def post_move(base: str, game_id: int, token: str, *, cell: int, ply: int) -> int:
    """A move through the API of the server at ``base``, with ``token``: the status."""
    request = urllib.request.Request(
        f"{base}/api/games/{game_id}/moves/",
        data=json.dumps({"cell": cell, "ply": ply}).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Token {token}"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status


def session_cookie(user) -> str:
    """A signed-in session of ``user``'s own (a second login on one client would end the first)."""
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def receive(socket_, wanted: str, ply: int | None = None, timeout: float = 10) -> dict:
    """The next message of type ``wanted`` (at ``ply``): others, such as a player's
    own move coming back or watcher counts, are passed over."""
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads(socket_.recv(timeout=max(0.1, deadline - time.monotonic())))
        if message["type"] == wanted and ply in (None, message["ply"]):
            return message


def test_players_on_different_workers_see_each_others_moves(workers):
    alice, bob, game = alice_and_bob_in_a_game()
    cookies = {alice: session_cookie(alice), bob: session_cookie(bob)}

    first, second = workers
    path = f"/ws/games/{game.pk}/"
    with (
        connect(
            f"ws://{first}{path}", additional_headers={"Cookie": cookies[alice], "Origin": f"http://{first}"}
        ) as on_first,
        connect(
            f"ws://{second}{path}", additional_headers={"Cookie": cookies[bob], "Origin": f"http://{second}"}
        ) as on_second,
    ):
        assert receive(on_first, "state")["side"] == "X"
        assert receive(on_second, "state")["side"] == "O"

        # Alice moves through the first worker's socket; Bob, on the second, hears it.
        on_first.send(json.dumps({"action": "move", "cell": 4, "ply": 0}))
        heard = receive(on_second, "move", ply=1)
        assert heard["cell"] == 4

        # Bob answers through the second worker; Alice, on the first, hears it.
        on_second.send(json.dumps({"action": "move", "cell": 0, "ply": 1}))
        heard = receive(on_first, "move", ply=2)
        assert heard["cell"] == 0

    game.refresh_from_db()
    assert game.cells == [4, 0]


def test_a_move_posted_to_one_worker_reaches_a_socket_on_the_other(workers):
    alice, bob, game = alice_and_bob_in_a_game()
    token = api_token_create(user=alice)

    first, second = workers
    with connect(
        f"ws://{second}/ws/games/{game.pk}/",
        additional_headers={"Cookie": session_cookie(bob), "Origin": f"http://{second}"},
    ) as bob_socket:
        receive(bob_socket, "state")
        assert post_move(f"http://{first}", game.pk, token, cell=8, ply=0) == 201
        heard = receive(bob_socket, "move")
        assert (heard["cell"], heard["ply"]) == (8, 1)


def test_an_api_client_plays_over_a_socket_with_its_token_and_hears_why_one_is_closed(workers):
    """What a generated API client does: the token in a header, no cookie, no
    Origin; and uvicorn passes a refusal's reason on, with its code."""
    alice, bob, game = alice_and_bob_in_a_game()
    token = api_token_create(user=alice)
    first, _ = workers
    with connect(f"ws://{first}/ws/games/{game.pk}/", additional_headers={"Authorization": f"Token {token}"}) as api:
        assert receive(api, "state")["side"] == "X"
        api.send(json.dumps({"action": "move", "cell": 4, "ply": 0}))
        assert receive(api, "move", ply=1)["cell"] == 4
    with connect(f"ws://{first}/ws/games/{game.pk}/", additional_headers={"Origin": f"http://{first}"}) as anonymous:
        with pytest.raises(ConnectionClosed) as closed:
            anonymous.recv(timeout=10)
    assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (4401, "sign in to follow a game between people")


def _page_form_token(base: str, cookie: str) -> tuple[str, str]:
    """A signed-in page's CSRF token and the cookie that goes with it."""
    with urllib.request.urlopen(urllib.request.Request(f"http://{base}/account/", headers={"Cookie": cookie})) as page:
        html = page.read().decode()
        csrf_cookie = re.search(r"csrftoken=([^;]+)", page.headers.get("Set-Cookie", "")).group(1)
    form_token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    return form_token, f"{cookie}; csrftoken={csrf_cookie}"


def test_signing_out_on_one_worker_closes_that_sessions_socket_on_the_other(workers):
    alice, _, game = alice_and_bob_in_a_game()
    cookie = session_cookie(alice)
    first, second = workers
    headers = {"Cookie": cookie, "Origin": f"http://{second}"}
    with connect(f"ws://{second}/ws/games/{game.pk}/", additional_headers=headers) as page_socket:
        assert receive(page_socket, "state")["side"] == "X"
        form_token, cookies = _page_form_token(first, cookie)
        logout = urllib.request.Request(
            f"http://{first}/accounts/logout/",
            data=f"csrfmiddlewaretoken={form_token}".encode(),
            headers={
                "Cookie": cookies,
                "Origin": f"http://{first}",
                "Content-Type": "application/x-www-form-urlencoded",
            },
            method="POST",
        )
        opener = urllib.request.build_opener(NoRedirect)
        assert opener.open(logout, timeout=10).status == 302
        started = time.monotonic()
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                page_socket.recv(timeout=5)
    assert time.monotonic() - started < 1.0
    assert closed.value.rcvd.code == 4401 and "signed out" in closed.value.rcvd.reason


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None

    def http_error_302(self, request, response, code, message, headers):
        return response


def test_a_move_on_a_socket_whose_token_was_revoked_is_refused_by_the_server(workers):
    alice, _, game = alice_and_bob_in_a_game()
    token = api_token_create(user=alice)
    first, _ = workers
    with connect(f"ws://{first}/ws/games/{game.pk}/", additional_headers={"Authorization": f"Token {token}"}) as api:
        assert receive(api, "state")["side"] == "X"
        ApiToken.objects.filter(user=alice).delete()  # from here: no worker hears of it
        api.send(json.dumps({"action": "move", "cell": 4, "ply": 0}))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                api.recv(timeout=10)
    assert closed.value.rcvd.code == 4401
    assert not Move.objects.filter(game=game).exists()


def test_static_files_are_hashed_compressed_and_cached_for_ever(workers, collected_static):
    first, _ = workers
    with urllib.request.urlopen(f"http://{first}/accounts/login/", timeout=10) as response:
        page = response.read().decode()
    stylesheet = re.search(r'href="(/static/games/site\.[0-9a-f]{12}\.css)"', page)
    assert stylesheet, "the page links the stylesheet by its hashed name"

    request = urllib.request.Request(f"http://{first}{stylesheet[1]}", headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=10) as response:
        body = response.read()
        assert response.headers["Content-Encoding"] == "gzip"
        assert "immutable" in response.headers["Cache-Control"]
        assert "max-age=315360000" in response.headers["Cache-Control"]
    # The stylesheet itself, as collectstatic wrote it, not some other file or an error page.
    collected = Path(collected_static, stylesheet[1].removeprefix("/static/")).read_bytes()
    assert gzip.decompress(body) == collected
