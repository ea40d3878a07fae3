"""The API's views: one per operation, each parse -> service -> present.

A view reads its input with an input serializer, calls one service (a write)
or selector (a read), and answers with an output serializer. Refusals are the
services' GameError, turned into the error body by exceptions.py; no rule of
the game is decided here.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.urls import Resolver404, resolve
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from games.accounts import services as accounts_services
from games.api import serializers as s
from games.api import tokens
from games.api.responses import challenge_response, game_response, player_of
from games.api.schema import (
    ACCOUNT_CLOSED,
    CHALLENGE_CREATE_REFUSED,
    ENGINE_WORKING,
    PAIRING_REFUSED,
    REVIEW_PENDING,
    SIGN_IN_REFUSED,
    THROTTLED_OR_LOCKED_OUT,
    answers,
    answers_to_a_challenge_action,
    operation,
)
from games.api.throttles import AnonRateThrottle
from games.engine_work import asking
from games.engine_work import jobs as engine_jobs
from games.errors import GameNotFinished
from games.lobby import pairing_services
from games.lobby import selectors as lobby_selectors
from games.lobby import services as lobby_services
from games.lobby.models import PairingRequest
from games.play import review_selectors, reviews, selectors, services
from games.play.models import Status
from games.serving.action_limits import ActionThrottle

#: Seconds the engine may think about a position for /api/analyse/. Every
#: board is solved exactly; a cell not solved by then is "unsolved", never guessed.
ANALYSE_BUDGET = 3.0
#: Seconds it may then spend on the line of best play; a line cut short says so (`complete: false`).
LINE_BUDGET = 1.5


# --------------------------------------------------------------------------
# Small shared pieces.


# --------------------------------------------------------------------------
# Accounts.


class TokenCreateApi(APIView):
    """/api/auth/token/: trade a username and password for an API token of that
    account (POST, signed in by neither), or revoke the token in use (DELETE)."""

    def _signing_in(self) -> bool:
        # self.request is Django's, set by View.setup(); the schema's generator asks with none, of the POST.
        return self.request is None or self.request.method == "POST"

    def get_authenticators(self):
        # A POST signs in with a password: a credential sent along is not read.
        return [] if self._signing_in() else super().get_authenticators()

    def get_permissions(self):
        return [AllowAny()] if self._signing_in() else super().get_permissions()

    def get_throttles(self):
        # Signing in has one budget, here and on the login page.
        if self._signing_in():
            return [AnonRateThrottle(), ActionThrottle.for_action("signin")()]
        return super().get_throttles()

    @operation(
        operation_id="auth_token_create",
        tags=["auth"],
        description="Trade a username and password for an API token of that account, sent as "
        "`Authorization: Token <token>`. A credential sent along is not read. A closed or suspended "
        "account given its right password is a 403 that says so, with the suspension's end and reason.",
        request=s.TokenInputSerializer,
        responses={
            **answers({200: s.TokenSerializer}, 400, body=True),
            400: SIGN_IN_REFUSED,
            403: ACCOUNT_CLOSED,
            429: THROTTLED_OR_LOCKED_OUT,
        },
    )
    def post(self, request):
        data = s.TokenInputSerializer.validated(request.data)
        # The DRF request, not request._request: django-axes marks a lockout on
        # it, so the service answers in the API's error shape and AxesMiddleware
        # leaves the response alone.
        token = accounts_services.auth_token_issue(
            username=data["username"], password=data["password"], request=request
        )
        return Response(s.TokenSerializer({"token": token}).data)

    @operation(
        operation_id="auth_token_revoke",
        tags=["auth"],
        responses=answers({204: None}, 400, 401),
        description="Revoke the token this request is signed in with: a program signing off. Signed in by the "
        "site's session instead, it is a 400 `no_token_in_use`.",
    )
    def delete(self, request):
        return tokens.revoke_the_token_in_use(request)


# --------------------------------------------------------------------------
# Games.


class GamesApi(APIView):
    """/api/games/: GET lists your games, POST starts one against the AI."""

    pagination_class = api_settings.DEFAULT_PAGINATION_CLASS

    @operation(
        operation_id="games_list",
        tags=["games"],
        parameters=[s.GameFilterSerializer],
        responses=answers({200: s.GameSerializer(many=True)}, 400, 401, 404),
        description="Your games, newest first, 20 a page; filtered like the history page. "
        "An unknown filter value is a 400; a page past the end is a 404.",
    )
    def get(self, request):
        filters = s.GameFilterSerializer.validated(request.query_params)
        games = selectors.player_games(request.user, **filters)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(games, request, view=self)
        return paginator.get_paginated_response(s.GameSerializer(page, many=True, context={"request": request}).data)

    @operation(
        operation_id="games_create",
        tags=["games"],
        request=s.GameCreateInputSerializer,
        responses=answers({201: s.GameSerializer}, 400, 401, body=True),
        description="A game against the AI. If the AI plays X its first move is already in the answer. "
        "Games against people start from a challenge (POST /api/challenges/).",
    )
    def post(self, request):
        data = s.GameCreateInputSerializer.validated(request.data)
        game = services.game_create_against_ai(
            player=player_of(request),
            variant=data["variant"],
            side=data["side"],
            level=data["level"],
            start_mode=data["start_mode"],
            seed=data.get("seed"),
        )
        return game_response(game, request, status.HTTP_201_CREATED)


class GameDetailApi(APIView):
    @operation(
        operation_id="games_retrieve",
        tags=["games"],
        responses=answers({200: s.GameDetailSerializer}, 401, 404),
        description="Any signed-in player may look at any game, as on the site, where game pages are public. "
        "With every takeback made in it (`takebacks`).",
    )
    def get(self, request, pk: int):
        game = selectors.game_detail(pk)
        return Response(s.GameDetailSerializer(game, context={"request": request}).data)


class GameNotationApi(APIView):
    @operation(
        operation_id="games_notation",
        tags=["games"],
        responses={
            **answers({}, 401, 404),
            (200, "text/plain"): OpenApiResponse(
                OpenApiTypes.STR, description="The game in the site's notation (docs/notation.md)."
            ),
        },
        description="The game as text: a header block (site, game, date, players, result, termination, "
        "the AI's level, the time control, the board), a blank line, then the moves as coordinates "
        "(`b2 a1 c3`: columns from the left, rows from the bottom). The game page's Download gives the "
        "same; the analysis board imports it. Finished or not, as GET /api/games/{id}/ shows it.",
    )
    def get(self, request, pk: int):
        text = selectors.game_notation(selectors.game_detail(pk))
        return HttpResponse(text, content_type="text/plain; charset=utf-8")


class GameMoveApi(APIView):
    @operation(
        operation_id="games_moves_create",
        tags=["games"],
        request=s.MoveInputSerializer,
        responses=answers(
            {
                201: OpenApiResponse(s.GameSerializer, description="Played; against the AI its reply is included."),
                200: OpenApiResponse(
                    s.GameSerializer,
                    description="The same move at the same ply was already played (a repeated request): "
                    "nothing changed.",
                ),
            },
            400,
            401,
            403,
            404,
            409,
            body=True,
        ),
        description="Play `cell`, saying how many moves you believe have been made (`ply`). "
        "A cell off this board is a 400 (`invalid_cell`); an occupied cell, the opponent's turn, "
        "a stale ply or a finished game is a 409 with the current game.",
    )
    def post(self, request, pk: int):
        data = s.MoveInputSerializer.validated(request.data)
        result = services.game_play_move(game_id=pk, player=player_of(request), cell=data["cell"], ply=data["ply"])
        return game_response(result.game, request, status.HTTP_201_CREATED if result.applied else status.HTTP_200_OK)


def _game_action(operation_id: str, description: str):
    return operation(
        operation_id=operation_id,
        tags=["games"],
        request=None,
        responses=answers({200: s.GameSerializer}, 401, 403, 404, 409),
        description=description,
    )


class GameResignApi(APIView):
    @_game_action("games_resign", "Give up: the other side wins (before both sides have moved, the game is aborted).")
    def post(self, request, pk: int):
        return game_response(services.game_resign(game_id=pk, player=player_of(request)), request)


class GameAbortApi(APIView):
    @_game_action("games_abort", "Call the game off before its second move: no result, nobody's record changes.")
    def post(self, request, pk: int):
        return game_response(services.game_abort_by_player(game_id=pk, player=player_of(request)), request)


class GameClaimTimeoutApi(APIView):
    @_game_action(
        "games_claim_timeout", "Claim the win when the player to move has run out of time (`not_claimable` before)."
    )
    def post(self, request, pk: int):
        return game_response(services.game_claim_timeout(game_id=pk, player=player_of(request)), request)


#: Seconds a client waits before asking again for a review still being prepared.
REVIEW_RETRY_AFTER = 2


def _not_ready(*, code: str, message: str, retry_after: int) -> Response:
    """202: what was asked for is being prepared; ask again after Retry-After. In the errors' shape."""
    return Response(
        {"code": code, "message": message}, status=status.HTTP_202_ACCEPTED, headers={"Retry-After": str(retry_after)}
    )


