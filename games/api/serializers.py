"""What goes in and out of the API: one input serializer per operation, and
the shapes of games, challenges, analyses, reviews and errors.

Serializers here parse and present; they decide no rule of the game. Input is
checked for shape (a whole number, one of the variants); whether a move is
legal is for the services to say.
"""

from __future__ import annotations

from collections.abc import Mapping

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games import engine
from games.api.codes import ERROR_CODES
from games.api.fields import (
    MAX_CELL,
    OptionalChoiceField,
    PositionField,
    StringField,
    TrueOrFalseField,
    WholeNumberChoiceField,
    WholeNumberField,
)
from games.lobby.models import (
    MOVE_TIME_LIMITS,
    ChallengeKind,
    ChallengeSide,
    ChallengeStatus,
    DeclineReason,
    PairingStatus,
)
from games.lobby.pairing_services import rating_range
from games.play.clocks import MAX_INCREMENT, MAX_MINUTES, PRESETS
from games.play.models import Level, Result, Side, StartMode, Status, Termination, Variant, levels_described
from games.play.selectors import RESULT_FILTERS

# --------------------------------------------------------------------------
# Input: every serializer that reads a body or a query string is one of these.

UNKNOWN_FIELD = "Unknown field. This operation takes: {known}."


class InputSerializer(serializers.Serializer):
    """Input that names only the fields the operation takes.

    DRF drops names it does not know, so a misspelt ``varient`` would start a
    default game; here any name not declared is a 400 (``invalid``) with a
    message under that name in ``fields``, alongside any other field errors.
    ``passed_through`` names parameters other code reads (``page``).
    """

    passed_through: tuple[str, ...] = ()

    @classmethod
    def validated(cls, data, **context) -> dict:
        """``data`` validated, or the ValidationError the API answers 400 with."""
        serializer = cls(data=data, context=context)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def to_internal_value(self, data):
        unknown = self.unknown_fields(data)
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            if unknown and isinstance(exc.detail, dict):
                raise serializers.ValidationError({**unknown, **exc.detail}) from exc
            raise
        if unknown:
            raise serializers.ValidationError(unknown)
        return value

    def unknown_fields(self, data) -> dict[str, list[str]]:
        if not isinstance(data, Mapping):
            return {}  # DRF answers "Expected a dictionary"
        known = [name for name, field in self.fields.items() if not field.read_only]
        allowed = {*known, *self.passed_through}
        message = UNKNOWN_FIELD.format(known=", ".join(known) or "no fields")
        return {name: [message] for name in data if name not in allowed}


# --------------------------------------------------------------------------
# Errors (for the schema: the exception handler writes these bodies).


def _error_fields(**extra) -> dict:
    return {
        "code": serializers.ChoiceField(
            choices=ERROR_CODES, help_text="What went wrong, in a word a program can test."
        ),
        "message": serializers.CharField(help_text="What went wrong, in a sentence a person can read."),
        **extra,
    }


class ErrorSerializer(serializers.Serializer):
    """Every error: a code and a message; validation errors add ``fields``."""

    # "fields" is the name of a Serializer property, so the fields are declared here.
    def get_fields(self):
        return _error_fields(
            fields=serializers.DictField(
                child=serializers.ListField(child=serializers.CharField()),
                required=False,
                help_text="For invalid input: the messages about each field, by field name.",
            )
        )


# --------------------------------------------------------------------------
# Accounts.


class TokenInputSerializer(InputSerializer):
    username = StringField()
    password = StringField(style={"input_type": "password"}, write_only=True)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text='Send it as "Authorization: Token <token>".')


# --------------------------------------------------------------------------
# Games.


class PlayerSerializer(serializers.Serializer):
    username = serializers.CharField(allow_null=True, help_text="Null for the AI, a guest or a deleted account.")
    name = serializers.CharField(help_text='The name to show: "alice", "AI (perfect)", "Guest", "Deleted player".')
    kind = serializers.ChoiceField(choices=["human", "ai", "guest", "deleted"])
    level = OptionalChoiceField(choices=Level.choices, help_text="The AI's level; null for people.")
    bot = serializers.BooleanField(help_text="A bot account (a program plays it), shown BOT on the site.")


def player_data(game, side: str) -> dict:
    """Who plays ``side``: a person, the AI, a guest, or an account since deleted."""
    user = game.player(side)
    kind = game.player_kind(side)
    return {
        "username": user.get_username() if user is not None else None,
        "name": game.player_name(side),
        "kind": kind,
        "level": game.ai_level if kind == "ai" else None,
        "bot": game.player_is_bot(side),
    }


