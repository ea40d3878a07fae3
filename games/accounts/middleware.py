"""Django's AuthenticationMiddleware, whose user is looked up with the one
the session's read brought along (games/accounts/sessions.py,
games/accounts/backends.py): a signed-in request reads its session and its
user in one statement, not two."""

from __future__ import annotations

from django.contrib import auth
from django.contrib.auth import middleware
from django.utils.functional import SimpleLazyObject

from games.accounts import backends


def get_user(request):
    """Django's ``get_user`` of the middleware: ``auth.get_user``, once a request."""
    if not hasattr(request, "_cached_user"):
        with backends.reading(request.session):
            request._cached_user = auth.get_user(request)
    return request._cached_user


class AuthenticationMiddleware(middleware.AuthenticationMiddleware):
    def process_request(self, request):
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: get_user(request))
