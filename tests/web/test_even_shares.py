"""granian's page workers keep even shares of the clients' kept-open
connections (games/serving/shares.py): a worker holding more than its share
asks that many clients, through ``Connection: close``, to open new ones.

What a user (an operator, a load test) notices: with a few clients that keep
their connections open, every worker ends up serving as many of them as the
others, where the kernel alone often splits them 20 and 12 of 32.
"""

from __future__ import annotations

import http.client
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import pytest

from games.serving.shares import FOLDER_PREFIX, EvenShares, even_share, held_connections

ROOT = Path(__file__).resolve().parents[2]


def a_listener_with(connections: int):
    """A listening socket on a free port, the server's ends of ``connections``
    connections to it, and the clients' ends."""
    listener = socket.create_server(("127.0.0.1", 0))
    clients = [socket.create_connection(listener.getsockname()) for _ in range(connections)]
    accepted = [listener.accept()[0] for _ in clients]
    return listener, accepted, clients


def test_a_worker_counts_the_connections_it_holds_on_the_port_it_listens_on():
    listener, accepted, clients = a_listener_with(3)
    bound = socket.socket()  # bound to a port, neither listening nor connected: not a connection
    bound.bind(("127.0.0.1", 0))
    everything = [listener, *accepted, *clients, bound]
    try:
        fds = [each.fileno() for each in everything]
        # The clients' ends are on ports of their own: only the server's three count.
        assert held_connections(fds) == (listener.getsockname()[1], 3)
        accepted[0].close()
        assert held_connections([each.fileno() for each in everything if each.fileno() != -1])[1] == 2
        # Listening on no port, or on two, the worker cannot tell its connections: it counts none.
        assert held_connections([each.fileno() for each in clients]) == (None, 0)
        other = socket.create_server(("127.0.0.1", 0))
        everything.append(other)
        assert held_connections([listener.fileno(), other.fileno(), accepted[1].fileno()]) == (None, 0)
    finally:
        for each in everything:
            each.close()


def test_even_share_is_the_connections_over_the_workers_rounded_up():
    assert even_share([20, 12]) == 16
    assert even_share([11, 11, 11]) == 11
    assert even_share([17, 16]) == 17
    assert even_share([]) == 0


def answers(middleware: EvenShares, count: int) -> list[list[tuple[str, str]]]:
    """The headers of ``count`` answers of ``middleware``."""
    headers_sent = []

    def start_response(status, headers, exc_info=None):
        headers_sent.append(headers)

    for _ in range(count):
        middleware({"SERVER_PROTOCOL": "HTTP/1.1", "REQUEST_METHOD": "GET"}, start_response)
    return headers_sent


def app(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"ok"]


def test_a_worker_over_its_share_closes_that_many_connections_and_no_more(tmp_path):
    listener, accepted, clients = a_listener_with(5)
    try:
        port = listener.getsockname()[1]
        (tmp_path / "1").write_text(f"{port} 1")  # another worker, holding one
        (tmp_path / "2").write_text(f"{port + 1} 9")  # a server on another port: not counted
        middleware = EvenShares(app, counting=False)
        fds = [each.fileno() for each in (listener, *accepted, *clients)]
        middleware.owed = middleware.tick(tmp_path, fds)
        assert middleware.owed == 2  # 5 and 1: three each
        assert (tmp_path / str(os.getpid())).read_text() == f"{port} 5"  # what the others read
        sent = answers(middleware, 4)
        assert [("Connection", "close") in headers for headers in sent] == [True, True, False, False]
        assert all(("Content-Type", "text/plain") in headers for headers in sent)
        # A worker within its share closes nothing; nor does one whose fellows stopped counting.
        (tmp_path / "1").write_text(f"{port} 4")
        assert middleware.tick(tmp_path, fds) == 0
        os.utime(tmp_path / "1", (time.time() - 60, time.time() - 60))
        (tmp_path / "1").write_text(f"{port} 0")
        os.utime(tmp_path / "1", (time.time() - 60, time.time() - 60))
        assert middleware.tick(tmp_path, fds) == 0
    finally:
        for each in (listener, *accepted, *clients):
            each.close()


def test_an_answer_that_already_closes_its_connection_says_so_once(tmp_path):
    def closing_app(environ, start_response):
        start_response("413 Request Entity Too Large", [("Connection", "close")])
        return [b""]

    middleware = EvenShares(closing_app, counting=False)
    middleware.owed = 1
    (headers,) = answers(middleware, 1)
    assert headers == [("Connection", "close")]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts connections through /proc")
def test_two_granian_workers_end_up_with_half_the_clients_each():
    port = free_port()
    granian = Path(sys.executable).parent / "granian"
    command = [str(granian), "--interface", "wsgi", "tests.web.even_shares_app:application"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--workers", "2", "--no-ws", "--log-level", "warning"]
    server = subprocess.Popen(command, cwd=ROOT, start_new_session=True)
    clients = [http.client.HTTPConnection("127.0.0.1", port, timeout=5) for _ in range(16)]
    try:

        def ask(client) -> str:
            client.request("GET", "/")
            return client.getresponse().read().decode()

        deadline = time.monotonic() + 30
        while True:  # up when both workers answer
            try:
                if len({ask(http.client.HTTPConnection("127.0.0.1", port, timeout=5)) for _ in range(20)}) == 2:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline and server.poll() is None, "granian did not start"
            time.sleep(0.2)
        # Every client asks in turn, its connection kept open unless the worker closes it.
        deadline, even_rounds = time.monotonic() + 15, 0
        while even_rounds < 3 and time.monotonic() < deadline:
            served_by = Counter(ask(client) for client in clients)
            even_rounds = even_rounds + 1 if sorted(served_by.values()) == [8, 8] else 0
            time.sleep(0.05)
        assert even_rounds == 3, f"the workers' shares of 16 clients: {sorted(served_by.values())}"
    finally:
        for client in clients:
            client.close()
        os.killpg(server.pid, 15)
        server.wait(timeout=20)
        shutil.rmtree(Path(tempfile.gettempdir()) / f"{FOLDER_PREFIX}{server.pid}", ignore_errors=True)
