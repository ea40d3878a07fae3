"""The puzzles in the API: a board's puzzles, today's, one puzzle, and checking an answer.

Its own module beside views.py and serializers.py, in their pattern (one view
per operation; input serializer, selector or engine check, output serializer),
so neither grows past what one reads at a sitting. Everything here reads:
checking an answer is a POST because it carries a body, and stores nothing.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema_field
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from games.api.fields import MAX_CELL, WholeNumberField
from games.api.schema import ENGINE_WORKING, answers, operation
from games.api.serializers import EvaluationSerializer, InputSerializer, QueryFilterSerializer
from games.learn import puzzle_selectors, solving
from games.learn.models import Puzzle, Theme
from games.play.models import Side, Variant

#: The most moves a learner can send: their share of a full 5x5 board.
MOST_MOVES = (MAX_CELL + 2) // 2


# --------------------------------------------------------------------------
# What goes in and out.


class PuzzleSerializer(serializers.Serializer):
    """A puzzle as the learner meets it: the position and what it asks, not the answer."""

    id = serializers.IntegerField()
    url = serializers.SerializerMethodField(help_text="The puzzle's page on the site.")
    variant = serializers.ChoiceField(choices=Variant.choices)
    board = serializers.CharField(source="position", help_text='The position, row by row: "X", "O" or "." per cell.')
    to_move = serializers.ChoiceField(source="side", choices=Side.choices, help_text="The side the learner plays.")
    theme = serializers.ChoiceField(
        choices=Theme.choices,
        help_text="What it asks: win now, block, make a fork, save a draw, win in three (with the learner's "
        "third move), or a longer win.",
    )
    goal = serializers.ChoiceField(
        choices=[("win", "win"), ("draw", "draw")],
        help_text='"win": exactly one first move wins within `win_in` moves; "draw": exactly one move does '
        "not lose (block, save a draw), and playing it solves the puzzle.",
    )
    task = serializers.CharField(help_text='What it asks in words, after "X to play and": "win with your second move".')
    win_in = serializers.IntegerField(
        allow_null=True,
        help_text="Moves to the win with best play from both sides, the first and the last included: "
        "3 is the learner's move, the reply, and the learner's win. Null where the goal is a draw.",
    )
    game = serializers.IntegerField(
        source="game_id", allow_null=True, help_text="The game it was found in; null once deleted."
    )
    created_at = serializers.DateTimeField(help_text="When it was found.")

    @extend_schema_field(serializers.URLField())
    def get_url(self, puzzle) -> str:
        request = self.context.get("request")
        url = puzzle.get_absolute_url()
        return request.build_absolute_uri(url) if request is not None else url


class PuzzleFilterSerializer(QueryFilterSerializer):
    variant = serializers.ChoiceField(
        choices=Variant.choices, required=False, help_text="One board; absent: every board."
    )
    theme = serializers.ChoiceField(choices=Theme.choices, required=False, help_text="One theme; absent: every theme.")


class AttemptInputSerializer(InputSerializer):
    played = serializers.ListField(
        child=WholeNumberField(min_value=0, max_value=MAX_CELL),
        allow_empty=True,
        max_length=MOST_MOVES,
        help_text="The learner's own moves so far, in order (not the replies: the engine plays those). "
        "[] asks for the puzzle's start.",
    )


class StepSerializer(serializers.Serializer):
    cell = serializers.IntegerField(help_text="The learner's move.")
    side = serializers.ChoiceField(choices=Side.choices)
    verdict = serializers.ChoiceField(
        choices=list(solving.VERDICTS),
        help_text='"wins": still wins in time, the reply follows; "solved": the winning move; "holds": the move '
        'that does not lose, where that is asked (solved; the reply follows); "slower": wins, '
        'but not within the moves promised; "draws": lets the opponent draw; "loses": loses; '
        '"unsolved": the engine could not check it in time (not judged, try again).',
    )
    evaluation = EvaluationSerializer(help_text="The move's exact outcome for the learner.")
    reply = serializers.IntegerField(allow_null=True, help_text="The opponent's best reply, when the puzzle goes on.")
    winning_cells = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The cells that won in time from the position before this move; where the goal is a draw, "
        "the cells that did not lose.",
    )
    message = serializers.CharField(help_text='What the page says: "That wins: O\'s best reply is cell 5. Your move."')


class AttemptSerializer(serializers.Serializer):
    """Built from ``{"puzzle": Puzzle, "attempt": solving.Attempt}``."""

    puzzle = serializers.IntegerField(source="puzzle.pk")
    status = serializers.ChoiceField(
        source="attempt.status",
        choices=[solving.SOLVING, solving.SOLVED, solving.FAILED],
        help_text='"solving": the learner\'s move; "solved": won in time; "failed": a move missed the win.',
    )
    board = serializers.SerializerMethodField(help_text="The position now, the replies played.")
    moves = serializers.SerializerMethodField(
        help_text="Every move since the puzzle's position: the learner's and the replies."
    )
    steps = StepSerializer(source="attempt.steps", many=True, help_text="Each of the learner's moves, judged.")
    message = serializers.CharField(source="attempt.message", help_text="The last step's message; empty before any.")
    solution = serializers.SerializerMethodField(
        help_text="The line of best play from the puzzle's position, once the attempt is over; null before."
    )

    def get_board(self, data) -> str:
        return str(data["attempt"].board)

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_moves(self, data):
        return [cell for cell, _side, _own in data["attempt"].moves]

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField(), allow_null=True))
    def get_solution(self, data):
        return list(data["puzzle"].solution_cells) if data["attempt"].is_over else None


# --------------------------------------------------------------------------
# The operations: open to anyone, like the puzzle pages.


def _puzzle(puzzle, request) -> Response:
    return Response(PuzzleSerializer(puzzle, context={"request": request}).data)


class PuzzlesApi(APIView):
    permission_classes = [AllowAny]
    pagination_class = api_settings.DEFAULT_PAGINATION_CLASS

    @operation(
        operation_id="puzzles_list",
        tags=["puzzles"],
        parameters=[PuzzleFilterSerializer],
        responses=answers({200: PuzzleSerializer(many=True)}, 400, 404),
        description="Puzzles: the starter set and those found in the site's finished games, positions where "
        "exactly one move is right (it wins within `win_in` moves, or it is the only one that does not lose), "
        "as the engine proved. By board, theme by theme (easiest first), 20 a page. A page past the end is a 404.",
    )
    def get(self, request):
        filters = PuzzleFilterSerializer.validated(request.query_params)
        variant, theme = filters.get("variant"), filters.get("theme")
        puzzles = puzzle_selectors.puzzles_on(variant, theme) if variant else puzzle_selectors.every_puzzle(theme)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(puzzles, request, view=self)
        return paginator.get_paginated_response(PuzzleSerializer(page, many=True, context={"request": request}).data)


class PuzzleDailyApi(APIView):
    permission_classes = [AllowAny]

    @operation(
        operation_id="puzzles_daily",
        tags=["puzzles"],
        responses=answers({200: PuzzleSerializer}, 404),
        description="Today's puzzle, as the home page shows it: the same for everyone all day. "
        "404 while no puzzles are stored.",
    )
    def get(self, request):
        puzzle = puzzle_selectors.daily_puzzle()
        if puzzle is None:
            raise Puzzle.DoesNotExist
        return _puzzle(puzzle, request)


class PuzzleDetailApi(APIView):
    permission_classes = [AllowAny]

    @operation(
        operation_id="puzzles_retrieve",
        tags=["puzzles"],
        responses=answers({200: PuzzleSerializer}, 404),
        description="One puzzle by its id: the position, the side to move, its theme and what it asks.",
    )
    def get(self, request, pk: int):
        return _puzzle(puzzle_selectors.puzzle_detail(pk), request)


class PuzzleAttemptApi(APIView):
    permission_classes = [AllowAny]

    @operation(
        operation_id="puzzles_attempt",
        tags=["puzzles"],
        request=AttemptInputSerializer,
        responses={
            **answers(
                {200: OpenApiResponse(AttemptSerializer, description="The moves, judged. Nothing is stored.")},
                400,
                404,
                body=True,
            ),
            202: ENGINE_WORKING,
        },
        description="Check the learner's moves on a puzzle, as the puzzle page does: each is judged by the "
        "engine afresh, and after each right one the opponent's best reply is played (send only your own "
        "moves). A move is right when it still wins within the moves the puzzle promised; where the goal is a "
        "draw, the one move that does not lose solves it. The attempt is over at the win, at that move, or "
        "at the first move that misses it; then `solution` is the line of best play. "
        "A cell off the board or taken, or a move after the attempt was over, is a 400 naming `played`. "
        "Nothing is stored. The engine's searches are charged like /api/analyse/'s: a 4x4 or 5x5 position "
        "not judged before is answered 202 (`engine_working`); send the same request again after Retry-After.",
    )
    def post(self, request, pk: int):
        played = AttemptInputSerializer.validated(request.data)["played"]
        puzzle = puzzle_selectors.puzzle_detail(pk)
        try:
            attempt = solving.attempt(puzzle.position, puzzle.win_in, played, request=request)
        except solving.InvalidAttempt as refusal:
            raise serializers.ValidationError({"played": [str(refusal)]}) from None
        return Response(AttemptSerializer({"puzzle": puzzle, "attempt": attempt}).data)
