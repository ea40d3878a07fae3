"""A player's notifications in the API: the bell's list for a program (a bot
hears them live on the lobby socket too, as ``notification`` events)."""

from __future__ import annotations

from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from games.api.fields import WholeNumberField
from games.api.schema import answers, operation
from games.api.serializers import InputSerializer
from games.notifications import selectors, services
from games.notifications.models import Kind

#: The largest id the database stores.
MAX_ID = 2**63 - 1


class NotificationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Kind.choices)
    text = serializers.CharField(help_text='What happened: "bob challenges you (3×3, 5+3, rated)".')
    url = serializers.CharField(help_text="The page it is about (the game, or the challenge), on this site.")
    game = serializers.IntegerField(source="game_id", allow_null=True)
    challenge = serializers.IntegerField(source="challenge_id", allow_null=True)
    read = serializers.BooleanField(source="is_read")
    created_at = serializers.DateTimeField()


class NotificationsReadInputSerializer(InputSerializer):
    ids = serializers.ListField(
        child=WholeNumberField(min_value=1, max_value=MAX_ID),
        required=False,
        max_length=1000,
        help_text="The notifications to mark read; absent: every one.",
    )


class NotificationsReadSerializer(serializers.Serializer):
    marked = serializers.IntegerField(help_text="How many were unread and are read now.")
    unread = serializers.IntegerField(help_text="How many are still unread.")


class NotificationsApi(APIView):
    pagination_class = api_settings.DEFAULT_PAGINATION_CLASS

    @operation(
        operation_id="notifications_list",
        tags=["notifications"],
        responses=answers({200: NotificationSerializer(many=True)}, 401, 404),
        description="Your notifications of the last 30 days, newest first, 20 a page: challenges and rematch "
        "offers for you, your turn in correspondence games, and answers to your draw offers and takeback "
        "requests. Reading them here marks nothing read: POST /api/notifications/read/ does. The lobby "
        "socket pushes each one as it is made (`notification`). A page past the end is a 404.",
    )
    def get(self, request):
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(selectors.recent(request.user), request, view=self)
        return paginator.get_paginated_response(NotificationSerializer(page, many=True).data)


class NotificationsReadApi(APIView):
    @operation(
        operation_id="notifications_read",
        tags=["notifications"],
        request=NotificationsReadInputSerializer,
        responses=answers({200: NotificationsReadSerializer}, 400, 401, body=True),
        description="Mark your notifications read: those in `ids`, or all of them. Ids that are not yours, "
        "or read already, are left as they are.",
    )
    def post(self, request):
        ids = NotificationsReadInputSerializer.validated(request.data).get("ids")
        marked = services.notifications_read(user=request.user, ids=ids)
        return Response({"marked": marked, "unread": selectors.unread_count(request.user)})
