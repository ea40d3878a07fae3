"""Reviewing finished games: the engine's review and its lessons, searched once
by the background worker (or ``manage.py review_games``) and stored with the game."""

from __future__ import annotations

import logging

from django.db import transaction

from games.errors import GameNotFinished
from games.play import review_selectors, reviews
from games.play.models import Game, Status
from games.play.review_models import GameReview

logger = logging.getLogger(__name__)


def game_review_store(*, game_id: int) -> tuple[GameReview, bool]:
    """Review a finished game and store the review with it: (the review, True
    when this call stored it). A game reviewed already, by this or another
    worker, keeps the review it has."""
    game = Game.objects.prefetch_related("moves").get(pk=game_id)
    if game.status != Status.FINISHED:
        raise GameNotFinished("the game is not finished: it is reviewed once it ends", game=game)
    stored = GameReview.objects.filter(game=game).first()
    if stored is not None:
        return stored, False
    # The engine works outside any transaction: a 5x5 review takes a while, and
    # nothing it reads can change (a finished game's moves never do).
    reviewed = reviews.review_with_lessons(game.cells, game.size)
    with transaction.atomic():
        # Two workers that reviewed the same game at once store one review: the
        # second insert fails on the primary key, and get_or_create reads the first.
        return GameReview.objects.get_or_create(game=game, defaults={"review": reviewed.to_json()})


def games_review(*, limit: int | None = None) -> int:
    """Review the finished games without a review, the longest finished first,
    at most ``limit`` of them; how many this call stored. A game the engine
    fails on is logged and left for the next run."""
    stored = 0
    for game_id in review_selectors.games_to_review(limit):
        try:
            stored += game_review_store(game_id=game_id)[1]
        except Exception:
            logger.exception("could not review game %s", game_id)
    return stored
