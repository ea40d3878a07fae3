"""Reads about reviews: a finished game's stored review, and the finished games
still waiting for one."""

from __future__ import annotations

from django.db.models import F

from games.play.models import Game, Status
from games.play.review_models import GameReview
from games.play.reviews import ReviewedGame


def game_review(game: Game) -> ReviewedGame | None:
    """The review stored with ``game``, or None: while it is not finished, or
    until the background worker has reviewed it. Never searches."""
    if game.status != Status.FINISHED:
        return None
    stored = GameReview.objects.filter(game_id=game.pk).values_list("review", flat=True).first()
    return None if stored is None else ReviewedGame.from_json(stored)


def games_to_review(limit: int | None = None) -> list[int]:
    """The ids of the finished games without a review, the longest finished first."""
    waiting = (
        Game.objects.filter(status=Status.FINISHED, review__isnull=True)
        .order_by(F("finished_at").asc(nulls_first=True), "id")
        .values_list("id", flat=True)
    )
    return list(waiting if limit is None else waiting[:limit])
