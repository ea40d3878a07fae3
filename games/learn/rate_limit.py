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

from functools import wraps

from django.conf import settings
from django.shortcuts import render

from games.errors import EngineRefused
from games.serving import rate_windows
from games.serving.clients import client_address
from games.serving.http import status_of

DEFAULT_RATE = "60/min"


def seconds_to_wait(request, page: str) -> int | None:
    """None when this request is within its budget (and counts it); else the
    seconds until the budget starts again. Signed-in people have no limit."""
    if request.user.is_authenticated:
        return None
    return rate_windows.seconds_to_wait(
        f"learn:{page}:{client_address(request)}", getattr(settings, "LEARN_RATE_ANON", DEFAULT_RATE)
    )


def limited_for_guests(page: str):
    """A page view decorator: past the guests' budget, the styled 429 page
    instead; a search the engine budget refuses, that page with its reason
    (429, or 503 when the engine is busy)."""

    def decorate(view):
        @wraps(view)
        def limited(request, *args, **kwargs):
            wait = seconds_to_wait(request, page)
            if wait is None:
                try:
                    return view(request, *args, **kwargs)
                except EngineRefused as refusal:  # the engine budget (games/serving/engine_budget.py)
                    return _refused(request, refusal.retry_after, refusal.message, status_of(refusal))
            return _refused(request, wait)

        return limited

    return decorate


def _refused(request, wait: int, message: str = "", status: int = 429):
    response = render(
        request,
        "learn/rate_limited.html",
        {"seconds": wait, "message": message, "response_status": status},
        status=status,
    )
    response["Retry-After"] = str(wait)
    return response
