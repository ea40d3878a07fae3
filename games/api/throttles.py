"""Rate limits per signed-in user and per anonymous client, with rates from settings.

DRF's throttles copy the rates when their module is imported, so a test that
overrides REST_FRAMEWORK (or a deployment reading rates late) would not be
heard; these read the current settings on every request.

An anonymous client is known by ``games.serving.clients.client_address``, not
by DRF's own reading of X-Forwarded-For, which believes whoever sends it.

On Redis (production) a client's recent requests are a sorted set of their
times, which one script trims, counts and adds to: one round trip a request.
DRF's own way reads the list of times, then writes it back, pickled (up to a
rate's worth of times): two round trips, and on a move against the AI about a
tenth of the server's CPU (docs/benchmarks.md). The limit is the same sliding
window, and a refusal's Retry-After is DRF's. With any other cache (memory,
in development and the tests) DRF's own way is used.
"""

from __future__ import annotations

import itertools
import os

from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache.backends.redis import RedisCache
from rest_framework import throttling
from rest_framework.settings import api_settings

from games.serving.clients import client_address

# KEYS[1]: the client's set; ARGV: now, window (s), limit, this request's member.
# Returns {1} when the request is let through (and counted), else
# {0, requests in the window, the oldest one's time}.
_SLIDING_WINDOW = """
local now, window = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count >= tonumber(ARGV[3]) then
  return {0, count, redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]}
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], math.ceil(window * 1000))
return {1}
"""

_members = itertools.count()
_script = None  # redis-py's Script: sent to Redis once, then run by its digest


class _CurrentRates:
    @property
    def THROTTLE_RATES(self):  # noqa: N802 - the name DRF reads
        return api_settings.DEFAULT_THROTTLE_RATES

    def get_ident(self, request):
        return client_address(request)


class _OneRoundTripOnRedis(throttling.SimpleRateThrottle):
    """The sliding window in one script on Redis; DRF's own way on other caches.
    Last among a throttle's bases, so a scoped throttle picks its rate first."""

    def allow_request(self, request, view):
        cache = caches[DEFAULT_CACHE_ALIAS]
        self.refused = None
        if self.rate is None or not isinstance(cache, RedisCache):
            return super().allow_request(request, view)
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        key = cache.make_and_validate_key(self.key)
        client = cache._cache.get_client(key, write=True)
        global _script
        if _script is None:
            _script = client.register_script(_SLIDING_WINDOW)
        self.now = self.timer()
        member = f"{self.now!r}:{os.getpid()}:{next(_members)}"
        answer = _script(keys=[key], args=[repr(self.now), self.duration, self.num_requests, member], client=client)
        if answer[0] == 1:
            return True
        self.refused = (int(answer[1]), float(answer[2]))
        return self.throttle_failure()

    def wait(self):
        if self.refused is None:
            return super().wait()
        # DRF's wait() from the same two figures it reads off its list of times.
        count, oldest = self.refused
        available = self.num_requests - count + 1
        return None if available <= 0 else (self.duration - (self.now - oldest)) / available


class AnonRateThrottle(_CurrentRates, throttling.AnonRateThrottle, _OneRoundTripOnRedis):
    """Anonymous clients, by IP address: the ``anon`` rate."""


class UserRateThrottle(_CurrentRates, throttling.UserRateThrottle, _OneRoundTripOnRedis):
    """Signed-in users, by account: the ``user`` rate."""


class ScopedRateThrottle(_CurrentRates, throttling.ScopedRateThrottle, _OneRoundTripOnRedis):
    """A view's own budget (``throttle_scope``), per user or per anonymous client."""
