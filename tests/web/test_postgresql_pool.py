"""PostgreSQL's connections as the site's settings pool them: never one that
PostgreSQL closed, and the site back within seconds of its database.

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

POSTGRES = urlsplit(os.environ.get("MIGRATE_TEST_POSTGRES", "postgres://postgres@127.0.0.1:5432"))
HOST, PORT = POSTGRES.hostname or "127.0.0.1", POSTGRES.port or 5432


def pooled_connection(port: int, **pool):
    """The site's connection to the "postgres" database on ``port``, its pool as
    tttsite/settings.py makes it unless ``pool`` says otherwise."""
    options = {"min_size": 1, "max_size": 1, "timeout": 5, "reconnect_timeout": 2, **pool}
    handler = ConnectionHandler(
        {
            "default": {
                "ENGINE": "django.db.backends.postgresql",
                "NAME": "postgres",
                "USER": POSTGRES.username or "postgres",
                "PASSWORD": POSTGRES.password or "",
                "HOST": HOST,
                "PORT": port,
                "CONN_MAX_AGE": 0,
                "CONN_HEALTH_CHECKS": True,
                "OPTIONS": {"pool": options},
            }
        }
    )
    return handler["default"]


def backend_pid(connection) -> int:
    """The PostgreSQL process serving ``connection`` for one request (then lent back)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    connection.close()  # the request ends: back to the pool
    return pid


def test_a_connection_postgresql_closed_is_never_lent(django_db_blocker):
    pooled = pooled_connection(PORT)
    with django_db_blocker.unblock():
        try:
            first = backend_pid(pooled)
            with psycopg.connect(
                host=HOST,
                port=PORT,
                user=POSTGRES.username or "postgres",
                password=POSTGRES.password or None,
                dbname="postgres",
                autocommit=True,
            ) as admin:
                # What a restart or an administrator does to a connection idle in the pool;
                # with a timeout, PostgreSQL answers once that backend has exited.
                ended = admin.execute("SELECT pg_terminate_backend(%s, 10000)", [first]).fetchone()[0]
            assert ended

            second = backend_pid(pooled)  # a request after it: answered, on a new connection

            assert second != first
        finally:
            pooled.close_pool()


class Outage:
    """An address for PostgreSQL that, while down, hangs up on every connection
    at once (as a server being restarted does) and, once up, relays to it."""

    def __init__(self):
        self.up = False
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            upstream = socket.create_connection((HOST, PORT))
            for source, target in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._relay, args=(source, target), daemon=True).start()

    @staticmethod
    def _relay(source, target):
        try:
            while data := source.recv(65536):
                target.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, target):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self):
        self.listener.close()


def test_after_an_outage_the_site_has_its_database_again_within_seconds(django_db_blocker):
    """Ten seconds without PostgreSQL, requests arriving all along (each waits
    for a connection, then fails: a 503 page): once it is back, a request is
    answered within a few seconds, not after psycopg-pool's ever longer waits
    between attempts (1, 2, 4, 8 s...)."""
    outage = Outage()
    pooled = pooled_connection(outage.port, timeout=1)
    with django_db_blocker.unblock():
        try:
            pooled.pool.open(wait=False)
            down_until = time.monotonic() + 10
            while time.monotonic() < down_until:
                with pytest.raises(Exception):  # noqa: B017 (the pool's timeout, as Django raises it)
                    backend_pid(pooled)
            outage.up = True
            back = time.monotonic()
            while True:
                try:
                    backend_pid(pooled)
                    break
                except Exception:  # noqa: BLE001 (still reconnecting)
                    assert time.monotonic() - back < 10, "the database is back but the site is not"
            assert time.monotonic() - back < 3
        finally:
            outage.close()
            pooled.close_pool()
