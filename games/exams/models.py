"""An exam: positions a student's program answers through the API, each answer
graded against every move's exact outcome, stored when the exam was made; and
games it plays against each level of the AI, on both sides.

The outcomes are stored, not searched again: an exam is made once (3x3 from a
table of every position, 4x4 and 5x5 by the engine when the exam is created)
and every later answer, report and page reads them. The games are ordinary
games against the AI; as each one ends, its result is counted on the exam.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse

from games.play.models import Game, Level, Side, Variant


class Grade(models.TextChoices):
    """How good an answer was; stored values never change."""

    BEST = "best", "Best"
    SLOWER_WIN = "slower_win", "A slower win"
    WIN_TO_DRAW = "win_to_draw", "A win thrown to a draw"
    LOSS = "loss", "Thrown to a loss"
    QUICKER_LOSS = "quicker_loss", "A quicker loss"


def new_key() -> str:
    """The unguessable part of a report's address."""
    return secrets.token_urlsafe(16)


class Exam(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="exams")
    variant = models.CharField(max_length=3, choices=Variant.choices)
    seed = models.BigIntegerField(null=True, blank=True, help_text="What sampled the positions; null for every one.")
    key = models.CharField(max_length=32, unique=True, default=new_key, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    positions_count = models.PositiveIntegerField(default=0)
    answered = models.PositiveIntegerField(default=0)
    best = models.PositiveIntegerField(default=0)
    slower_wins = models.PositiveIntegerField(default=0)
    wins_to_draws = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    quicker_losses = models.PositiveIntegerField(default=0)
    games_per_side = models.PositiveSmallIntegerField(
        default=0, help_text="Games against each level of the AI, on each side."
    )
    games_count = models.PositiveIntegerField(default=0)
    games_won = models.PositiveIntegerField(default=0)
    games_drawn = models.PositiveIntegerField(default=0)
    games_lost = models.PositiveIntegerField(default=0)
    games_aborted = models.PositiveIntegerField(default=0, help_text="Called off before both sides moved.")

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "exam"

    def __str__(self) -> str:
        return f"Exam {self.pk} ({self.variant}, {self.positions_count} positions)"

    def get_absolute_url(self) -> str:
        return reverse("games:exam_report", args=[self.key])

    @property
    def status(self) -> str:
        return "finished" if self.finished_at else "open"

    @property
    def games_over(self) -> int:
        return self.games_won + self.games_drawn + self.games_lost + self.games_aborted

    @property
    def is_done(self) -> bool:
        """Every position answered and every game over: the exam finishes now."""
        return self.answered == self.positions_count and self.games_over == self.games_count


class ExamPosition(models.Model):
    exam = models.ForeignKey(Exam, on_delete=models.CASCADE, related_name="positions")
    index = models.PositiveIntegerField()
    board = models.CharField(max_length=25)
    to_move = models.CharField(max_length=1, choices=Side.choices)
    outcomes = models.JSONField(help_text='Every legal cell\'s exact outcome: {"4": {"outcome": "win", "plies": 5}}.')
    cell = models.PositiveSmallIntegerField(null=True, blank=True, help_text="The answer; null before it.")
    grade = models.CharField(max_length=12, choices=Grade.choices, blank=True)

    class Meta:
        ordering = ["exam", "index"]
        constraints = [models.UniqueConstraint(fields=["exam", "index"], name="one_position_per_index")]

    def __str__(self) -> str:
        return f"{self.exam_id}#{self.index} {self.board}"


class ExamGame(models.Model):
    """One of the exam's games: the program, on ``side``, against the AI at ``level``."""

    exam = models.ForeignKey(Exam, on_delete=models.CASCADE, related_name="exam_games")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="exam_game")
    level = models.CharField(max_length=7, choices=Level.choices)
    side = models.CharField(max_length=1, choices=Side.choices, help_text="The program's side.")

    class Meta:
        ordering = ["exam", "id"]
        verbose_name = "exam game"

    def __str__(self) -> str:
        return f"{self.exam_id}: {self.side} against {self.level} (game {self.game_id})"