class ClockSerializer(serializers.Serializer):
    """The time in a game, as the server counts it when it answers."""

    time_control = serializers.CharField(source="time_control.key", help_text='"3+2", "3d", "30s".')
    label = serializers.CharField(source="time_control.label", help_text='"3+2 (3 minutes + 2 s a move)".')
    kind = serializers.ChoiceField(source="time_control.kind", choices=["clock", "correspondence"])
    initial = serializers.IntegerField(
        source="time_control.initial", allow_null=True, help_text="Seconds on each clock at the start."
    )
    increment = serializers.IntegerField(source="time_control.increment", help_text="Seconds added after each move.")
    per_move = serializers.IntegerField(
        source="time_control.per_move", allow_null=True, help_text="Seconds for each move (correspondence)."
    )
    x_ms = serializers.IntegerField(allow_null=True, help_text="X's time left in milliseconds; null without a clock.")
    o_ms = serializers.IntegerField(allow_null=True, help_text="O's time left in milliseconds; null without a clock.")
    running = OptionalChoiceField(choices=Side.choices, help_text="The side whose clock is running, if any.")
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="When the side to move runs out of time; the server then ends the game."
    )
    first_move = serializers.BooleanField(
        help_text="The deadline is for a first move: missing it aborts the game (no result)."
    )


class GameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.SerializerMethodField(help_text="The game's page on the site.")
    variant = serializers.ChoiceField(choices=Variant.choices)
    board = serializers.SerializerMethodField(help_text='The position, row by row: "X", "O" or "." per cell.')
    ply = serializers.IntegerField(source="move_count", help_text="How many moves have been made.")
    to_move = serializers.SerializerMethodField(help_text="Whose turn it is; null once the game is over.")
    status = serializers.ChoiceField(choices=Status.choices)
    result = OptionalChoiceField(choices=Result.choices, help_text="Null until the game is finished.")
    termination = OptionalChoiceField(choices=Termination.choices)
    winning_line = serializers.SerializerMethodField(help_text="The cells of the winning line, or null.")
    moves = serializers.SerializerMethodField(help_text="The cells played, in order (X first).")
    x_player = serializers.SerializerMethodField()
    o_player = serializers.SerializerMethodField()
    your_side = serializers.SerializerMethodField(help_text="The side you play in this game; null if you do not.")
    ai_side = OptionalChoiceField(choices=Side.choices, help_text="The side the AI plays; null between people.")
    ai_level = OptionalChoiceField(choices=Level.choices)
    start_mode = OptionalChoiceField(choices=StartMode.choices, help_text="How the AI opens when it plays X.")
    clock = serializers.SerializerMethodField(help_text="The time control and clocks; null without a time control.")
    move_time_limit = serializers.IntegerField(allow_null=True, help_text="Seconds per move; null: no limit.")
    turn_deadline = serializers.DateTimeField(
        source="deadline", allow_null=True, help_text="When the player to move runs out of time (`clock.deadline`)."
    )
    draw_offer = OptionalChoiceField(choices=Side.choices, help_text="The side offering a draw; null for none.")
    takeback_offer = OptionalChoiceField(
        choices=Side.choices, help_text="The side asking to take its last move back; null for none."
    )
    takebacks_allowed = serializers.BooleanField(help_text="Both players agreed to takebacks before the game.")
    rated = serializers.BooleanField(
        help_text="Its result moves the players' ratings; false for a casual game, a game against the AI "
        "and a game between a bot and a person."
    )
    rematch_of = serializers.IntegerField(source="rematch_of_id", allow_null=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)

    @extend_schema_field(serializers.URLField())
    def get_url(self, game) -> str:
        request = self.context.get("request")
        url = game.get_absolute_url()
        return request.build_absolute_uri(url) if request is not None else url

    def get_board(self, game) -> str:
        return str(game.board)

    @extend_schema_field(ClockSerializer(allow_null=True))
    def get_clock(self, game):
        state = game.clock_state()
        return ClockSerializer(state).data if state else None

    @extend_schema_field(serializers.ChoiceField(choices=Side.choices, allow_null=True))
    def get_to_move(self, game):
        return game.board.to_move if game.is_in_progress else None

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField(), allow_null=True))
    def get_winning_line(self, game):
        line = game.board.winning_line
        return list(line) if line else None

    def get_moves(self, game) -> list[int]:
        return list(game.cells)

    @extend_schema_field(PlayerSerializer)
    def get_x_player(self, game):
        return player_data(game, "X")

    @extend_schema_field(PlayerSerializer)
    def get_o_player(self, game):
        return player_data(game, "O")

    @extend_schema_field(serializers.ChoiceField(choices=Side.choices, allow_null=True))
    def get_your_side(self, game):
        request = self.context.get("request")
        return game.side_of(request.user) if request is not None else None


