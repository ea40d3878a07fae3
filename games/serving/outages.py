"""What it looks like when a service behind the site stops: PostgreSQL (or a
locked SQLite file) or Redis (the cache the API's rate limits count in, and the
channel layer of live games).

Such a failure is not a bug in a request: it is answered with 503 and
Retry-After, the same way on pages (games/middleware.py), in the API
(games/api/exceptions.py) and on WebSockets (games/consumers.py), and nothing
needs restarting once the service is back. Django reconnects to the database
on the next request (PostgreSQL's pool checks a connection before lending it;
SQLite opens one per request), redis-py to Redis on the next command.
"""

from __future__ import annotations

import logging

from django.db.utils import InterfaceError, OperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

#: Seconds a client is asked to wait before trying again (the Retry-After header).
RETRY_AFTER = 5

# Django wraps every database driver's errors in these: "connection refused"
# from psycopg, "server closed the connection unexpectedly", SQLite's "database
# is locked" after its timeout.
DATABASE_DOWN = (OperationalError, InterfaceError)
REDIS_DOWN = (RedisConnectionError, RedisTimeoutError)

MESSAGES = {
    "database": "The database is not answering; try again in a few seconds.",
    "redis": "Redis is not answering; try again in a few seconds.",
}


def service_down(error: BaseException | None) -> str | None:
    """The service an exception says is down ("database" or "redis"), or None
    when the exception is anything else (a bug stays a 500)."""
    if isinstance(error, DATABASE_DOWN):
        return "database"
    if isinstance(error, REDIS_DOWN):
        return "redis"
    return None


def describe(error: BaseException) -> str:
    """One log line about the failure, without a traceback: a stopped service
    fails every request the same way, and a page of frames per request would
    bury everything else in the log."""
    first_line = (str(error).strip().splitlines() or [""])[0]
    return f"{type(error).__module__}.{type(error).__qualname__}: {first_line}"


class NotAnOutage(logging.Filter):
    """A logging filter (settings.LOGGING) that lets through everything but
    the lines about a stopped service: those logged with ``extra=OUTAGE``
    and Django's own line for each 503 response."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not getattr(record, "outage", False) and getattr(record, "status_code", None) != 503


#: The ``extra`` of a log line about a stopped service.
OUTAGE = {"outage": True}
