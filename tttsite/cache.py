"""Django's Redis cache with one connection pool per process.

Django keeps a cache object per request context, and under ASGI every
request is a context of its own: with the stock backend each request built a
new connection pool and opened a new connection to Redis (a TCP handshake
and a HELLO) just for the API's rate limit. Under load that was the largest
single cost of a move. Here every cache object of a process shares one
client, whose redis-py pool is thread-safe, so connections are opened once
and reused.
"""

from __future__ import annotations

import threading

from django.core.cache.backends.redis import RedisCache
from django.utils.functional import cached_property

_clients: dict = {}
_clients_lock = threading.Lock()


class ProcessWideRedisCache(RedisCache):
    @cached_property
    def _cache(self):
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _clients_lock:
            if key not in _clients:
                _clients[key] = self._class(self._servers, **self._options)
            return _clients[key]
