"""A program's own tokens: list them, revoke the one in use, one by id, or all
(the account page's tokens list, through the API)."""

from __future__ import annotations

from django.http import Http404
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.accounts import selectors as accounts_selectors
from games.accounts import services as accounts_services
from games.api.schema import answers, operation
from games.errors import InvalidInput


class ApiTokenSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    prefix = serializers.CharField(help_text="The key's first characters, to tell tokens apart; never the key.")
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True, help_text="To the minute; null if never used.")
    current = serializers.SerializerMethodField(help_text="The token this request was signed in with.")

    def get_current(self, token) -> bool:
        used = self.context["request"].auth
        return getattr(used, "pk", None) == token.pk


def revoke_the_token_in_use(request) -> Response:
    """DELETE /api/auth/token/: the token the request was signed in with (see views.TokenApi)."""
    token = request.auth
    if token is None or not hasattr(token, "pk"):
        raise InvalidInput(
            "this request is signed in with the site's session, not a token: "
            "revoke a token by its id (DELETE /api/auth/tokens/{id}/)",
            code="no_token_in_use",
        )
    accounts_services.api_token_revoke(user=request.user, token_id=token.pk)
    return Response(status=status.HTTP_204_NO_CONTENT)


class TokensApi(APIView):
    """/api/auth/tokens/: the caller's tokens (GET), or revoke them all (DELETE)."""

    @operation(
        operation_id="auth_tokens_list",
        tags=["auth"],
        responses=answers({200: ApiTokenSerializer(many=True)}, 401),
        description="Your API tokens, newest first: their names, the start of each key, when each was made "
        "and last used, and which one signed in this request (`current`). Never the keys.",
    )
    def get(self, request):
        tokens = accounts_selectors.api_tokens(request.user)
        return Response(ApiTokenSerializer(tokens, many=True, context={"request": request}).data)

    @operation(
        operation_id="auth_tokens_revoke_all",
        tags=["auth"],
        responses=answers({204: None}, 401),
        description="Revoke every token of yours, the one in use included; their sockets close with 4401.",
    )
    def delete(self, request):
        accounts_services.api_tokens_revoke_all(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenDetailApi(APIView):
    @operation(
        operation_id="auth_tokens_revoke",
        tags=["auth"],
        responses=answers({204: None}, 401, 404),
        description="Revoke one of your tokens by its id (GET /api/auth/tokens/); anyone else's is a 404.",
    )
    def delete(self, request, pk: int):
        if not accounts_services.api_token_revoke(user=request.user, token_id=pk):
            raise Http404("You hold no such token.")
        return Response(status=status.HTTP_204_NO_CONTENT)
