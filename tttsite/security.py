"""The one security header Django and django-csp leave out, Permissions-Policy."""

from django.conf import settings

from games.serving.middleware import SyncAndAsyncMiddleware


class PermissionsPolicyMiddleware(SyncAndAsyncMiddleware):
    """Send settings.PERMISSIONS_POLICY as the Permissions-Policy header, unless
    a view already set one (a page that needs a feature says so itself). It
    runs in the server's own mode: Django's MiddlewareMixin would hand each
    ASGI request to a thread and back just to set a header."""

    def after(self, request, response):
        policy = getattr(settings, "PERMISSIONS_POLICY", "")
        if policy:
            response.headers.setdefault("Permissions-Policy", policy)
        return response
