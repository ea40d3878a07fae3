"""Rematches through the API, as on the game page.

Against the AI a rematch starts at once, with the sides swapped. Between
people it is offered to the opponent: a direct challenge with ``rematch_of``
set, which they see in ``GET /api/challenges/`` and answer with
``POST /api/challenges/{id}/accept/`` (or ``decline/``; the one who offered
may ``cancel/``).
"""

from __future__ import annotations

from rest_framework import status
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from games.api import serializers as s
from games.api.responses import challenge_response, game_response, player_of
from games.api.schema import answers, operation
from games.lobby import services as lobby_services
from games.play import services
from games.serving.action_limits import ActionThrottle


class GameRematchApi(APIView):
    @operation(
        operation_id="games_rematch",
        tags=["games"],
        request=None,
        responses=answers({201: s.GameSerializer}, 401, 403, 404, 409),
        description="After a game against the AI, a new one with the same board, level, opening and time "
        "control, and the sides swapped; it starts at once. Between people a rematch is offered first "
        "(`offer_rematch`: POST .../rematch-offer/).",
    )
    def post(self, request, pk: int):
        game = services.game_rematch(game_id=pk, player=player_of(request))
        return game_response(game, request, status.HTTP_201_CREATED)


class GameRematchOfferApi(APIView):
    # A rematch offer is a challenge: one budget with the challenge form and /api/challenges/.
    throttle_classes = [*api_settings.DEFAULT_THROTTLE_CLASSES, ActionThrottle.for_action("challenge")]

    @operation(
        operation_id="games_rematch_offer",
        tags=["games"],
        request=None,
        responses=answers({201: s.ChallengeSerializer}, 401, 403, 404, 409),
        description="After a game between people, offer the opponent another with the sides swapped and the "
        "same time control: a challenge sent to them (`rematch_of` is this game), which they accept or decline "
        "in /api/challenges/. Offering again returns the same offer; when the opponent has offered already, "
        "accept theirs (`rematch_offered`). Refused mid-game (`game_in_progress`) and against the AI "
        "(`ai_rematch`: POST .../rematch/).",
    )
    def post(self, request, pk: int):
        challenge = lobby_services.game_offer_rematch(game_id=pk, player=player_of(request))
        return challenge_response(challenge, request, status.HTTP_201_CREATED)
