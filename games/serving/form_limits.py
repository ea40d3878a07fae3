"""A budget per client for the forms that take input: signing in, signing up,
asking for a password reset, offering a challenge.

Each sends so many POSTs a period (``settings.FORM_RATES``, counted per
signed-in user, else per address) and past that the styled 429 page with a
Retry-After; reading the forms is never limited. The budgets are DRF's
throttles, as the API's are (games/api/throttles.py), counted in Django's
cache. django-axes still locks a username out after failed sign-ins; this
limit also stops one client trying many usernames, or filling someone's
mailbox with reset links.
"""

from __future__ import annotations

import math
from functools import wraps

from django.conf import settings
from django.shortcuts import render
from rest_framework import throttling

from games.serving.clients import client_address

#: What each form is called on the 429 page.
FORMS = {
    "signin": "signing in",
    "signup": "signing up",
    "password_reset": "password reset requests",
    "challenge": "challenges",
}


class FormThrottle(throttling.SimpleRateThrottle):
    """POSTs to one form, per signed-in user, else per address."""

    def __init__(self, form: str):
        self.scope = form
        super().__init__()

    def get_rate(self):
        return settings.FORM_RATES[self.scope]

    def get_cache_key(self, request, view):
        user = getattr(request, "user", None)
        ident = f"user-{user.pk}" if user is not None and user.is_authenticated else client_address(request)
        return self.cache_format % {"scope": f"form-{self.scope}", "ident": ident}


def limit_posts(form: str):
    """A view decorator: past the client's budget of POSTs to ``form``, the
    429 page saying how long to wait, and the view is not run."""

    def decorate(view):
        @wraps(view)
        def limited(request, *args, **kwargs):
            if request.method != "POST":
                return view(request, *args, **kwargs)
            throttle = FormThrottle(form)
            if throttle.allow_request(request, view):
                return view(request, *args, **kwargs)
            wait = max(1, math.ceil(throttle.wait() or 1))
            response = render(
                request,
                "games/form_rate_limited.html",
                {"what": FORMS[form], "seconds": wait, "minutes": math.ceil(wait / 60)},
                status=429,
            )
            response["Retry-After"] = str(wait)
            return response

        return limited

    return decorate