class GameReviewApi(APIView):
    @operation(
        operation_id="games_review",
        tags=["games"],
        responses={**answers({200: s.ReviewSerializer}, 401, 404, 409), 202: REVIEW_PENDING},
        description="The engine's label for every move of a finished game, from exact outcomes: `best`, "
        "`inaccuracy` (same outcome, but a slower win or a sooner loss), `mistake` (a win thrown to a draw) "
        "or `blunder` (a win or a draw thrown to a loss); `unsolved` for a position not solved in time, "
        "and then `exact: false`. Also the move that decided the result, and for every move but the best "
        "the better cells and the line of best play after one of them (`better_move`). "
        "The review is made once, by the server, a moment after the game ends: until then 202 "
        "(`review_pending`) with Retry-After. 409 (`game_not_finished`) before the end.",
    )
    def get(self, request, pk: int):
        game = selectors.game_detail(pk)
        if game.status != Status.FINISHED:
            raise GameNotFinished("the game is not finished: it is reviewed once it ends", game=game)
        reviewed = review_selectors.game_review(game)
        if reviewed is None:
            return _not_ready(
                code="review_pending",
                message="The review of this game is being prepared: ask again in a moment.",
                retry_after=REVIEW_RETRY_AFTER,
            )
        better = reviews.better_moves(reviewed)
        return Response(
            s.ReviewSerializer({"game": game, "review": reviewed.review}, context={"better_moves": better}).data
        )


