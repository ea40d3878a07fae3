"""Sign-in lockout: what a locked-out client is told, and for how long.

django-axes counts the failed sign-ins and decides who is locked out
(settings.AXES_*). This module only words its answer: the styled page the
login forms give (settings.AXES_LOCKOUT_CALLABLE) and the time left that the
API's JSON refusal carries (services.auth_token_issue).
"""

from __future__ import annotations

import math

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_cool_off
from django.conf import settings
from django.shortcuts import render
from django.utils import timezone


def seconds_left(request, credentials: dict | None = None) -> int:
    """Seconds until the lock on this client lifts (at least 1): the cool-off
    counted from its latest failure. ``request`` is one axes has looked at
    (it went through ``authenticate``)."""
    cool_off = get_cool_off(request)  # never None here: settings.AXES_COOLOFF_TIME is set
    latest = None
    # The database handler keeps the attempts; another handler would not say
    # when they were, and the whole cool-off is the honest answer then.
    handler = AxesProxyHandler.get_implementation()
    if hasattr(handler, "get_user_attempts"):
        for attempts in handler.get_user_attempts(request, credentials):
            for attempt_time in attempts.values_list("attempt_time", flat=True):
                latest = attempt_time if latest is None else max(latest, attempt_time)
    left = cool_off if latest is None else latest + cool_off - timezone.now()
    return max(1, math.ceil(left.total_seconds()))


def message(seconds: int) -> str:
    """The sentence a locked-out person reads, in whole minutes rounded up."""
    minutes = max(1, math.ceil(seconds / 60))
    return f"Too many failed sign-ins. Try again in {minutes} minute{'' if minutes == 1 else 's'}."


def lockout_page(request, original_response=None, credentials: dict | None = None):
    """settings.AXES_LOCKOUT_CALLABLE: the page a locked-out sign-in gets instead
    of the login form, with the status and Retry-After a client can act on."""
    seconds = seconds_left(request, credentials)
    response = render(
        request,
        "registration/locked_out.html",
        {"message": message(seconds), "minutes": max(1, math.ceil(seconds / 60))},
        status=settings.AXES_HTTP_RESPONSE_CODE,
    )
    response["Retry-After"] = str(seconds)
    return response
