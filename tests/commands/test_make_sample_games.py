"""``python -m bench sample_games``: realistic games, every one of them a real game."""

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Sum
from django.urls import reverse

from bench.__main__ import main as bench
from bench.sample_games import PASSWORD
from games.play.models import Game, Move, Status, Termination
from games.stats.models import DailyStats, PlayerStats, RatingChange

pytestmark = pytest.mark.django_db

ON_THE_BOARD = {Termination.LINE, Termination.FULL_BOARD}


@pytest.fixture
def sample_games(capsys):
    bench(["sample_games", "--games", "300", "--users", "20", "--days", "30", "--seed", "7", "--batch", "120"])
    return capsys.readouterr().out


def test_it_creates_the_players_games_and_moves_asked_for(sample_games):
    assert get_user_model().objects.count() == 20
    assert Game.objects.count() == 300
    assert Move.objects.count() == Game.objects.aggregate(moves=Sum("move_count"))["moves"]
    assert "300 games" in sample_games and "20 players" in sample_games


def test_the_players_sign_in_with_the_known_password(sample_games, client):
    user = get_user_model().objects.first()
    # Through the login form: django-axes (which watches every sign-in) needs
    # the request, which the test client's login() does not pass.
    response = client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)


def test_every_game_replays_to_its_stored_status_and_result(sample_games):
    for game in Game.objects.prefetch_related("moves"):
        plies = [move.ply for move in game.moves.all()]
        assert sorted(plies) == list(range(game.move_count)), game
        board = game.board
        if game.termination in ON_THE_BOARD:
            assert board.is_game_over(), game
            assert (board.result(), board.termination()) == (game.result, game.termination), game
        else:
            # Resigned, lost on time, aborted or still going: the board has not ended.
            assert not board.is_game_over(), game
        if game.status == Status.ABORTED:
            assert game.move_count < 2 and game.result == ""
        if game.status == Status.IN_PROGRESS:
            assert game.finished_at is None and game.result == ""
        else:
            assert game.finished_at is not None


def test_there_is_a_realistic_mix(sample_games):
    games = Game.objects.all()
    assert games.against_ai().count() > games.against_humans().count() > 0
    assert {"easy", "medium", "hard", "perfect"} <= set(games.values_list("ai_level", flat=True))
    assert set(games.values_list("variant", flat=True)) == {"3x3", "4x4", "5x5"}
    assert games.filter(variant="3x3").count() > games.count() / 2
    finished = games.filter(status=Status.FINISHED)
    assert set(finished.values_list("result", flat=True)) == {"x_won", "o_won", "draw"}
    assert finished.filter(termination=Termination.RESIGNED).exists()
    assert games.exclude(status=Status.FINISHED).exists()


def test_the_statistics_are_recounted_from_the_games(sample_games):
    finished = Game.objects.filter(status=Status.FINISHED)
    assert DailyStats.objects.aggregate(games=Sum("games"))["games"] == finished.count()
    assert DailyStats.objects.aggregate(moves=Sum("moves"))["moves"] == finished.aggregate(m=Sum("move_count"))["m"]
    rated = finished.against_humans().exclude(x_player=None).exclude(o_player=None).count()
    assert RatingChange.objects.count() == 2 * rated
    assert not finished.filter(stats_counted=False).exists()
    assert PlayerStats.objects.aggregate(games=Sum("games"))["games"] == sum(
        (g.x_player_id is not None) + (g.o_player_id is not None) for g in finished
    )


def test_making_more_adds_to_what_is_there(sample_games):
    bench(["sample_games", "--games", "50", "--users", "5"])
    assert Game.objects.count() == 350
    assert get_user_model().objects.count() == 25
    # The id sequence follows the explicit ids: the site can still create games.
    game = Game.objects.create()
    assert game.pk > max(Game.objects.exclude(pk=game.pk).values_list("pk", flat=True))


def test_bad_numbers_are_refused():
    with pytest.raises(SystemExit, match="need --games >= 0, --users >= 2"):
        bench(["sample_games", "--users", "1"])
    assert not Game.objects.exists() and not get_user_model().objects.exists()
