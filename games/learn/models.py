"""Puzzles: positions from real games where exactly one move wins, and fast.

A puzzle is found, never typed in: ``manage.py make_puzzles`` walks finished
games and keeps each position where the engine proves that the side to move
has one winning cell and no other, and that it wins within a few moves
(``games.learn.finding``). The row keeps what the engine said then (the cell,
how fast it wins, the line of best play) so pages read it without searching;
every answer a learner gives is checked by the engine afresh
(``games.learn.solving``).
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Length, Substr
from django.db.models.lookups import Exact, LessThan
from django.urls import reverse

from games.engine import Board
from games.play.models import Game, Side, Variant

_ORDINALS = (
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh",
    "eighth", "ninth", "tenth", "eleventh", "twelfth", "thirteenth",
)  # fmt: skip

#: The longest win a puzzle may ask for, in moves (plies, both sides', the
#: learner's first and last included): odd, since the learner plays the last.
LONGEST_WIN = 25


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
    cell = models.PositiveSmallIntegerField("winning cell", help_text="The one cell that wins.")
    win_in = models.PositiveSmallIntegerField(
        "wins in", help_text="Moves to the win with best play from both sides, the first and the last included."
    )
    solution = models.CharField(
        max_length=80, help_text="The line of best play from the position, cells separated by commas."
    )
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
        ordering = ["variant", "win_in", "id"]
        indexes = [models.Index(fields=["variant", "win_in", "id"], name="puzzle_by_board")]
        constraints = [
            models.UniqueConstraint(fields=["position"], name="puzzle_one_per_position"),
            models.CheckConstraint(condition=Q(side__in=Side.values), name="puzzle_side_is_x_or_o"),
            models.CheckConstraint(condition=Q(variant__in=Variant.values), name="puzzle_variant_known"),
            # The learner moves first and last: a win in an odd number of moves, at least 3
            # (a win in one move is a threat spotted, not a puzzle).
            models.CheckConstraint(
                condition=Q(win_in__in=list(range(3, LONGEST_WIN + 1, 2))), name="puzzle_wins_in_an_odd_number_of_moves"
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
        return f"Puzzle {self.pk}: {self.side} to play and win in {self.win_in} ({self.variant})"

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
    def learner_moves(self) -> int:
        """How many moves the learner plays: 2 in a win in 3 (theirs, a reply, theirs)."""
        return (self.win_in + 1) // 2

    @property
    def winning_move_in_words(self) -> str:
        """Which of the learner's moves wins, in words ("second"): beside a
        board of numbered cells, a digit would read as a cell."""
        return _ORDINALS[self.learner_moves - 1]
