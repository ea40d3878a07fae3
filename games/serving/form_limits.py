"""A budget per client for the forms that take input: signing in, signing up,
asking for a password reset, offering a challenge.

Each sends so many POSTs a period (``settings.FORM_RATES``, counted per
signed-in user, else per address) and past that the styled 429 page with a
Retry-After; reading the forms is never limited. django-axes still locks a
username out after failed sign-ins; this limit also stops one client trying
many usernames, or filling someone's mailbox with reset links. The counts live
in Django's cache (shared by every server process when Redis carries it);
while the cache is down nobody is limited. Chat has its own limit per player
and game (games/play/chat_services.py).
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

_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}

#: What each form is called on the 429 page.
FORMS = {
    "signin": "signing in",
    "signup": "signing up",
    "password_reset": "password reset requests",
    "challenge": "challenges",
}


def _rate(form: str) -> tuple[int, int]:
    """ "20/min" -> (20, 60): posts allowed, per so many seconds."""
    count, period = settings.FORM_RATES[form].split("/")
    return int(count), _PERIODS[period.strip()[0]]


def _client(request) -> str:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return f"addr:{request.META.get('REMOTE_ADDR', '')}"


def seconds_to_wait(request, form: str) -> int | None:
    """None when this post is within the client's budget (and counts it);
    else the seconds until the budget starts again."""
    allowed, period = _rate(form)
    now = time.time()
    window = int(now // period)
    key = f"forms:rate:{form}:{_client(request)}:{window}"
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


def limit_posts(form: str):
    """A view decorator: past the client's budget of POSTs to ``form``, the
    429 page saying how long to wait, and the view is not run."""

    def decorate(view):
        @wraps(view)
        def limited(request, *args, **kwargs):
            wait = seconds_to_wait(request, form) if request.method == "POST" else None
            if wait is None:
                return view(request, *args, **kwargs)
            minutes = math.ceil(wait / 60)
            response = render(
                request,
                "games/form_rate_limited.html",
                {"what": FORMS[form], "seconds": wait, "minutes": minutes},
                status=429,
            )
            response["Retry-After"] = str(wait)
            return response

        return limited

    return decorate
