"""Who is calling: a token for programs, the browser's session (with CSRF) for pages."""

from __future__ import annotations

from drf_spectacular.authentication import SessionScheme
from rest_framework import authentication, exceptions

from games.accounts import selectors as account_selectors
from games.accounts import services as account_services
from games.accounts.models import ApiToken


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's "Authorization: Token <key>", the keys being the account's own API
    tokens (games.accounts.models.ApiToken: several per account, stored as
    digests, revocable), each use noted at most once a minute."""

    model = ApiToken

    def authenticate(self, request):
        words = authentication.get_authorization_header(request).split()
        if words and words[0].lower() == b"bearer":
            # DRF would ignore the header and answer "credentials were not provided".
            raise exceptions.AuthenticationFailed(
                f'This API takes "Authorization: {self.keyword} <token>", not Bearer: '
                f'send the same token after "{self.keyword}".'
            )
        return super().authenticate(request)

    def authenticate_credentials(self, key):
        token = account_selectors.api_token_for_key(key)
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        account_services.api_token_used(token=token)
        return (token.user, token)


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