# --------------------------------------------------------------------------
# Challenges.


class ChallengesApi(APIView):
    """/api/challenges/: GET lists them, POST creates one."""

    pagination_class = api_settings.DEFAULT_PAGINATION_CLASS
    # Challenging has one budget, here and on the challenge form.
    throttle_classes = [*api_settings.DEFAULT_THROTTLE_CLASSES, ActionThrottle.for_action("challenge")]

    @operation(
        operation_id="challenges_list",
        tags=["challenges"],
        responses=answers({200: s.ChallengeSerializer(many=True)}, 401, 404),
        description="The challenges waiting in the lobby, and every challenge you sent, received "
        "or accepted, newest first.",
    )
    def get(self, request):
        challenges = lobby_selectors.challenges_for(request.user)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(challenges, request, view=self)
        return paginator.get_paginated_response(
            s.ChallengeSerializer(page, many=True, context={"request": request}).data
        )

    @operation(
        operation_id="challenges_create",
        tags=["challenges"],
        request=s.ChallengeCreateInputSerializer,
        responses=answers({201: s.ChallengeSerializer}, 400, 401, body=True) | {409: CHALLENGE_CREATE_REFUSED},
        description="`open`: listed in the lobby for anyone; `direct`: sent to `opponent`; "
        "`link`: an invite whose `token` you share. `rated` (default true) or casual; a challenge between a "
        "bot and a person is always casual, and a bot that plays only bots refuses a person's challenge "
        "(409 `bot_declines_people`).",
    )
    def post(self, request):
        data = s.ChallengeCreateInputSerializer.validated(request.data)
        challenge = lobby_services.challenge_create(
            challenger=request.user,
            kind=data["kind"],
            variant=data["variant"],
            side=data["side"],
            time_control=data["time_control"],
            move_time_limit=data["move_time_limit"],
            opponent_username=data["opponent"],
            takebacks_allowed=data["takebacks_allowed"],
            rated=data["rated"],
        )
        return challenge_response(challenge, request, status.HTTP_201_CREATED)


class ChallengeAcceptApi(APIView):
    @operation(
        operation_id="challenges_accept",
        tags=["challenges"],
        request=None,
        responses=answers_to_a_challenge_action({201: s.GameSerializer}),
        description="Accept a challenge from the lobby or one sent to you: the game starts at once. "
        "An invite link is accepted with its token (POST /api/challenges/accept/), never by id (`needs_invite_link`).",
    )
    def post(self, request, pk: int):
        game = lobby_services.challenge_accept(user=request.user, challenge_id=pk)
        return game_response(game, request, status.HTTP_201_CREATED)


