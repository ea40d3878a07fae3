"""Who is calling: a token for programs, the browser's session (with CSRF) for pages."""

from __future__ import annotations

from drf_spectacular.authentication import SessionScheme
from rest_framework import authentication, exceptions


class CsrfFailed(exceptions.PermissionDenied):
    default_detail = "CSRF check failed."
    default_code = "csrf_failed"


class SessionAuthentication(authentication.SessionAuthentication):
    """DRF's session authentication, whose CSRF refusal says so in its code:
    a page's script can tell a stale token from a forbidden action."""

    def enforce_csrf(self, request):
        try:
            super().enforce_csrf(request)
        except exceptions.PermissionDenied as error:
            raise CsrfFailed(str(error.detail)) from None


class SessionSchemeForSubclass(SessionScheme):
    """Tells drf-spectacular that the subclass above is still cookie authentication."""

    target_class = SessionAuthentication
