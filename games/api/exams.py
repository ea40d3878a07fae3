"""Exams in the API: a student's minimax answers positions and is graded
against perfect play, and plays games against each level of the AI
(games/exams/).

Its own module beside views.py, in its pattern: one view per operation; input
serializer, service or selector, output serializer. Every exam is its owner's:
anyone else hears 404, as if it did not exist; its report page is shared by
its link.
"""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from games.api.fields import MAX_CELL, OptionalChoiceField, WholeNumberField
from games.api.schema import ENGINE_WORKING, answers, operation
from games.api.serializers import InputSerializer
from games.engine_work import asking
from games.exams import positions, selectors, services
from games.exams.models import Exam, ExamGame, Grade
from games.play.models import Level, Result, Side, Status, Variant

# --------------------------------------------------------------------------
# What goes in and out.


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "enum": ["all"]},
            {"type": "integer", "minimum": 0, "maximum": positions.MOST_POSITIONS},
        ],
        "example": "all",
    }
)
class PositionsField(serializers.Field):
    """ "all" (3x3) or a whole number of positions, 1 to 1,000 (4x4 and 5x5); 0 for none."""

    default_error_messages = {
        "invalid": f'"all" or a whole number from 0 to {positions.MOST_POSITIONS}.',
    }

    def to_internal_value(self, data):
        if data == "all":
            return None
        if isinstance(data, bool) or not isinstance(data, int) or not 0 <= data <= positions.MOST_POSITIONS:
            self.fail("invalid")
        return data

    def to_representation(self, value):
        return "all" if value is None else value


class ExamCreateInputSerializer(InputSerializer):
    variant = serializers.ChoiceField(choices=Variant.choices, help_text="The board.")
    positions = PositionsField(
        required=False,
        default=0,
        help_text='"all": every 3x3 position reachable in play and not over (4,520). On 4x4 and 5x5, how many '
        "positions to sample from random play, 1 to 1,000. 0 or absent: none, for an exam of games only.",
    )
    games = WholeNumberField(
        required=False,
        default=0,
        min_value=0,
        max_value=services.MOST_GAMES,
        help_text="How many games to play against each level of the AI (easy, medium, hard, perfect) on each "
        "side, 0 to 10: 8 games for each one asked.",
    )
    seed = WholeNumberField(
        required=False,
        min_value=0,
        max_value=2**31 - 1,
        help_text="4x4 and 5x5: the same seed samples the same positions. Absent: a random one, in the answer.",
    )


class ExamPositionSerializer(serializers.Serializer):
    index = serializers.IntegerField(help_text="The position's number in this exam, from 0.")
    board = serializers.CharField(help_text='The position, row by row: "X", "O" or "." per cell.')
    to_move = serializers.ChoiceField(choices=Side.choices)


class WrongAnswerSerializer(ExamPositionSerializer):
    cell = serializers.IntegerField(help_text="The answer given.")
    grade = serializers.ChoiceField(choices=Grade.choices)
    best_cells = serializers.SerializerMethodField(help_text="The depth-aware best moves.")

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_best_cells(self, row):
        return positions.best_cells(row.outcomes)


#: A game of the exam, from the program's side.
OUTCOMES = ["won", "drawn", "lost", "aborted", "playing"]


class ExamGameSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="game_id", help_text="The game: play it at /api/games/{id}/ or its socket.")
    level = serializers.ChoiceField(choices=Level.choices, help_text="The AI's level.")
    side = serializers.ChoiceField(choices=Side.choices, help_text="Your program's side.")
    status = serializers.ChoiceField(source="game.status", choices=Status.choices)
    result = OptionalChoiceField(source="game.result", choices=Result.choices, help_text="Null until the game is over.")
    outcome = serializers.SerializerMethodField(help_text="The game from your program's side.")
    page = serializers.SerializerMethodField(help_text="The game's page, to watch or replay it.")

    @extend_schema_field(serializers.ChoiceField(choices=["won", "drawn", "lost", "aborted", "playing"]))
    def get_outcome(self, exam_game: ExamGame) -> str:
        return selectors.outcome(exam_game)

    @extend_schema_field(serializers.URLField())
    def get_page(self, exam_game: ExamGame) -> str:
        return self.context["request"].build_absolute_uri(exam_game.game.get_absolute_url())


