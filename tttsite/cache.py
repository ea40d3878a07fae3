"""Django's Redis cache with one connection pool per process.

Django keeps a cache object per request context, and under ASGI every
request is a context of its own: with the stock backend each request built a
new connection pool and opened a new connection to Redis (a TCP handshake
and a HELLO) just for the API's rate limit. Under load that was the largest
single cost of a move. Here every cache object of a process shares one
client, whose redis-py pool is thread-safe, so connections are opened once
and reused. The redis-py client object is kept too: building one copies its
table of some two hundred reply parsers, which Django's client did for every
cache call (twice per API request, for the rate limit).
"""

from __future__ import annotations

import threading

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property

_clients: dict = {}
_clients_lock = threading.Lock()


class _ReusedClients(RedisCacheClient):
    """Django's client, handing out one redis-py client per pool (they are thread-safe)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._redis_clients: dict = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._redis_clients.get(index)
        if client is None:
            with _clients_lock:
                client = self._redis_clients.setdefault(
                    index, self._client(connection_pool=self._get_connection_pool(write))
                )
        return client


class ProcessWideRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _ReusedClients

    @cached_property
    def _cache(self):
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _clients_lock:
            if key not in _clients:
                _clients[key] = self._class(self._servers, **self._options)
            return _clients[key]