class TakenBackSerializer(serializers.Serializer):
    ply = serializers.IntegerField(help_text="The ply of the first move taken back.")
    cells = serializers.ListField(child=serializers.IntegerField(), help_text="The cells taken back, in order.")
    side = serializers.ChoiceField(choices=Side.choices, help_text="The side that took its move back.")
    agreed_by = OptionalChoiceField(choices=Side.choices, help_text="The side that agreed; null against the AI.")
    created_at = serializers.DateTimeField()


class GameDetailSerializer(GameSerializer):
    takebacks = TakenBackSerializer(
        source="takebacks.all", many=True, help_text="Every takeback in the game, oldest first: gone from `moves`."
    )


class GameRefusalSerializer(serializers.Serializer):
    """A move or action the game refused (409): the error and the game as it now stands."""

    def get_fields(self):
        return _error_fields(game=GameSerializer(help_text="The game as it stands: play on from here."))


class GameCreateInputSerializer(InputSerializer):
    opponent = serializers.ChoiceField(
        choices=["ai"],
        default="ai",
        help_text='"ai": games against people start from a challenge (POST /api/challenges/).',
        error_messages={
            "invalid_choice": '"{input}" is not an opponent here: only "ai" starts a game at once; '
            "to play a person, create a challenge: POST /api/challenges/."
        },
    )
    variant = serializers.ChoiceField(choices=Variant.choices, default=Variant.THREE)
    level = serializers.ChoiceField(choices=Level.choices, default=Level.PERFECT, help_text=levels_described())
    side = serializers.ChoiceField(
        choices=[*Side.choices, ("random", "Random")], default=Side.X, help_text="The side you play."
    )
    start_mode = serializers.ChoiceField(
        choices=StartMode.choices, default=StartMode.MINIMAX, help_text="How the AI opens when it plays X."
    )
    seed = WholeNumberField(
        min_value=0,
        max_value=2**31 - 1,
        required=False,
        help_text="Makes the AI's choices among equal moves repeatable: the same seed and the same moves "
        "get the same replies. Absent: a random seed.",
    )


class QueryFilterSerializer(InputSerializer):
    """Filters in the query string. DRF reads an empty ``?variant=`` as absent (as forms
    send it); here it is a 400, for the schema lists no "" (leave a filter out for any).
    An unknown parameter is a 400 too; ``page`` is the paginator's."""

    passed_through = ("page",)

    def validate(self, attrs):
        blank = [name for name in self.fields if self.initial_data.get(name) == ""]
        if blank:
            raise serializers.ValidationError({name: ["Leave this filter out to mean any."] for name in blank})
        return attrs


class GameFilterSerializer(QueryFilterSerializer):
    """The history page's filters; absent means any (an empty value is a 400, as the schema says)."""

    result = serializers.ChoiceField(
        choices=list(RESULT_FILTERS), required=False, help_text="From your side of the board."
    )
    opponent = serializers.ChoiceField(choices=["ai", "human"], required=False)
    variant = serializers.ChoiceField(choices=Variant.choices, required=False)
    level = serializers.ChoiceField(choices=Level.choices, required=False, help_text="The AI's level.")


class MoveInputSerializer(InputSerializer):
    cell = WholeNumberField(min_value=0, max_value=MAX_CELL, help_text="0 is the top left, row by row.")
    ply = WholeNumberField(min_value=0, max_value=MAX_CELL + 1, help_text="How many moves you believe have been made.")


# --------------------------------------------------------------------------
# Challenges.


class ChallengeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=ChallengeKind.choices)
    status = serializers.ChoiceField(choices=ChallengeStatus.choices)
    variant = serializers.ChoiceField(choices=Variant.choices)
    challenger = serializers.CharField(source="challenger.username")
    opponent = serializers.CharField(
        source="opponent.username", allow_null=True, help_text="Who it was sent to, or who accepted it."
    )
    side = serializers.ChoiceField(
        source="challenger_side", choices=ChallengeSide.choices, help_text="The challenger's side."
    )
    move_time_limit = serializers.IntegerField(allow_null=True, help_text="Seconds per move; null: no limit.")
    time_control = serializers.CharField(
        source="time_control.key", help_text='The time control: "3+2" (a clock), "3d" (days per move) or "none".'
    )
    takebacks_allowed = serializers.BooleanField(help_text="Accepting it agrees to takebacks.")
    rated = serializers.BooleanField(help_text="A rated game, or a casual one (false): accepting agrees to it.")
    token = serializers.SerializerMethodField(
        help_text="The invite's secret (POST /api/challenges/accept/): shown to the challenger only."
    )
    game = serializers.IntegerField(source="game_id", allow_null=True, help_text="The game, once accepted.")
    rematch_of = serializers.IntegerField(source="rematch_of_id", allow_null=True)
    decline_reason = OptionalChoiceField(
        choices=DeclineReason.choices, help_text="Why the opponent declined it; null unless it was declined."
    )
    created_at = serializers.DateTimeField()
    resolved_at = serializers.DateTimeField(allow_null=True)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_token(self, challenge):
        request = self.context.get("request")
        if request is not None and challenge.challenger_id == request.user.pk:
            return challenge.token
        return None


class ChallengeCreateInputSerializer(InputSerializer):
    kind = serializers.ChoiceField(choices=ChallengeKind.choices, default=ChallengeKind.OPEN)
    variant = serializers.ChoiceField(choices=Variant.choices, default=Variant.THREE)
    side = serializers.ChoiceField(
        choices=ChallengeSide.choices, default=ChallengeSide.RANDOM, help_text="The side you play."
    )
    time_control = StringField(
        required=False,
        allow_null=True,
        default=None,
        max_length=16,
        help_text='The time control, by its key: "none" (the default), a clock as minutes+seconds added per move '
        f'("1+0", "3+2", "5+3", "10+5"; 1 to {MAX_MINUTES} minutes, 0 to {MAX_INCREMENT} s), or days per move '
        '("1d", "3d", "7d"). An unknown key is a 400 `invalid_time_control`. Not together with `move_time_limit`.',
    )
    move_time_limit = WholeNumberChoiceField(
        choices=[value for value, _ in MOVE_TIME_LIMITS if value is not None],
        allow_null=True,
        default=None,
        help_text="Seconds per move; null: no limit. The older way to ask for a time control: "
        '86400 is "1d"; prefer `time_control`.',
    )
    opponent = StringField(
        required=False, allow_blank=True, default="", help_text="The username to challenge, for a direct challenge."
    )
    takebacks_allowed = TrueOrFalseField(
        default=False, help_text="Allow takebacks: whoever accepts agrees to them too."
    )
    rated = TrueOrFalseField(
        default=True,
        help_text="A rated game (the default), or a casual one (false) that moves no rating. A game between "
        "a bot and a person is always casual.",
    )

    def validate(self, attrs):
        if attrs["kind"] == ChallengeKind.DIRECT and not attrs["opponent"]:
            raise serializers.ValidationError({"opponent": "A direct challenge names the player to challenge."})
        return attrs


class ChallengeTokenInputSerializer(InputSerializer):
    token = StringField(max_length=64, help_text="The secret of an invite link.")


class ChallengeDeclineInputSerializer(InputSerializer):
    reason = serializers.ChoiceField(
        choices=DeclineReason.choices,
        default=DeclineReason.GENERIC,
        help_text="Why, from a fixed list the challenger is told: "
        + "; ".join(f"`{value}`: {label.lower()}" for value, label in DeclineReason.choices)
        + ".",
    )


# --------------------------------------------------------------------------
# Quick pairing.


class PairingInputSerializer(InputSerializer):
    board = serializers.ChoiceField(choices=Variant.choices)
    time_control = serializers.ChoiceField(
        choices=[(control.key, control.label) for control in PRESETS],
        help_text="One of the time controls offered for quick games, by its key.",
    )
    rated = TrueOrFalseField(
        default=True,
        help_text="A rated game (the default) or a casual one: paired only with someone who asked the same.",
    )


class PairingSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=PairingStatus.choices,
        help_text="`waiting` for an opponent, `matched` (the game has started), `cancelled` or `expired`.",
    )
    board = serializers.ChoiceField(source="variant", choices=Variant.choices)
    time_control = serializers.CharField(source="time_control.key", help_text='"3+2", "1d", "none"...')
    rating = serializers.IntegerField(help_text="Your rating when you asked.")
    rated = serializers.BooleanField(help_text="A rated game, or a casual one (false).")
    waited = serializers.SerializerMethodField(
        help_text="Seconds waited so far, or until paired, cancelled or expired."
    )
    rating_range = serializers.SerializerMethodField(
        help_text="While waiting: how far from your rating an opponent may be now (it widens as you wait); "
        "null for any rating, or once no longer waiting."
    )
    game = serializers.IntegerField(source="game_id", allow_null=True, help_text="The game, once matched.")
    game_url = serializers.SerializerMethodField(help_text="The game's page, once matched.")
    created_at = serializers.DateTimeField()
    resolved_at = serializers.DateTimeField(allow_null=True)

    @extend_schema_field(serializers.IntegerField())
    def get_waited(self, pairing) -> int:
        return pairing.waited_seconds(self.context["now"])

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_rating_range(self, pairing):
        if pairing.status != PairingStatus.WAITING:
            return None
        return rating_range(pairing.waited_seconds(self.context["now"]))

    @extend_schema_field(serializers.URLField(allow_null=True))
    def get_game_url(self, pairing):
        if pairing.game_id is None:
            return None
        url = pairing.game.get_absolute_url()
        request = self.context.get("request")
        return request.build_absolute_uri(url) if request is not None else url


# --------------------------------------------------------------------------
# The engine's view: analysis and review.


class EvaluationSerializer(serializers.Serializer):
    """A move's value in words. The search's internal score is never part of it."""

    outcome = serializers.ChoiceField(
        choices=list(engine.OUTCOMES),
        help_text='For the player making the move, under perfect play from both sides: "win", "draw" or '
        '"loss", proven by the search. "unsolved" when the search ran out of its time before proving '
        "anything; it never guesses.",
    )
    plies = serializers.IntegerField(
        allow_null=True, help_text="Moves to the end of the game, this one included; null when unsolved."
    )
    exact = serializers.BooleanField(help_text='True for a proven outcome; false only for "unsolved".')


class SearchStatsSerializer(serializers.Serializer):
    nodes = serializers.IntegerField(
        help_text="Positions this search visited: alpha-beta with memory (transposition table, symmetries, "
        "on 5x5 a tablebase of every position up to six marks), so a position it already knows costs almost "
        "nothing."
    )
    seconds = serializers.FloatField(help_text="How long this search took.")
    depth = serializers.IntegerField(
        allow_null=True, help_text="Plies from here to a full board: the search looks to the end of the game."
    )
    textbook_nodes = serializers.IntegerField(
        help_text="Positions a textbook alpha-beta (no memory, fixed move order) visits for the same "
        "answer; a lower bound when textbook_nodes_exact is false."
    )
    textbook_nodes_exact = serializers.BooleanField(
        help_text="False when counting stopped early: the true count is more than textbook_nodes."
    )
    minimax_nodes = serializers.IntegerField(
        help_text="Positions a plain minimax visits: the whole game tree from here; a lower bound when "
        "minimax_nodes_exact is false."
    )
    minimax_nodes_exact = serializers.BooleanField(
        help_text="False when counting stopped early: the true count is more than minimax_nodes."
    )


class AnalyseInputSerializer(InputSerializer):
    board = PositionField(help_text='A position, row by row: 9, 16 or 25 of "X", "O" and ".".')

    def validate_board(self, value) -> engine.Board:
        try:
            return engine.Board.from_string(value)
        except engine.InvalidPositionError as error:
            raise serializers.ValidationError(str(error), code="invalid_position") from None


class LineSerializer(serializers.Serializer):
    """An ``engine.Line``: the line of best play from a position."""

    cells = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The moves of perfect play from both sides, in turn from the position, the player to move first: "
        "the fastest win, else a draw, else the slowest loss; among equal cells the lowest. Empty once the game "
        "is over.",
    )
    complete = serializers.BooleanField(
        help_text="True when the line reaches the end of the game; false when the search ran out of its time "
        "first: `cells` are then the moves proven so far, never a guess."
    )