class ExamPlayedSerializer(serializers.Serializer):
    games = serializers.IntegerField(help_text="8 for each game asked against each level on each side.")
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    aborted = serializers.IntegerField(help_text="Called off before both sides moved.")
    playing = serializers.IntegerField(help_text="Not over yet.")


class ExamCountsSerializer(serializers.Serializer):
    positions = serializers.IntegerField()
    answered = serializers.IntegerField()
    best = serializers.IntegerField(help_text="The fastest win, a draw where the position is drawn, the slowest loss.")
    slower_win = serializers.IntegerField(help_text="A win, but not the fastest.")
    win_to_draw = serializers.IntegerField(help_text="A won position answered with a draw.")
    loss = serializers.IntegerField(help_text="A won or drawn position answered with a loss.")
    quicker_loss = serializers.IntegerField(help_text="A lost position answered with a quicker loss.")


class ExamSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    variant = serializers.ChoiceField(choices=Variant.choices)
    status = serializers.ChoiceField(
        choices=[("open", "open"), ("finished", "finished")],
        help_text='"finished" once every position is answered and every game is over.',
    )
    seed = serializers.IntegerField(allow_null=True, help_text="What sampled the positions; null on 3x3.")
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    summary = serializers.SerializerMethodField(
        help_text='"4,520 positions: 4,438 best, 82 slower wins, 0 losses; 8 games: 2 won, 6 drawn, 0 lost".'
    )
    counts = serializers.SerializerMethodField()
    games_per_side = serializers.IntegerField(help_text="Games against each level of the AI on each side.")
    played = serializers.SerializerMethodField(help_text="The games' results, from your program's side.")
    report = serializers.SerializerMethodField(help_text="The report page: anyone with this link may read it.")
    answers = serializers.SerializerMethodField(help_text="Where to POST the answers.")

    def get_summary(self, exam) -> str:
        return selectors.summary(exam)

    @extend_schema_field(ExamCountsSerializer)
    def get_counts(self, exam):
        return selectors.counts(exam)

    @extend_schema_field(ExamPlayedSerializer)
    def get_played(self, exam):
        return selectors.played_counts(exam)

    @extend_schema_field(serializers.URLField())
    def get_report(self, exam) -> str:
        return self.context["request"].build_absolute_uri(exam.get_absolute_url())

    @extend_schema_field(serializers.URLField())
    def get_answers(self, exam) -> str:
        return self.context["request"].build_absolute_uri(reverse("api:exam-answers", args=[exam.pk]))


class ExamCreatedSerializer(ExamSerializer):
    positions = ExamPositionSerializer(
        source="position_rows", many=True, help_text="Every position to answer, in order."
    )
    games = ExamGameSerializer(
        source="game_rows", many=True, help_text="Every game to play; where the AI has X it has moved."
    )


class ExamReportSerializer(ExamSerializer):
    wrong_answers = WrongAnswerSerializer(many=True, help_text="Every answer graded other than best, in order.")
    games = ExamGameSerializer(source="game_rows", many=True, help_text="Every game, with its outcome.")


class AnswerSerializer(serializers.Serializer):
    position = WholeNumberField(min_value=0, help_text="The position's index.")
    cell = WholeNumberField(min_value=0, max_value=MAX_CELL, help_text="The move the program chose.")


class AnswersInputSerializer(InputSerializer):
    answers = serializers.ListField(
        child=AnswerSerializer(),
        max_length=services.MOST_ANSWERS,
        help_text="Up to 1,000 answers, each a position's index and the cell the program chose.",
    )


# --------------------------------------------------------------------------
# The operations: the owner's, signed in by token or session.


