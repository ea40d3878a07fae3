"""Reports in the API: report a player or a chat message, and follow your own reports.

Its own module beside views.py, in their pattern: input serializer, service
or selector, output serializer; refusals are the moderation services'
GameErrors, turned into the one error body by exceptions.py.
"""

from __future__ import annotations

from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.fields import StringField, WholeNumberField
from games.api.schema import answers, error, operation
from games.api.serializers import InputSerializer
from games.moderation import selectors, services
from games.moderation.models import NOTE_MAX_LENGTH, Decision, Reason
from games.moderation.services import REPORTS_PER_DAY


class ReportSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player = serializers.CharField(source="player.username", help_text="The player reported (a message's author).")
    message = serializers.IntegerField(source="message_id", allow_null=True, help_text="The chat message reported.")
    message_text = serializers.CharField(help_text="The message's words when it was reported; empty for a player.")
    reason = serializers.ChoiceField(choices=Reason.choices)
    note = serializers.CharField()
    created_at = serializers.DateTimeField()
    decision = serializers.ChoiceField(
        source="decided", choices=Decision.choices, allow_null=True, help_text="Null while it waits for a moderator."
    )
    outcome = serializers.CharField(help_text='In words: "Waiting for a moderator", "bob was warned".')
    handled_at = serializers.DateTimeField(allow_null=True)


class ReportInputSerializer(InputSerializer):
    player = StringField(required=False, help_text="The username of the player you report.")
    message = WholeNumberField(
        required=False, min_value=1, max_value=selectors.MAX_ID, help_text="The id of the chat message you report."
    )
    reason = serializers.ChoiceField(choices=Reason.choices)
    note = StringField(required=False, allow_blank=True, help_text=f"In your own words, at most {NOTE_MAX_LENGTH}.")


REPORT_INVALID = error(
    "Malformed JSON (`malformed_json`), input of the wrong shape (`invalid`, with `fields`), an unknown "
    "reason (`invalid_reason`), neither or both "
    "of `player` and `message` (`report_target`), a note over the limit (`note_too_long`), or yourself "
    "(`own_report`)."
)
REPORT_REFUSED = error(
    "Refused: you have a waiting report of this already (`reported_already`), the account is closed "
    "(`account_closed`), or the message's author deleted their account (`author_gone`)."
)
TOO_MANY = error(
    f"More than {REPORTS_PER_DAY} reports in a day (`reports_rate_limited`), or too many requests "
    "(`throttled`): see Retry-After."
)


class ReportsApi(APIView):
    @operation(
        operation_id="reports_list",
        tags=["reports"],
        responses=answers({200: ReportSerializer(many=True)}, 401),
        description="Your latest 20 reports, newest first, each with what the moderators decided.",
    )
    def get(self, request):
        return Response(ReportSerializer(selectors.reports_of(request.user), many=True).data)

    @operation(
        operation_id="reports_create",
        tags=["reports"],
        request=ReportInputSerializer,
        responses={
            **answers({201: ReportSerializer}, 401, 404, body=True),
            400: REPORT_INVALID,
            409: REPORT_REFUSED,
            429: TOO_MANY,
        },
        description="Report a player (`player`) or a chat message (`message`) to the moderators, with a "
        "reason and a note. The player is not told who reported them; you are told the outcome "
        "(a `report_outcome` notification). An unknown player or message is a 404.",
    )
    def post(self, request):
        data = ReportInputSerializer.validated(request.data)
        player = message = None
        if "message" in data:
            message = selectors.message_to_report(data["message"])
            if message is None:
                raise NotFound("There is no such message.")
        if "player" in data:
            player = selectors.player_to_report(data["player"])
            if player is None:
                raise NotFound("There is no such player.")
        report = services.report_make(
            reporter=request.user, player=player, message=message, reason=data["reason"], note=data.get("note", "")
        )
        return Response(ReportSerializer(report).data, status=status.HTTP_201_CREATED)
