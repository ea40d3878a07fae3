"""A budget per client for each action that writes on someone's behalf:
signing in, signing up, asking for a password reset, challenging (rematch
offers included), offering a draw or a takeback, asking for a quick game (or
cancelling one).

Each action has one budget (``settings.ACTION_RATES``, counted per signed-in
user, else per address), whichever way it comes: a page's form
(:func:`limit_posts`, past it the styled 429 page) or the API
(:meth:`ActionThrottle.for_action` among a view's DRF throttles, past it a 429
``throttled``), both with Retry-After. Reading is never limited. The budgets
are DRF's throttles, counted in Django's cache. django-axes still locks a
username out after failed sign-ins; this limit also stops one client trying
many usernames, or filling someone's mailbox with reset links, or an
opponent's screen with offers.
"""

from __future__ import annotations

import math
from functools import wraps

from django.conf import settings
from django.shortcuts import render
from rest_framework import throttling

from games.serving.clients import client_address

#: What each action is called on the 429 page.
ACTIONS = {
    "signin": "signing in",
    "signup": "signing up",
    "password_reset": "password reset requests",
    "challenge": "challenges",
    "offer": "draw offers and takebacks",
    "pairing": "quick game requests",
}

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


class ActionThrottle(throttling.SimpleRateThrottle):
    """One action's writes, per signed-in user, else per address."""

    action = ""

    def __init__(self, action: str | None = None):
        if action is not None:
            self.action = action
        self.scope = self.action
        super().__init__()

    @classmethod
    def for_action(cls, action: str) -> type[ActionThrottle]:
        """The throttle class an API view lists for ``action`` (DRF makes its
        throttles without arguments)."""
        return type(f"{action.title().replace('_', '')}Throttle", (cls,), {"action": action})

    def get_rate(self):
        return settings.ACTION_RATES[self.action]

    def allow_request(self, request, view):
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)

    def get_cache_key(self, request, view):
        user = getattr(request, "user", None)
        ident = f"user-{user.pk}" if user is not None and user.is_authenticated else client_address(request)
        return self.cache_format % {"scope": f"action-{self.action}", "ident": ident}


def limit_posts(action: str):
    """A view decorator: past the client's budget for ``action``, a POST gets
    the 429 page saying how long to wait, and the view is not run."""

    def decorate(view):
        @wraps(view)
        def limited(request, *args, **kwargs):
            throttle = ActionThrottle(action)
            if request.method != "POST" or throttle.allow_request(request, view):
                return view(request, *args, **kwargs)
            wait = max(1, math.ceil(throttle.wait() or 1))
            response = render(
                request,
                "games/form_rate_limited.html",
                {"what": ACTIONS[action], "seconds": wait, "minutes": math.ceil(wait / 60)},
                status=429,
            )
            response["Retry-After"] = str(wait)
            return response

        return limited

    return decorate