class ChallengeAcceptByTokenApi(APIView):
    @operation(
        operation_id="challenges_accept_by_token",
        tags=["challenges"],
        request=s.ChallengeTokenInputSerializer,
        responses=answers_to_a_challenge_action({201: s.GameSerializer}, 400, body=True),
        description="Accept an invite link (or any challenge) by its token.",
    )
    def post(self, request):
        data = s.ChallengeTokenInputSerializer.validated(request.data)
        game = lobby_services.challenge_accept(user=request.user, token=data["token"])
        return game_response(game, request, status.HTTP_201_CREATED)


class ChallengeDetailApi(APIView):
    @operation(
        operation_id="challenges_retrieve",
        tags=["challenges"],
        responses=answers({200: s.ChallengeSerializer}, 401, 404),
        description="One challenge: one you sent or were sent, or one open in the lobby. What the lobby's "
        "socket tells of it (`challenge_received` and the rest) is the same, but the invite's `token`.",
    )
    def get(self, request, pk: int):
        return challenge_response(lobby_selectors.challenge_seen_by(request.user, pk), request)


class ChallengeDeclineApi(APIView):
    @operation(
        operation_id="challenges_decline",
        tags=["challenges"],
        request=s.ChallengeDeclineInputSerializer,
        responses=answers_to_a_challenge_action({200: s.ChallengeSerializer}, 400, body=True),
        description="Say no to a challenge sent to you, with a `reason` the challenger is told "
        "(`challenge_declined` on their lobby socket, and `decline_reason` here). No body: `generic`.",
    )
    def post(self, request, pk: int):
        data = s.ChallengeDeclineInputSerializer.validated(request.data)
        challenge = lobby_services.challenge_decline(user=request.user, challenge_id=pk, reason=data["reason"])
        return challenge_response(challenge, request)


class ChallengeCancelApi(APIView):
    @operation(
        operation_id="challenges_cancel",
        tags=["challenges"],
        request=None,
        responses=answers_to_a_challenge_action({200: s.ChallengeSerializer}),
        description="Withdraw your challenge before anyone accepts it.",
    )
    def post(self, request, pk: int):
        return challenge_response(lobby_services.challenge_cancel(user=request.user, challenge_id=pk), request)


# --------------------------------------------------------------------------
# Quick pairing.


def _pairing(pairing, request, code=status.HTTP_200_OK) -> Response:
    context = {"request": request, "now": timezone.now()}
    return Response(s.PairingSerializer(pairing, context=context).data, status=code)


class PairingApi(APIView):
    """/api/pairing/: ask for a quick game (POST), see how it stands (GET), stop waiting (DELETE)."""

    # Asking and cancelling share one budget, here and on the quick game page.
    throttle_classes = [*api_settings.DEFAULT_THROTTLE_CLASSES, ActionThrottle.for_action("pairing")]

    @operation(
        operation_id="pairing_create",
        tags=["pairing"],
        request=s.PairingInputSerializer,
        responses=answers({201: s.PairingSerializer, 200: s.PairingSerializer}, 400, 401, body=True)
        | {409: PAIRING_REFUSED},
        description="Ask for a game on `board` at `time_control` with the next player who asks for the same, "
        f"of about your rating: within ±{pairing_services.FIRST_RANGE} at first, "
        f"{pairing_services.RANGE_STEP} more every {pairing_services.RANGE_EVERY} s waited, any rating after "
        f"{pairing_services.ANY_RATING_AFTER} s (both players' ranges must allow it). `status` is `matched` with "
        "the `game` when someone was waiting who fits (201), else `waiting` (201). Asking again for the same "
        "while waiting keeps your request and checks in (200): poll this way every few seconds, or a request "
        f"nobody checks in on for {int(pairing_services.STALE_AFTER.total_seconds() // 60)} minutes expires. "
        "Asking for something else while waiting is a 409 `already_waiting`: cancel first. `rated` (default "
        "true) or casual: only requests with the same choice are paired, and a bot only with another bot.",
    )
    def post(self, request):
        data = s.PairingInputSerializer.validated(request.data)
        pairing, created = pairing_services.pairing_request(
            player=request.user, variant=data["board"], time_control=data["time_control"], rated=data["rated"]
        )
        return _pairing(pairing, request, status.HTTP_201_CREATED if created else status.HTTP_200_OK)

    @operation(
        operation_id="pairing_retrieve",
        tags=["pairing"],
        responses=answers({200: s.PairingSerializer}, 401, 404),
        description="Your latest request, whatever became of it: `waiting`, `matched` (with the `game`), "
        "`cancelled` or `expired`. Reading it does not check in (POST again does). A 404 when you never asked.",
    )
    def get(self, request):
        pairing = lobby_selectors.pairing_latest(request.user)
        if pairing is None:
            raise exceptions.NotFound("You have not asked for a quick game.")
        return _pairing(pairing, request)

    @operation(
        operation_id="pairing_cancel",
        tags=["pairing"],
        request=None,
        responses=answers({200: s.PairingSerializer}, 401, 404) | {409: PAIRING_REFUSED},
        description="Stop waiting: your latest request is `cancelled` and nobody is paired with it. "
        "A 409 `already_paired` (with the `game`) when someone was paired with you first, "
        "`not_waiting` when it was cancelled or expired already; a 404 when you never asked.",
    )
    def delete(self, request):
        try:
            pairing = pairing_services.pairing_cancel(player=request.user)
        except PairingRequest.DoesNotExist:
            raise exceptions.NotFound("You have not asked for a quick game.") from None
        return _pairing(pairing, request)


