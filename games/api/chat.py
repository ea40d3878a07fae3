"""The chat of a game between people in the API: read it, write in it, mute the opponent.

Its own module beside views.py and serializers.py, in their pattern (one view
per operation; input serializer, service or selector, output serializer). The
refusals are the chat services' GameErrors, turned into the one error body by
exceptions.py. A message sent here reaches the game's WebSocket as a "chat" event.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.fields import StringField
from games.api.responses import player_of
from games.api.schema import answers, error, operation
from games.api.serializers import InputSerializer
from games.play import chat_selectors, chat_services, selectors
from games.play.chat_models import MESSAGE_MAX_LENGTH
from games.play.chat_services import RATE_LIMIT_MESSAGES, RATE_LIMIT_WINDOW
from games.play.models import Side

# --------------------------------------------------------------------------
# What goes in and out.


class ChatMessageSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    side = serializers.ChoiceField(choices=Side.choices, help_text="The side its author plays.")
    author = serializers.CharField(
        source="author_name", help_text='The name the game shows for that side ("Deleted player" once deleted).'
    )
    text = serializers.CharField(help_text="Plain text, as sent: escape it before showing it as HTML.")
    created_at = serializers.DateTimeField(help_text="When it was sent.")


class ChatSerializer(serializers.Serializer):
    """Built from a chat_selectors.Chat: the chat as the one asking sees it."""

    side = serializers.ChoiceField(
        choices=Side.choices, allow_null=True, help_text="The side you play; null when you watch (you may only read)."
    )
    can_send = serializers.BooleanField(help_text="Whether you may write: only the two players do.")
    muted_opponent = serializers.BooleanField(
        help_text="You muted your opponent: their messages are left out, and they cannot write."
    )
    messages = ChatMessageSerializer(
        many=True, help_text=f"The latest {chat_selectors.MESSAGES_SHOWN} messages at most, oldest first."
    )


class ChatMessageInputSerializer(InputSerializer):
    text = StringField(
        allow_blank=True,
        help_text=f"1 to {MESSAGE_MAX_LENGTH} characters once the spaces around it are stripped; "
        "control characters (new lines) become spaces.",
    )


# --------------------------------------------------------------------------
# The answers a chat operation can give.

NO_CHAT = "a game against the AI has no chat (`no_chat`)"
CHAT_REFUSED = error(
    f"Refused: {NO_CHAT}, your opponent muted you in this game (`chat_muted`), or a moderator muted you "
    "in every chat for a time (`chat_banned`: the message says until when and why)."
)
NO_CHAT_HERE = error(f"Refused: {NO_CHAT}.")
NOT_A_PLAYER = error("Only the two players write or mute (`not_a_player`); others read.")
MESSAGE_INVALID = error(
    "Malformed JSON (`malformed_json`), input of the wrong shape (`invalid`, with `fields`), "
    f"an empty message (`chat_empty`) or one over {MESSAGE_MAX_LENGTH} characters (`chat_too_long`)."
)
TOO_FAST = error(
    f"More than {RATE_LIMIT_MESSAGES} messages in {RATE_LIMIT_WINDOW.seconds} seconds in this game "
    "(`chat_rate_limited`), or too many requests (`throttled`): see Retry-After."
)


def _chat(chat, request, code=status.HTTP_200_OK) -> Response:
    return Response(ChatSerializer(chat, context={"request": request}).data, status=code)


# --------------------------------------------------------------------------
# The operations.


class GameChatApi(APIView):
    """/api/games/{id}/chat/: GET reads the chat, POST writes in it."""

    @operation(
        operation_id="games_chat_retrieve",
        tags=["chat"],
        responses={**answers({200: ChatSerializer}, 401, 404), 409: NO_CHAT_HERE},
        description="The chat of a game between people, as you see it: anyone signed in may read it, "
        "as on the game page; messages of an opponent you muted are left out.",
    )
    def get(self, request, pk: int):
        game = selectors.game_detail(pk)
        return _chat(chat_selectors.game_chat(game, player_of(request)), request)

    @operation(
        operation_id="games_chat_create",
        tags=["chat"],
        request=ChatMessageInputSerializer,
        responses={
            **answers(
                {201: OpenApiResponse(ChatMessageSerializer, description="Sent: the message as stored.")},
                401,
                404,
                body=True,
            ),
            400: MESSAGE_INVALID,
            403: NOT_A_PLAYER,
            409: CHAT_REFUSED,
            429: TOO_FAST,
        },
        description="Write in the chat of a game you play, during the game or after it. "
        f"At most {RATE_LIMIT_MESSAGES} messages in {RATE_LIMIT_WINDOW.seconds} seconds per player and game "
        "(429 `chat_rate_limited`, with Retry-After). Everyone watching the game hears it over its "
        "WebSocket as a `chat` event carrying the message.",
    )
    def post(self, request, pk: int):
        text = ChatMessageInputSerializer.validated(request.data)["text"]
        message = chat_services.chat_send(game_id=pk, player=player_of(request), text=text)
        return Response(ChatMessageSerializer(message).data, status=status.HTTP_201_CREATED)


def _mute_operation(operation_id: str, description: str):
    return operation(
        operation_id=operation_id,
        tags=["chat"],
        request=None,
        responses={**answers({200: ChatSerializer}, 401, 404), 403: NOT_A_PLAYER, 409: NO_CHAT_HERE},
        description=description,
    )


class GameChatMuteApi(APIView):
    """/api/games/{id}/chat/mute/: POST mutes the opponent, DELETE unmutes."""

    @_mute_operation(
        "games_chat_mute",
        "Mute your opponent in this game: their messages are left out of your chat and their new ones "
        "are refused (`chat_muted`). Spectators still see the chat as sent. Muting twice is muting once. "
        "Answers with the chat as you now see it.",
    )
    def post(self, request, pk: int):
        return _chat(chat_services.chat_mute_opponent(game_id=pk, player=player_of(request)), request)

    @_mute_operation(
        "games_chat_unmute",
        "Unmute your opponent in this game: their messages show again and they may write. "
        "Answers with the chat as you now see it.",
    )
    def delete(self, request, pk: int):
        return _chat(chat_services.chat_unmute_opponent(game_id=pk, player=player_of(request)), request)
