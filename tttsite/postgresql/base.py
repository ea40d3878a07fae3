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

A pool whose connections PostgreSQL closed (a restart) makes new ones in the
background, waiting 1 s after a failed attempt, then twice as long each time
(2, 4, 8, 16 s...); requests meanwhile wait for a connection and, after the
pool's timeout, get a 503. After a restart of a few seconds, scripts/outage saw
the site back within a second or two of PostgreSQL, and in some runs only 25
to 28 s after it. Here every attempt follows the last by at most
``RECONNECT_EVERY``: a refused connection costs next to nothing, and the site is
back within about that long of its database.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool
from psycopg_pool import pool as psycopg_pools
from psycopg_pool.base import AttemptWithBackoff

#: The longest a pool waits between two attempts to connect.
RECONNECT_EVERY = 1.0


class SteadyAttempts(AttemptWithBackoff):
    """psycopg-pool's attempts to connect, never more than ``RECONNECT_EVERY`` apart."""

    def update_delay(self, now: float) -> None:
        super().update_delay(now)  # which also gives up after the pool's reconnect_timeout
        self.delay = min(self.delay, RECONNECT_EVERY)


# The name psycopg_pool.pool makes each attempt with (its own import of the class).
psycopg_pools.AttemptWithBackoff = SteadyAttempts


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
