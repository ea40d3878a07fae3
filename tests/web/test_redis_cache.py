"""The production cache: Redis, with one connection pool per process.

Needs Redis at 127.0.0.1:6379 (or TEST_REDIS_URL); one that does not answer fails.
"""

import os
import threading

from tttsite.cache import ProcessWideRedisCache

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/13")


def cache():
    return ProcessWideRedisCache(REDIS_URL, {"OPTIONS": {"socket_connect_timeout": 1}})


def test_values_set_through_one_cache_object_are_read_through_another():
    cache().set("shared-key", "a value", timeout=10)
    assert cache().get("shared-key") == "a value"


def test_cache_objects_made_in_different_threads_share_one_connection_pool_and_client():
    pools, clients = [], []

    def request():  # each request has a cache object of its own, as Django gives one per context
        client = cache()._cache
        client.get_client("any-key").ping()
        pools.append(client._get_connection_pool(write=False))
        clients.append(client.get_client("another-key"))

    threads = [threading.Thread(target=request) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(pools) == 8 and len({id(pool) for pool in pools}) == 1
    assert len({id(client) for client in clients}) == 1
