"""The review of a finished game (:class:`GameReview`): made by the background
worker a moment after the game ends (``games.play.review_services``) and kept
with the game, so the game page, the API and the teaching pages read it
without searching."""

from __future__ import annotations

from django.db import models

from games.play.models import Game


class GameReview(models.Model):
    """A finished game's review, as the engine made it once, with what its lessons show."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="review")
    review = models.JSONField(
        help_text="Each move's label, evaluations and best cells, the decisive move and whether the review is "
        "exact; the lines of best play after each better move and each move played but the best; the analysis "
        "of the position before each mistake and blunder (games.play.reviews.ReviewedGame.to_json)."
    )
    reviewed_at = models.DateTimeField("reviewed", auto_now_add=True)

    class Meta:
        ordering = ["-reviewed_at"]

    def __str__(self) -> str:
        return f"Review of game {self.game_id}"
