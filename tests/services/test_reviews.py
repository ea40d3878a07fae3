"""A finished game's review is made once, by the background worker, and stored
with the game (games/play/review_services.py): what the engine says, exactly,
with the lines and analyses the lessons and the mistakes trainer show; never
twice, even with two workers at once; and only for finished games."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import engine, worker
from games.errors import GameNotFinished
from games.play import review_selectors, review_services, reviews, services
from games.play.models import Game
from games.play.players import Player
from games.play.review_models import GameReview
from tests import factories

pytestmark = pytest.mark.django_db

#: X: 2, O: 1 (a blunder), X: 4, O: 0 (an inaccuracy), X: 7 (a mistake) ... a draw.
BOTH_ERR = [2, 1, 4, 0, 7, 6, 3, 5, 8]
EVERY_LABEL_4X4 = [8, 7, 3, 15, 0, 1, 10, 2, 5, 14, 12, 6, 4]


def test_the_stored_review_is_the_engine_s_with_every_line_and_analysis_its_lessons_need(user, bob):
    game = factories.human_game(user, bob, EVERY_LABEL_4X4, variant="4x4")

    stored, created = review_services.game_review_store(game_id=game.pk)

    assert created and GameReview.objects.get(game=game) == stored
    reviewed = review_selectors.game_review(Game.objects.get(pk=game.pk))  # read back from its JSON
    review = engine.review(EVERY_LABEL_4X4, size=4)
    assert reviewed.review == review
    taught = [move for move in review.moves if move.label != "best"]
    assert sorted(reviewed.lines) == [move.ply for move in taught]
    for move in taught:
        before = engine.Board.from_moves(EVERY_LABEL_4X4[: move.ply], size=4)
        assert reviewed.lines[move.ply] == (
            engine.principal_variation(before.play(move.best_cells[0])),
            engine.principal_variation(before.play(move.cell)),
        )
    retried = [move for move in review.moves if move.label in ("mistake", "blunder")]
    assert sorted(reviewed.analyses) == [move.ply for move in retried]
    for move in retried:
        before = engine.Board.from_moves(EVERY_LABEL_4X4[: move.ply], size=4)
        assert reviewed.analyses[move.ply] == dict(engine.analyse(before))
    assert reviews.ReviewedGame.from_json(reviewed.to_json()) == reviewed


def test_a_game_reviewed_already_keeps_its_review_and_costs_no_search(user, bob, reviewed, engine_searches):
    game = reviewed(factories.human_game(user, bob, BOTH_ERR))
    first = GameReview.objects.get(game=game)
    engine_searches.clear()

    stored, created = review_services.game_review_store(game_id=game.pk)

    assert not created and stored == first and stored.review == first.review
    assert engine_searches == [] and GameReview.objects.count() == 1


def test_only_a_finished_game_is_reviewed(user, bob):
    playing = factories.human_game(user, bob, BOTH_ERR[:3])
    aborted = factories.human_game(user, bob, [4])
    services.game_abort_by_player(game_id=aborted.pk, player=Player(user=user))
    for game in (playing, aborted):
        with pytest.raises(GameNotFinished):
            review_services.game_review_store(game_id=game.pk)
    assert not GameReview.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_workers_reviewing_one_game_at_once_store_one_review(django_user_model, monkeypatch):
    alice = django_user_model.objects.create_user("racer-x", password="x")
    bob = django_user_model.objects.create_user("racer-o", password="x")
    game = factories.human_game(alice, bob, BOTH_ERR)
    # Both have looked for a review and found none before either stores theirs.
    both_searched = threading.Barrier(2)
    real = reviews.review_with_lessons

    def searched_alongside(*args):
        found = real(*args)
        both_searched.wait(timeout=30)
        return found

    monkeypatch.setattr(reviews, "review_with_lessons", searched_alongside)
    outcomes = []

    def review():
        try:
            outcomes.append(review_services.game_review_store(game_id=game.pk)[1])
        except Exception as error:  # noqa: BLE001 - a crash is what the test looks for
            outcomes.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=review) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes) == [False, True]  # one stored it, the other read it back
    assert GameReview.objects.filter(game=game).count() == 1
    assert review_selectors.game_review(Game.objects.get(pk=game.pk)).review == engine.review(BOTH_ERR)


def _reviews_job() -> worker.Job:
    return next(job for job in worker.default_jobs() if job.name == "reviews")


def test_the_worker_reviews_the_longest_finished_games_first_a_few_at_a_time(user, bob, monkeypatch):
    monkeypatch.setattr(worker, "REVIEWS_PER_PASS", 2)
    games = [factories.human_game(user, bob, cells) for cells in (BOTH_ERR, factories.X_WINS, factories.DRAW)]
    now = timezone.now()
    for minutes, game in zip((1, 3, 2), games, strict=True):  # the second ended first, then the third
        Game.objects.filter(pk=game.pk).update(finished_at=now - timedelta(minutes=minutes))
    playing = factories.human_game(user, bob, BOTH_ERR[:3])
    job = _reviews_job()
    assert job.every <= 2

    job.run()
    assert set(GameReview.objects.values_list("game", flat=True)) == {games[1].pk, games[2].pk}
    job.run()
    assert set(GameReview.objects.values_list("game", flat=True)) == {game.pk for game in games}
    job.run()
    assert GameReview.objects.count() == 3 and not GameReview.objects.filter(game=playing).exists()


def test_the_worker_leaves_reviewed_games_alone_and_goes_past_one_the_engine_fails_on(
    user, bob, reviewed, monkeypatch, caplog
):
    done = reviewed(factories.human_game(user, bob, BOTH_ERR))
    GameReview.objects.filter(game=done).update(review={"kept": True})  # would change if reviewed again
    failing = factories.human_game(user, bob, factories.X_WINS)
    waiting = factories.human_game(user, bob, factories.DRAW)
    real = reviews.review_with_lessons

    def fails_on_one(cells, size):
        if list(cells) == factories.X_WINS:
            raise RuntimeError("the engine failed")
        return real(cells, size)

    monkeypatch.setattr(reviews, "review_with_lessons", fails_on_one)

    _reviews_job().run()

    assert GameReview.objects.get(game=done).review == {"kept": True}
    assert GameReview.objects.filter(game=waiting).exists()
    assert not GameReview.objects.filter(game=failing).exists()  # tried again on the next pass
    assert f"could not review game {failing.pk}" in caplog.text
