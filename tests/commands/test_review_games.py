"""``manage.py review_games``: every finished game without a review gets one,
for a database whose games ended before reviews were stored; games reviewed
already, and games not finished, are left as they are."""

import io

import pytest
from django.core.management import call_command

from games.play.review_models import GameReview
from tests import factories

pytestmark = pytest.mark.django_db


def _review_games() -> str:
    out = io.StringIO()
    call_command("review_games", stdout=out)
    return out.getvalue().strip()


def test_every_finished_game_without_a_review_is_reviewed_once(user, bob, reviewed):
    done = reviewed(factories.human_game(user, bob, factories.X_WINS))
    GameReview.objects.filter(game=done).update(review={"kept": True})  # would change if reviewed again
    waiting = [factories.human_game(user, bob, cells) for cells in (factories.DRAW, [2, 1, 4, 0, 7, 6, 3, 5, 8])]
    playing = factories.human_game(user, bob, [4, 0])

    assert _review_games() == "Reviewed 2 games."

    assert set(GameReview.objects.values_list("game", flat=True)) == {done.pk, *(game.pk for game in waiting)}
    assert GameReview.objects.get(game=done).review == {"kept": True}
    assert not GameReview.objects.filter(game=playing).exists()
    assert _review_games() == "Reviewed 0 games."
