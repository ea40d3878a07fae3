"""Security headers: the Content-Security-Policy written once, and the one
header Django and django-csp leave out, Permissions-Policy."""

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.utils.functional import empty

from games.serving.middleware import SyncAndAsyncMiddleware

#: What a view or a template can ask django-csp for on one response: its own
#: policy, additions or replacements (the ``csp.decorators``), or exemption.
_PER_RESPONSE = frozenset(
    f"_csp_{what}{suffix}" for what in ("config", "update", "replace", "exempt") for suffix in ("", "_ro")
)


class ContentSecurityPolicyMiddleware(SyncAndAsyncMiddleware):
    """django-csp's headers, built from the settings once instead of on every
    response (django-csp's own middleware rebuilds the same string each time:
    about a third of what a plain request costs the site).

    A response that asks for something of its own (a ``csp`` decorator, or a
    template that used ``request.csp_nonce``) goes through django-csp's
    middleware unchanged, so nothing it offers is lost. The cached headers
    follow the settings object: a test that overrides them gets them rebuilt.
    """

    def __init__(self, get_response):
        super().__init__(get_response)
        self._csp = CSPMiddleware(get_response)
        self._built_from = (empty, empty)
        self._headers: list[tuple[str, str, tuple[str, ...]]] = []

    def before(self, request):
        self._csp.process_request(request)  # request.csp_nonce, made only if used

    def after(self, request, response):
        if getattr(request, "_csp_nonce", None) is not None or not _PER_RESPONSE.isdisjoint(vars(response)):
            return self._csp.process_response(request, response)
        if response.status_code in (404, 500) and settings.DEBUG:
            return response  # Django's debug pages carry inline style, as django-csp allows
        for header, policy, excluded in self._policies():
            if header not in response and not request.path_info.startswith(excluded):
                response[header] = policy
        # As django-csp does: a nonce asked for once the header is written
        # could not be in it, so asking for one is an error from here on.
        request.csp_nonce = CheckableLazyObject(CSPMiddleware._csp_nonce_post_response)
        return response

    def _policies(self):
        enforced = getattr(settings, "CONTENT_SECURITY_POLICY", None)
        reported = getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None)
        if self._built_from[0] is not enforced or self._built_from[1] is not reported:
            headers = []
            for header, policy, report_only in ((HEADER, enforced, False), (HEADER_REPORT_ONLY, reported, True)):
                value = build_policy(report_only=report_only)
                if value:
                    headers.append((header, value, tuple((policy or {}).get("EXCLUDE_URL_PREFIXES") or ())))
            self._headers, self._built_from = headers, (enforced, reported)
        return self._headers


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
