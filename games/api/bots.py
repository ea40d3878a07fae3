"""Bot accounts through the API: an account becomes a bot (before its first
game, for good), and a bot says whether people may challenge it. A bot plays
like anyone else, through the rest of the API and the socket."""

from __future__ import annotations

from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.accounts import selectors as accounts_selectors
from games.accounts import services as accounts_services
from games.api.fields import TrueOrFalseField
from games.api.schema import answers, error, operation
from games.api.serializers import InputSerializer


class BotSerializer(serializers.Serializer):
    username = serializers.CharField(source="user.username")
    bot = serializers.SerializerMethodField(help_text="Always true: the account is a bot.")
    accepts_people = serializers.BooleanField(
        help_text="People may challenge it; when false, only other bots may (a person's challenge is a 409)."
    )
    created_at = serializers.DateTimeField(help_text="When the account became a bot.")

    def get_bot(self, bot) -> bool:
        return True


class BotInputSerializer(InputSerializer):
    accepts_people = TrueOrFalseField(
        default=True, help_text="Whether people may challenge the bot (default true); other bots always may."
    )


class BotSettingsInputSerializer(InputSerializer):
    accepts_people = TrueOrFalseField(
        required=False, help_text="Whether people may challenge the bot; other bots always may. Left out: unchanged."
    )


BOT_REFUSED = error("Refused: the account has played a game already (`has_played`): only a new account becomes a bot.")
NOT_A_BOT = error("Refused: this account is not a bot (`not_a_bot`): POST first.")


class AccountBotApi(APIView):
    """/api/account/bot/: your account as a bot (GET), become one (POST), its settings (PATCH)."""

    @operation(
        operation_id="account_bot_retrieve",
        tags=["bots"],
        responses=answers({200: BotSerializer}, 401, 404),
        description="Your account's bot settings; a 404 when it is not a bot.",
    )
    def get(self, request):
        bot = accounts_selectors.bot_of(request.user)
        if bot is None:
            raise exceptions.NotFound("Your account is not a bot.")
        return Response(BotSerializer(bot).data)

    @operation(
        operation_id="account_bot_create",
        tags=["bots"],
        request=BotInputSerializer,
        responses=answers({201: BotSerializer, 200: BotSerializer}, 400, 401, body=True) | {409: BOT_REFUSED},
        description="Make your account a bot: a program plays it through the API and the socket, and the site "
        "shows BOT beside its name. Only before the account has played any game (else 409 `has_played`), and "
        "for good: a bot never becomes a person again. A bot has its own leaderboard (GET /api/leaderboard/"
        "?bots=true); its games against people are always casual (they move no rating), its games against other "
        "bots rated unless casual was chosen. `accepts_people` (default true) lets people challenge it. "
        "Asking again answers the bot as it is (200) and changes nothing.",
    )
    def post(self, request):
        data = BotInputSerializer.validated(request.data)
        bot, created = accounts_services.account_become_bot(user=request.user, accepts_people=data["accepts_people"])
        return Response(BotSerializer(bot).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)

    @operation(
        operation_id="account_bot_update",
        tags=["bots"],
        request=BotSettingsInputSerializer,
        responses=answers({200: BotSerializer}, 400, 401, body=True) | {409: NOT_A_BOT},
        description="Change your bot's settings: `accepts_people` false refuses people's challenges (409 "
        "`bot_declines_people` for them), true lets them challenge it again. A 409 `not_a_bot` for a person's account.",
    )
    def patch(self, request):
        data = BotSettingsInputSerializer.validated(request.data)
        bot = accounts_services.bot_settings_update(user=request.user, accepts_people=data.get("accepts_people"))
        return Response(BotSerializer(bot).data)
