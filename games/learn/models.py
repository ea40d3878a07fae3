"""Puzzles: positions with exactly one right move, each of a theme that says
what it asks (win now, block, make a fork, win in three, save a draw).

A puzzle is found, never typed in: ``manage.py make_puzzles --starter`` makes
the starter set from exact solutions (``games.learn.starter``), and
``manage.py make_puzzles`` looks through finished games; either keeps a
position only where the engine proves its one answer (``games.learn.finding``).
The row keeps what the engine said then (the cell, how fast it wins, the line
of best play) so pages read it without searching; every answer a learner
gives is checked by the engine afresh (``games.learn.solving``).
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Length, Substr
from django.db.models.lookups import Exact, LessThan
from django.urls import reverse

from games.engine import Board, other_side
from games.learn import finding
from games.play.models import Game, Side, Variant

_ORDINALS = (
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh",
    "eighth", "ninth", "tenth", "eleventh", "twelfth", "thirteenth",
)  # fmt: skip

#: The longest win a puzzle may ask for, in moves (plies, both sides', the
#: learner's first and last included): odd, since the learner plays the last.
LONGEST_WIN = 25


class Theme(models.TextChoices):
    """What a puzzle asks; stored values never change."""

    WIN_NOW = finding.WIN_NOW, "Win now"
    BLOCK = finding.BLOCK, "Block"
    FORK = finding.FORK, "Make a fork"
    SAVE_DRAW = finding.SAVE_DRAW, "Save a draw"
    WIN_IN_THREE = finding.WIN_IN_THREE, "Win in three"
    LONG_WIN = finding.LONG_WIN, "A longer win"


#: Each theme's question in full, as the puzzle page puts it: the move that
#: wins by its ordinal in words (a digit beside numbered cells would read as a cell).
THEME_BRIEFS = {
    Theme.WIN_NOW: "One move completes a line: find it.",
    Theme.BLOCK: "{them} threatens to win. Exactly one move stops it and keeps the draw; "
    "{them} then plays its strongest reply.",
    Theme.FORK: "Exactly one move wins, with your second move, whatever {them} replies in between: "
    "it makes two threats at once, and {them} can block only one. {them} defends as well as it can.",
    Theme.SAVE_DRAW: "{them} threatens nothing yet, but every move loses except one, which keeps the draw; "
    "{them} then plays its strongest reply.",
    Theme.WIN_IN_THREE: "Exactly one move wins, with your third move, whatever {them} replies in between. "
    "{them} defends as well as it can.",
    Theme.LONG_WIN: "Exactly one move wins, with your {ordinal} move, whatever {them} replies in between. "
    "{them} defends as well as it can.",
}


#: Each theme in a sentence, for the lists of themes.
THEME_DESCRIPTIONS = {
    Theme.WIN_NOW: "One move completes a line: spot it.",
    Theme.BLOCK: "The other side threatens to win: exactly one move stops it and keeps the draw.",
    Theme.FORK: "The only winning move makes two threats at once, and wins with your second move.",
    Theme.SAVE_DRAW: "Nobody threatens to win yet, but every move loses except one.",
    Theme.WIN_IN_THREE: "Exactly one move wins, with your third move: look further ahead.",
    Theme.LONG_WIN: "Exactly one move wins, further ahead still.",
}


class Origin(models.TextChoices):
    """Where a puzzle came from; stored values never change."""

    STARTER = "starter", "The starter set"
    GAME = "game", "A game played here"


def _per_board(what) -> Q:
    """A condition per variant: ``what(cells)`` for the variant's number of cells."""
    condition = Q()
    for variant in Variant:
        condition |= Q(variant=variant.value) & what(variant.size**2)
    return condition


