"""Guests' budget for the learning pages that set the engine to work.

A page like the analysis board runs a search on every request, so a client
that is not signed in may ask for so many a minute (``LEARN_RATE_ANON``,
default 60/min, counted per page and per address), like the API's anonymous
analysis. Past it the page answers 429 with the site's own message and a
Retry-After; signing in lifts the limit. The counts live in Django's cache
(shared by every server process when Redis carries it); while the cache is
down nobody is limited: the budget protects the engine, it must never stop
the site.
"""

from __future__ import annotations

import math
import time
from contextlib import suppress
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.shortcuts import render

from games.serving import outages
from games.serving.clients import client_address

DEFAULT_RATE = "60/min"
_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """ "60/min" -> (60, 60): requests allowed, per so many seconds (as DRF reads its rates)."""
    count, period = rate.split("/")
    return int(count), _PERIODS[period.strip()[0]]


def seconds_to_wait(request, page: str) -> int | None:
    """None when this request is within its budget (and counts it); else the
    seconds until the budget starts again. Signed-in people have no limit."""
    if request.user.is_authenticated:
        return None
    allowed, period = parse_rate(getattr(settings, "LEARN_RATE_ANON", DEFAULT_RATE))
    now = time.time()
    window = int(now // period)
    key = f"learn:rate:{page}:{client_address(request)}:{window}"
    with suppress(*outages.REDIS_DOWN):
        cache.add(key, 0, timeout=period + 1)
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr: a new window
            cache.set(key, 1, timeout=period + 1)
            count = 1
        if count > allowed:
            return max(1, math.ceil((window + 1) * period - now))
    return None


def limited_for_guests(page: str):
    """A page view decorator: past the guests' budget, the styled 429 page instead."""

    def decorate(view):
        @wraps(view)
        def limited(request, *args, **kwargs):
            wait = seconds_to_wait(request, page)
            if wait is None:
                return view(request, *args, **kwargs)
            response = render(request, "learn/rate_limited.html", {"seconds": wait}, status=429)
            response["Retry-After"] = str(wait)
            return response

        return limited

    return decorate
