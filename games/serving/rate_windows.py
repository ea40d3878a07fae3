"""Budgets of so many actions a period per client, counted in Django's cache.

One fixed window per period: the count of ``key`` in the current window, kept
in the cache (shared by every server process when Redis carries it), expires
with the window. While the cache is down nobody is limited. The forms that
take input (games/serving/form_limits.py) keep their budgets with it.
"""

from __future__ import annotations

import math
import time
from contextlib import suppress

from django.core.cache import cache

from games.serving import outages
from games.serving.clients import client_address

_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """ "20/min" -> (20, 60): actions allowed, per so many seconds (as DRF reads its rates)."""
    count, period = rate.split("/")
    return int(count), _PERIODS[period.strip()[0]]


def period_words(seconds: int) -> str:
    """ "minute" for 60: the period of a rate, in words."""
    return {1: "second", 60: "minute", 3600: "hour", 86400: "day"}.get(seconds, f"{seconds} seconds")


def client_key(request) -> str:
    """Who a request counts against: the signed-in account, else the client's
    address (believed from a proxy only when it is a trusted one)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return f"addr:{client_address(request)}"


def seconds_to_wait(key: str, rate: str) -> int | None:
    """Count one more action against ``key``'s budget of ``rate``: None while
    within it, else the seconds until the window turns."""
    allowed, period = parse_rate(rate)
    now = time.time()
    window = int(now // period)
    counter = f"rate:{key}:{window}"
    with suppress(*outages.REDIS_DOWN):
        cache.add(counter, 0, timeout=period + 1)
        try:
            count = cache.incr(counter)
        except ValueError:  # expired between add and incr: a new window
            cache.set(counter, 1, timeout=period + 1)
            count = 1
        if count > allowed:
            return max(1, math.ceil((window + 1) * period - now))
    return None
