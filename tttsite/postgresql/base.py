"""Django's PostgreSQL backend, whose pool checks a connection before lending
it only when PostgreSQL has said something on it.

Django's pool with ``CONN_HEALTH_CHECKS`` has psycopg's pool send an empty
query on each connection before lending it, so that none PostgreSQL closed
(a restart, an administrator ending it) reaches a request. That round trip
cost an API move about 0.4 ms of its 3 of CPU (docs/benchmarks.md). But an
idle connection that PostgreSQL closes is told so first, and its socket
becomes readable: here the pool sends its query only on such a connection
(and drops it when the query fails, as before); one nobody spoke to since it
was last used is lent at once. What no check short of a round trip sees, a
network that dropped the connection silently, fails that one request (503, as
while the database is down), and the connection is not lent again.

psycopg's pool takes its check when it is made, and Django makes it with
``ConnectionPool.check_connection``; the pool keeps it as ``_check``, which is
where this puts the narrower one (psycopg-pool is pinned in requirements.txt,
and tests/web/test_postgresql_pool.py fails if that changes).
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool


def spoken_to(connection) -> bool:
    """Whether PostgreSQL has sent anything on this idle ``connection``: on an
    idle connection, only ever that it is being (or has been) closed."""
    try:
        readable, _, _ = select.select([connection.fileno()], [], [], 0)
    except (OSError, ValueError):  # closed on this side already
        return True
    return bool(readable)


def check_if_spoken_to(connection) -> None:
    """psycopg's check (an empty query, raising if the connection is dead),
    made only when PostgreSQL has spoken to ``connection``."""
    if spoken_to(connection):
        ConnectionPool.check_connection(connection)


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self):
        pool = super().pool
        if pool is not None and pool._check is ConnectionPool.check_connection:
            pool._check = check_if_spoken_to
        return pool
