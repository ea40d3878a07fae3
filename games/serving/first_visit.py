"""Pages a first visit sees, rendered once a few seconds and kept in Django's cache.

A visitor who brings no cookie (or only the CSRF cookie) is nobody yet: no
session, so no account, no guest games, no messages. Every such visitor sees
the same page but for the CSRF token in its forms. ``for_first_visits`` keeps
a view's answer to them in the cache for ``seconds``, rendered
with a placeholder where the token goes; each visit gets the page with a token
of its own from Django's ``get_token`` put in, which also sets the CSRF cookie,
as rendering ``{% csrf_token %}`` would. Anyone with a session, and any
request with a query string, gets the view itself.
"""

from __future__ import annotations

import secrets
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.middleware.csrf import get_token

#: Stands in for the CSRF token while a page is rendered for keeping; kept
#: with the page, since each server process has its own.
PLACEHOLDER = "first-visit-csrf-" + secrets.token_hex(16)


def csrf_placeholder(request) -> dict:
    """Context processor: the placeholder as ``csrf_token`` while a page is
    rendered for keeping (it comes after Django's own csrf processor, so wins)."""
    return {"csrf_token": PLACEHOLDER} if getattr(request, "_rendering_for_first_visits", False) else {}


def is_first_visit(request) -> bool:
    return (
        request.method in ("GET", "HEAD")
        and not request.META.get("QUERY_STRING")
        and not (request.COOKIES.keys() - {settings.CSRF_COOKIE_NAME})
    )


def for_first_visits(seconds: float):
    """View decorator: the view's 200 for a first visit, kept ``seconds`` in the cache."""

    def decorator(view):
        name = f"{view.__module__}.{view.__qualname__}"

        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if not is_first_visit(request):
                return view(request, *args, **kwargs)
            key = f"first-visit:{name}:{request.build_absolute_uri()}"
            page = cache.get(key)
            if page is None:
                request._rendering_for_first_visits = True
                try:
                    response = view(request, *args, **kwargs)
                finally:
                    request._rendering_for_first_visits = False
                if response.status_code != 200 or response.cookies or getattr(response, "streaming", False):
                    return response
                page = (response.content, response["Content-Type"], PLACEHOLDER)
                cache.set(key, page, timeout=seconds)
            content, content_type, placeholder = page
            return HttpResponse(content.replace(placeholder.encode(), get_token(request).encode()), content_type)

        return wrapper

    return decorator