# --------------------------------------------------------------------------
# The engine, for anyone.


class AnalyseApi(APIView):
    permission_classes = [AllowAny]

    @operation(
        operation_id="analyse",
        tags=["engine"],
        request=s.AnalyseInputSerializer,
        responses={**answers({200: s.AnalysisSerializer}, 400, 401, 403, body=True), 202: ENGINE_WORKING},
        description="The engine's evaluation of every empty cell for the player to move: a win, a draw or "
        "a loss under perfect play from both sides, and in how many moves. Exact on every board (3x3, 4x4 "
        f"and 5x5). The search has {ANALYSE_BUDGET:g} seconds; a cell it has not solved by then is "
        "`unsolved` and the analysis says `exact: false` (it never guesses, and no raw search score is "
        "given). `traps` tells moves with the same outcome apart: how many of the opponent's replies after each "
        "would give up part of its outcome. `stats` compares the positions this search visited with what a textbook alpha-beta and "
        "a plain minimax would visit. `line` is the line of best play from the position (the principal "
        f"variation), found in at most {LINE_BUDGET:g} more seconds; `complete: false` when it stops short "
        "of the end. A finished position has no cells to evaluate: `cells` and the line are empty. "
        "An impossible position is a 400 whose message says why. Open to anyone. A 3x3 position, and any "
        "position answered before, is answered at once and costs nothing. Any other position starts a "
        "search and is answered 202 (`engine_working`) with Retry-After: send the same request again then. "
        "Searches are charged in seconds of engine time to the client (the account, or the session) and "
        "its address; past that budget 429 (`engine_rate_limited`), and with the engine's queue full 503 "
        "(`engine_busy`), both with Retry-After.",
    )
    def post(self, request):
        board = s.AnalyseInputSerializer.validated(request.data)["board"]
        analysis, line = asking.ask(
            request,
            engine_jobs.analysis_and_line,
            str(board),
            ANALYSE_BUDGET,
            LINE_BUDGET,
            budget=ANALYSE_BUDGET + LINE_BUDGET,
            complete=_complete,
        )
        return Response(s.AnalysisSerializer.of(board, analysis, line).data)


def _complete(found) -> bool:
    analysis, line = found
    return analysis.exact and analysis.traps is not None and line.complete


# --------------------------------------------------------------------------
# Anything else under /api/.


class NotFoundApi(APIView):
    """Unknown /api/ addresses answer in JSON, like every other API error."""

    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = []
    schema = None  # not an operation

    def http_method_not_allowed(self, request, *args, **kwargs):
        message = f"There is no API endpoint at {request.path}."
        if not request.path.endswith("/"):
            try:
                resolved = resolve(request.path + "/")
            except Resolver404:
                resolved = None
            if resolved is not None and resolved.func.view_class is not NotFoundApi:
                message += f" Did you mean {request.path}/ (with the slash)?"
        raise exceptions.NotFound(message)

    options = http_method_not_allowed