def _report(exam: Exam, request, code: int = status.HTTP_200_OK) -> Response:
    exam.wrong_answers = list(selectors.wrong_answers(exam))
    exam.game_rows = selectors.exam_games(exam)
    return Response(ExamReportSerializer(exam, context={"request": request}).data, status=code)


class ExamsApi(APIView):
    pagination_class = api_settings.DEFAULT_PAGINATION_CLASS

    @operation(
        operation_id="exams_list",
        tags=["exams"],
        responses=answers({200: ExamSerializer(many=True)}, 401, 404),
        description="Your exams, newest first, 20 a page, with each one's counts. A page past the end is a 404.",
    )
    def get(self, request):
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(selectors.exams_of(request.user), request, view=self)
        return paginator.get_paginated_response(ExamSerializer(page, many=True, context={"request": request}).data)

    @operation(
        operation_id="exams_create",
        tags=["exams"],
        request=ExamCreateInputSerializer,
        responses={**answers({201: ExamCreatedSerializer}, 400, 401, body=True), 202: ENGINE_WORKING},
        description='An exam: on 3x3, `"positions": "all"` asks every position reachable in play and not over '
        "(4,520); on 4x4 and 5x5 a number, 1 to 1,000, of positions sampled from random play (reproducibly "
        "from `seed`; without one, the same seed until your next exam). The engine samples them in its own "
        "processes, charged to you in seconds of engine time (at most 30): until it is done the answer is 202 "
        "(`engine_working`) with Retry-After; send the same request again then. Every move's exact outcome is "
        "stored, so answers are graded at once. "
        "With `games`, the exam also starts that many games against each level of the AI on each side, "
        "seeded so each can be replayed: play them as any game, over REST or the game's socket; each result "
        "is counted as the game ends. "
        "Answer with POST to `answers`; read the grades at GET /api/exams/{id}/ and share `report`.",
    )
    def post(self, request):
        data = ExamCreateInputSerializer.validated(request.data)
        variant, count, seed = data["variant"], data["positions"], None
        sampled = None
        if variant != Variant.THREE and count:
            # Sampled and solved by the engine's processes, charged to the asker: 202 until it is done.
            seed = data.get("seed")
            if seed is None:
                seed = services.default_seed(request.user, variant, count)
            size, seconds = Variant(variant).size, positions.SAMPLE_SECONDS
            sampled = asking.ask(
                request, positions.sample_job, size, count, seed, seconds, budget=seconds, at_once=False
            )
        exam = services.exam_create(
            owner=request.user,
            variant=variant,
            count=count,
            seed=seed,
            sampled=sampled,
            games=data["games"],
        )
        exam.position_rows = list(selectors.exam_positions(exam))
        exam.game_rows = selectors.exam_games(exam)
        return Response(ExamCreatedSerializer(exam, context={"request": request}).data, status=status.HTTP_201_CREATED)


class ExamDetailApi(APIView):
    @operation(
        operation_id="exams_retrieve",
        tags=["exams"],
        responses=answers({200: ExamReportSerializer}, 401, 404),
        description="Your exam's report: the summary, the counts per grade and every wrong answer with the best "
        "moves. Someone else's exam is a 404.",
    )
    def get(self, request, pk: int):
        return _report(selectors.exam_of(request.user, pk), request)


class ExamAnswersApi(APIView):
    @operation(
        operation_id="exams_answers",
        tags=["exams"],
        request=AnswersInputSerializer,
        responses=answers({200: ExamReportSerializer}, 400, 401, 404, 409, body=True),
        description="Answer positions of your exam, up to 1,000 a request, in any order and over as many "
        "requests as you like. All or nothing: an unknown position or an illegal cell is a 400, a position "
        "answered before a 409 (`already_answered`), and then nothing is stored. When every position is "
        "answered the exam is finished. The answer is the report, as GET gives it.",
    )
    def post(self, request, pk: int):
        answers = AnswersInputSerializer.validated(request.data)["answers"]
        exam = services.exam_answer(
            exam_id=pk, owner=request.user, answers=[services.Answer(a["position"], a["cell"]) for a in answers]
        )
        return _report(exam, request)
