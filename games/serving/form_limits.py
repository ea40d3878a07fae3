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
from functools import wraps

from django.conf import settings
from django.shortcuts import render

from games.serving import rate_windows

#: What each form is called on the 429 page.
FORMS = {
    "signin": "signing in",
    "signup": "signing up",
    "password_reset": "password reset requests",
    "challenge": "challenges",
}


def seconds_to_wait(request, form: str) -> int | None:
    """None when this post is within the client's budget (and counts it);
    else the seconds until the budget starts again."""
    return rate_windows.seconds_to_wait(f"forms:{form}:{rate_windows.client_key(request)}", settings.FORM_RATES[form])


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
