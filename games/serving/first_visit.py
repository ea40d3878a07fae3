"""Pages a first visit sees, rendered once a few seconds and served from memory.

A visitor who brings no cookie (or only the CSRF cookie) is nobody yet: no
session, so no account, no guest games, no messages. Every such visitor sees
the same page but for the CSRF token in its forms. ``for_first_visits`` keeps
a view's answer to them in the process's memory for ``seconds``, rendered
with a placeholder where the token goes; each visit gets the page with its own
token put in (and the CSRF cookie set, as rendering ``{% csrf_token %}``
would). Anyone with a session, and any request with a query string, gets the
view itself.

The front page is what most visitors open first, and rendering it costs ten
times what serving it from here does (docs/benchmarks.md, issue 19).

Then the token itself was a quarter of what such a visit cost:
Django draws a new CSRF secret and the mask that hides it in the page one
character at a time, one read of the OS's random source per character, 64 in
all. ``first_visit_token`` makes the same token (the secret kept for the
cookie, a fresh mask for the page, as ``django.middleware.csrf.get_token``)
from one read of 80 random bytes. Django's CSRF middleware still checks it.
"""

from __future__ import annotations

import secrets
import time
from functools import wraps

from django.conf import settings
from django.http import HttpResponse
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH, get_token

#: Stands in for the CSRF token while a page is rendered for keeping.
PLACEHOLDER = "first-visit-csrf-" + secrets.token_hex(16)

#: The kept pages: by view, scheme, host (one of ALLOWED_HOSTS) and path, (until, content, content type).
_kept: dict[tuple[str, str], tuple[float, bytes, str]] = {}


#: Byte -> its character of CSRF_ALLOWED_CHARS (byte mod 62), and the bytes no
#: character is drawn from: 248 to 255, the remainder of 256 = 4 * 62 + 8, so
#: that every character is equally likely.
_CHARACTERS = len(CSRF_ALLOWED_CHARS)
_AS_CHARACTER = bytes(ord(CSRF_ALLOWED_CHARS[byte % _CHARACTERS]) for byte in range(256))
_UNUSED = bytes(range(256 - 256 % _CHARACTERS, 256))
_INDEX = {character: index for index, character in enumerate(CSRF_ALLOWED_CHARS)}


def _random_characters(count: int) -> str:
    """``count`` characters of CSRF_ALLOWED_CHARS, each drawn uniformly and
    independently from the OS's random source, as Django's
    ``get_random_string`` draws them, but in one read."""
    drawn = b""
    while len(drawn) < count:  # 8 of 256 bytes are not used: 80 read for 64 nearly always suffice
        drawn += secrets.token_bytes(count + 16).translate(_AS_CHARACTER, _UNUSED)
    return drawn[:count].decode("ascii")


def first_visit_token(request) -> str:
    """The CSRF token for a page to ``request``, as Django's ``get_token`` makes
    it: the visitor's secret (a new one, sent as the CSRF cookie, when they
    brought none) masked by a new random mask, so no two pages show the same
    token (BREACH)."""
    secret = request.META.get("CSRF_COOKIE")
    if secret is not None and len(secret) != CSRF_SECRET_LENGTH:  # not one Django's middleware let through
        return get_token(request)
    drawn = _random_characters(2 * CSRF_SECRET_LENGTH if secret is None else CSRF_SECRET_LENGTH)
    if secret is None:
        secret = drawn[CSRF_SECRET_LENGTH:]
    request.META["CSRF_COOKIE"] = secret
    request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True
    mask = drawn[:CSRF_SECRET_LENGTH]
    cipher = "".join(
        CSRF_ALLOWED_CHARS[(_INDEX[s] + _INDEX[m]) % _CHARACTERS] for s, m in zip(secret, mask, strict=True)
    )
    return mask + cipher


def forget() -> None:
    """Drop every kept page (the tests do, between tests)."""
    _kept.clear()


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
    """View decorator: the view's 200 for a first visit, kept ``seconds`` in this process."""

    def decorator(view):
        name = f"{view.__module__}.{view.__qualname__}"

        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if not is_first_visit(request):
                return view(request, *args, **kwargs)
            now, key = time.monotonic(), (name, request.build_absolute_uri())
            page = _kept.get(key)
            if page is None or page[0] <= now:
                request._rendering_for_first_visits = True
                try:
                    response = view(request, *args, **kwargs)
                finally:
                    request._rendering_for_first_visits = False
                if response.status_code != 200 or response.cookies or getattr(response, "streaming", False):
                    return response
                page = (now + seconds, response.content, response["Content-Type"])
                _kept[key] = page
            _, content, content_type = page
            return HttpResponse(
                content.replace(PLACEHOLDER.encode(), first_visit_token(request).encode()), content_type
            )

        return wrapper

    return decorator