class AnalysisSerializer(serializers.Serializer):
    """Built with :meth:`of` from a Board, its ``engine.Analysis`` and its ``engine.Line``."""

    board = serializers.CharField()
    to_move = serializers.ChoiceField(choices=Side.choices, allow_null=True)
    exact = serializers.BooleanField(
        help_text='True when every cell was solved; false when some cell is "unsolved" (out of time).'
    )
    cells = serializers.DictField(
        child=EvaluationSerializer(),
        help_text="Every empty cell's value for the player to move, by cell; empty once the game is over.",
    )
    best_cells = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The solved cells with the best outcome for the player to move: the fastest win, else a "
        "draw, else the slowest loss.",
    )
    traps = serializers.DictField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="For every cell whose outcome is the best cells' outcome, by cell: how many of the opponent's "
        "replies would then give up part of the opponent's outcome (after a draw, the replies that lose; after a "
        "loss, those that do not win; after a win, none). Among moves with the same outcome, more traps give the "
        "opponent more ways to go wrong. Null when the search had no time left to count them.",
    )
    stats = SearchStatsSerializer()
    line = LineSerializer(help_text="The line of best play from the position (the principal variation).")

    @classmethod
    def of(cls, board: engine.Board, analysis: engine.Analysis, line: engine.Line) -> AnalysisSerializer:
        # An Analysis is a dict of cells, so its attributes are read here, not by dotted sources.
        return cls(
            {
                "board": str(board),
                "to_move": board.to_move,
                "exact": analysis.exact,
                "cells": dict(analysis),
                "best_cells": analysis.best_cells,
                "traps": analysis.traps,
                "stats": analysis.stats,
                "line": line,
            }
        )


class BetterMoveSerializer(serializers.Serializer):
    """A better move than the one played (a ``games.play.reviews.BetterMove``), and what follows it."""

    cell = serializers.IntegerField(help_text="The better move.")
    line = serializers.ListField(
        source="line.cells",
        child=serializers.IntegerField(),
        help_text="The line of best play after `cell`: the cells played in turn, starting with the "
        "other side's reply, to the end of the game. Among equally good cells, the lowest.",
    )
    line_complete = serializers.BooleanField(
        source="line.complete",
        help_text="False when the engine ran out of time first: `line` then holds the moves proven so far.",
    )


class MoveReviewSerializer(serializers.Serializer):
    ply = serializers.IntegerField()
    player = serializers.ChoiceField(choices=Side.choices)
    cell = serializers.IntegerField()
    label = serializers.ChoiceField(
        choices=[*engine.LABELS, "unsolved"],
        help_text='"best"; "inaccuracy": the same outcome, but a slower win or a sooner loss; "mistake": a win '
        'thrown to a draw; "blunder": a win or a draw thrown to a loss; "unsolved": the position was not '
        "solved in time.",
    )
    played = EvaluationSerializer()
    best = EvaluationSerializer()
    best_cells = serializers.ListField(child=serializers.IntegerField())
    # Reviews that teach (games/play/reviews.py): the better moves and the line after one.
    better_cells = serializers.SerializerMethodField(
        help_text="The cells that would have done better than the one played, the same as `best_cells`; "
        'empty for a move labelled "best" or "unsolved".'
    )
    better_move = serializers.SerializerMethodField(
        help_text='For a move labelled "inaccuracy", "mistake" or "blunder": the lowest of `better_cells`, and '
        "`line`, the line of best play from the position after it. Null otherwise."
    )

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_better_cells(self, move: engine.MoveReview) -> list[int]:
        return list(move.best_cells) if move.label in engine.LABELS[1:] else []

    @extend_schema_field(BetterMoveSerializer(allow_null=True))
    def get_better_move(self, move: engine.MoveReview) -> dict | None:
        better = self.context.get("better_moves", {}).get(move.ply)
        return BetterMoveSerializer(better).data if better else None


class ReviewSerializer(serializers.Serializer):
    """Built from ``{"game": Game, "review": engine.Review}``, with the better
    moves (``games.play.reviews.better_moves``) in the context as ``better_moves``."""

    game = serializers.IntegerField(source="game.pk")
    exact = serializers.BooleanField(
        source="review.exact", help_text='False when some position was not solved in time (labelled "unsolved").'
    )
    decisive_ply = serializers.IntegerField(
        source="review.decisive_ply", allow_null=True, help_text="The move that decided the result, if one did."
    )
    moves = MoveReviewSerializer(source="review.moves", many=True)