class Puzzle(models.Model):
    position = models.CharField(
        max_length=25, help_text='The position, row by row: "X", "O" or "." per cell, cell 0 at the top left.'
    )
    variant = models.CharField(max_length=3, choices=Variant)
    side = models.CharField("to play", max_length=1, choices=Side, help_text="The side to move: the learner's.")
    theme = models.CharField(max_length=12, choices=Theme, help_text="What the puzzle asks.")
    cell = models.PositiveSmallIntegerField("answer", help_text="The one right cell: the one that wins, or that holds.")
    win_in = models.PositiveSmallIntegerField(
        "wins in",
        null=True,
        blank=True,
        help_text="Moves to the win with best play from both sides, the first and the last included; "
        "empty where the answer keeps the draw.",
    )
    solution = models.CharField(
        max_length=80,
        help_text="Best play from the position, cells separated by commas: to the win, or, where the answer "
        "keeps the draw, the answer and the toughest reply.",
    )
    origin = models.CharField(max_length=7, choices=Origin, default=Origin.GAME, help_text="Where it came from.")
    game = models.ForeignKey(
        Game,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="puzzles",
        help_text="The game it was found in; empty once that game is deleted.",
    )
    created_at = models.DateTimeField("found", auto_now_add=True)

    class Meta:
        ordering = ["variant", "id"]
        indexes = [models.Index(fields=["variant", "theme", "id"], name="puzzle_by_board_and_theme")]
        constraints = [
            models.UniqueConstraint(fields=["position"], name="puzzle_one_per_position"),
            models.CheckConstraint(condition=Q(side__in=Side.values), name="puzzle_side_is_x_or_o"),
            models.CheckConstraint(condition=Q(variant__in=Variant.values), name="puzzle_variant_known"),
            models.CheckConstraint(condition=Q(theme__in=Theme.values), name="puzzle_theme_known"),
            models.CheckConstraint(condition=Q(origin__in=Origin.values), name="puzzle_origin_known"),
            # A theme says how fast its win is; the learner moves first and last, so a
            # longer win takes an odd number of moves; a draw's answer has no win_in.
            # (win_in IS NOT NULL first: a comparison with NULL would let the check pass.)
            models.CheckConstraint(
                condition=Q(win_in__isnull=False)
                & (
                    Q(theme=Theme.WIN_NOW, win_in=1)
                    | Q(theme=Theme.FORK, win_in=3)
                    | Q(theme=Theme.WIN_IN_THREE, win_in=5)
                    | Q(theme=Theme.LONG_WIN, win_in__in=list(range(7, LONGEST_WIN + 1, 2)))
                )
                | Q(theme__in=finding.DRAW_THEMES, win_in__isnull=True),
                name="puzzle_win_in_fits_its_theme",
            ),
            models.CheckConstraint(
                condition=_per_board(lambda cells: Exact(Length("position"), cells)),
                name="puzzle_position_fits_its_board",
            ),
            models.CheckConstraint(
                condition=_per_board(lambda cells: LessThan(F("cell"), cells)),
                name="puzzle_cell_on_its_board",
            ),
            models.CheckConstraint(
                condition=Exact(Substr("position", F("cell") + 1, 1), "."), name="puzzle_winning_cell_is_empty"
            ),
        ]

    def __str__(self) -> str:
        return f"Puzzle {self.pk}: {self.title} ({self.variant})"

    def get_absolute_url(self) -> str:
        return reverse("games:puzzle", args=[self.pk])

    @property
    def size(self) -> int:
        return Variant(self.variant).size

    @property
    def board(self) -> Board:
        return Board.from_string(self.position)

    @property
    def solution_cells(self) -> tuple[int, ...]:
        """The line of best play, as cells: the winning cell first, the learner's win last."""
        return tuple(int(cell) for cell in self.solution.split(",") if cell)

    @property
    def opponent(self) -> str:
        return other_side(self.side)

    @property
    def goal(self) -> str:
        """What the answer secures: "win" or "draw"."""
        return "draw" if self.theme in finding.DRAW_THEMES else "win"

    @property
    def learner_moves(self) -> int:
        """How many moves the learner plays: 2 in a win in 3 (theirs, a reply,
        theirs); 1 where the answer keeps the draw."""
        return 1 if self.win_in is None else (self.win_in + 1) // 2

    @property
    def winning_move_in_words(self) -> str:
        """Which of the learner's moves wins, in words ("second"): beside a
        board of numbered cells, a digit would read as a cell."""
        return _ORDINALS[self.learner_moves - 1]

    @property
    def task(self) -> str:
        """What it asks, after "X to play and": "win with your second move"."""
        if self.theme == Theme.WIN_NOW:
            return "win now"
        if self.theme == Theme.BLOCK:
            return f"stop {self.opponent}'s win"
        if self.theme == Theme.SAVE_DRAW:
            return "save the draw"
        return f"win with your {self.winning_move_in_words} move"

    @property
    def title(self) -> str:
        """ "X to play and win with your second move"."""
        return f"{self.side} to play and {self.task}"

    @property
    def brief(self) -> str:
        """The puzzle's question in a sentence or two, its theme's own."""
        return THEME_BRIEFS[self.theme].format(them=self.opponent, ordinal=self.winning_move_in_words)
