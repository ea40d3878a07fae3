"""The one security header Django and django-csp leave out: Permissions-Policy."""

from django.conf import settings
from django.utils.deprecation import MiddlewareMixin


class PermissionsPolicyMiddleware(MiddlewareMixin):
    """Send settings.PERMISSIONS_POLICY as the Permissions-Policy header, unless
    a view already set one (a page that needs a feature says so itself).
    MiddlewareMixin makes it async-capable like Django's own, so ASGI requests
    need no thread hop for it."""

    def process_response(self, request, response):
        policy = getattr(settings, "PERMISSIONS_POLICY", "")
        if policy:
            response.headers.setdefault("Permissions-Policy", policy)
        return response
