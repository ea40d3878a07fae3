"""Draw offers and takebacks (games/play/offers.py), one view per action, each
answering with the game as it now stands; a refusal is a 409 with the game
(`no_draw_offer`, `own_offer`, `takeback_stale`, ...), a spectator a 403."""

from __future__ import annotations

from rest_framework.settings import api_settings
from rest_framework.views import APIView

from games.api.fields import MAX_CELL, WholeNumberField
from games.api.responses import game_response, player_of
from games.api.schema import answers, operation
from games.api.serializers import GameSerializer, InputSerializer
from games.play import offers
from games.serving.action_limits import ActionThrottle

#: Offering a draw and asking for a takeback share one budget, here and on the game page.
OFFER_THROTTLES = [*api_settings.DEFAULT_THROTTLE_CLASSES, ActionThrottle.for_action("offer")]


class TakebackAnswerInputSerializer(InputSerializer):
    ply = WholeNumberField(
        min_value=0,
        max_value=MAX_CELL + 1,
        required=False,
        help_text="The game's ply when you saw the request: if the game has moved on since, "
        "the answer is refused (`takeback_stale`) rather than given to another request.",
    )


def _answer(operation_id: str, description: str, *, body: bool = False):
    if body:
        responses = answers({200: GameSerializer}, 400, 401, 403, 404, 409, body=True)
    else:
        responses = answers({200: GameSerializer}, 401, 403, 404, 409)
    return operation(
        operation_id=operation_id,
        tags=["games"],
        request=TakebackAnswerInputSerializer if body else None,
        responses=responses,
        description=description,
    )


class DrawOfferApi(APIView):
    throttle_classes = OFFER_THROTTLES

    @_answer(
        "games_draw_offer",
        "Offer your opponent a draw, on either side's turn (`draw_offer` is then your side). Offering again "
        "changes nothing; offering while your opponent's offer stands accepts it. The offer lapses when you "
        "move. The AI takes no draw offers (`no_draws_with_ai`).",
    )
    def post(self, request, pk: int):
        return game_response(offers.game_offer_draw(game_id=pk, player=player_of(request)), request)


class DrawAcceptApi(APIView):
    @_answer(
        "games_draw_accept",
        "Accept your opponent's draw offer: the game is drawn by agreement (`termination`: `agreed`). "
        "`no_draw_offer` when none stands (it lapsed when they moved), `own_offer` for your own.",
    )
    def post(self, request, pk: int):
        return game_response(offers.game_answer_draw(game_id=pk, player=player_of(request), accept=True), request)


class DrawDeclineApi(APIView):
    @_answer("games_draw_decline", "Decline your opponent's draw offer; the game goes on.")
    def post(self, request, pk: int):
        return game_response(offers.game_answer_draw(game_id=pk, player=player_of(request), accept=False), request)


class TakebackApi(APIView):
    throttle_classes = OFFER_THROTTLES

    @_answer(
        "games_takeback_request",
        "Ask to take back your last move, while your opponent has not answered it (`move_answered` after). "
        "Between people only if both agreed to takebacks before the game (`takebacks_allowed`); "
        "`takeback_offer` is then your side until they answer or move. Against the AI the move is "
        "taken back at once, with the AI's reply: it is your turn again.",
    )
    def post(self, request, pk: int):
        return game_response(offers.game_request_takeback(game_id=pk, player=player_of(request)), request)


class TakebackAcceptApi(APIView):
    @_answer(
        "games_takeback_accept",
        "Let your opponent take their last move back: it is their turn again. Refused once you have moved "
        "(`no_takeback_request`, or `takeback_stale` with the `ply` you saw).",
        body=True,
    )
    def post(self, request, pk: int):
        return game_response(
            offers.game_answer_takeback(game_id=pk, player=player_of(request), accept=True, **_ply(request)), request
        )


class TakebackDeclineApi(APIView):
    @_answer("games_takeback_decline", "Decline your opponent's takeback request: the move stands.", body=True)
    def post(self, request, pk: int):
        return game_response(
            offers.game_answer_takeback(game_id=pk, player=player_of(request), accept=False, **_ply(request)), request
        )


def _ply(request) -> dict:
    return TakebackAnswerInputSerializer.validated(request.data)
