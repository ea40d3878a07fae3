"""tttsite/postgresql/: the pool lends a connection without a round trip to
check it, and never lends one that PostgreSQL closed.

These tests need the PostgreSQL server the README names (127.0.0.1:5432, or
MIGRATE_TEST_POSTGRES), whichever database the suite runs on; one that does not
answer fails the run, it is not skipped. They read nothing but their own
connections, in the server's own "postgres" database.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from urllib.parse import urlsplit

import psycopg
import pytest
from django.db.utils import ConnectionHandler
from psycopg_pool import ConnectionPool

POSTGRES = urlsplit(os.environ.get("MIGRATE_TEST_POSTGRES", "postgres://postgres@127.0.0.1:5432"))


@pytest.fixture
def pooled(django_db_blocker):
    """A connection as the site's settings make it on PostgreSQL: a pool of one
    (not the suite's database, which pytest-django guards)."""
    handler = ConnectionHandler(
        {
            "default": {
                "ENGINE": "tttsite.postgresql",
                "NAME": "postgres",
                "USER": POSTGRES.username or "postgres",
                "PASSWORD": POSTGRES.password or "",
                "HOST": POSTGRES.hostname or "127.0.0.1",
                "PORT": POSTGRES.port or 5432,
                "CONN_MAX_AGE": 0,
                "CONN_HEALTH_CHECKS": True,
                "OPTIONS": {"pool": {"min_size": 1, "max_size": 1, "timeout": 5}},
            }
        }
    )
    connection = handler["default"]
    with django_db_blocker.unblock():
        yield connection
        connection.close()
        connection.close_pool()


@pytest.fixture
def checks(monkeypatch):
    """The round trips made to check a connection before lending it."""
    made = []
    check = ConnectionPool.check_connection

    def counted(connection):
        made.append(connection)
        check(connection)

    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(counted))
    return made


def backend_pid(connection) -> int:
    """The PostgreSQL process serving ``connection`` for one request (then lent back)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    connection.close()  # the request ends: back to the pool
    return pid


def test_a_connection_nobody_closed_is_lent_again_without_a_round_trip(pooled, checks):
    first = backend_pid(pooled)

    assert [backend_pid(pooled) for _ in range(3)] == [first] * 3
    assert checks == []


def test_a_connection_postgresql_closed_is_never_lent(pooled, checks):
    first = backend_pid(pooled)
    with psycopg.connect(
        host=POSTGRES.hostname or "127.0.0.1",
        port=POSTGRES.port or 5432,
        user=POSTGRES.username or "postgres",
        password=POSTGRES.password or None,
        dbname="postgres",
        autocommit=True,
    ) as admin:
        # What a restart or an administrator does to a connection idle in the pool;
        # with a timeout, PostgreSQL answers once that backend has exited (a fixed
        # sleep was too short on a busy CI machine).
        ended = admin.execute("SELECT pg_terminate_backend(%s, 10000)", [first]).fetchone()[0]
    assert ended  # and its goodbye already sent, before it left

    second = backend_pid(pooled)  # a request after it: answered, on a new connection

    assert second != first
    assert len(checks) == 1  # the closed one was checked, and dropped


def test_after_a_database_restart_the_pool_tries_again_every_second(django_db_blocker):
    """A pool whose database refuses connections (being restarted) tries again
    every second, not after 1, 2, 4, 8 s..., so the site is back within about a
    second of its database (scripts/outage)."""
    listener = socket.create_server(("127.0.0.1", 0))
    attempts: list[float] = []

    def refuse():  # a server that hangs up at once, as one shutting down does
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            attempts.append(time.monotonic())
            client.close()

    threading.Thread(target=refuse, daemon=True).start()
    handler = ConnectionHandler(
        {
            "default": {
                "ENGINE": "tttsite.postgresql",
                "NAME": "postgres",
                "USER": "postgres",
                "HOST": "127.0.0.1",
                "PORT": listener.getsockname()[1],
                "OPTIONS": {"pool": {"min_size": 1, "max_size": 1, "timeout": 1}},
            }
        }
    )
    connection = handler["default"]
    try:
        with django_db_blocker.unblock():
            connection.pool.open(wait=False)
            time.sleep(6.5)
        gaps = [later - earlier for earlier, later in zip(attempts, attempts[1:], strict=False)]
        # psycopg-pool's own backoff would have tried three times by now (0, 1, 3 s).
        assert len(attempts) >= 6, gaps
        assert max(gaps) < 1.5, gaps
    finally:
        listener.close()
        connection.close_pool()
