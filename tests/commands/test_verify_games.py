"""``manage.py verify_games``: every stored game replays to what is stored about it."""

import pytest
from django.core.management import CommandError, call_command

from games import worker
from games.play import services
from games.play.integrity import verify_games
from games.play.models import Game, Move, Status
from games.play.players import Player
from tests.factories import human_game, time_passes

pytestmark = pytest.mark.django_db


def ai_game(user, cells, side="X"):
    """A game against the AI where ``user`` plays ``cells`` while the game lasts."""
    player = Player(user=user)
    game = services.game_create_against_ai(player=player, side=side, level="perfect", seed=1)
    for cell in cells:
        game = Game.objects.get(pk=game.pk)
        if game.status != Status.IN_PROGRESS:
            break
        free = set(range(9)) - set(game.moves.values_list("cell", flat=True))
        services.game_play_move(
            game_id=game.pk, player=player, cell=cell if cell in free else min(free), ply=game.move_count
        )
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def games(user):
    """Games in every state: finished on the board, resigned, aborted, in progress."""
    finished = ai_game(user, [0, 1, 2, 3, 5, 6, 7, 8])
    resigned = ai_game(user, [4])
    services.game_resign(game_id=resigned.pk, player=Player(user=user))
    aborted = ai_game(user, [4], side="O")
    services.game_abort(game_id=aborted.pk)
    playing = ai_game(user, [4])
    return {"finished": finished, "resigned": resigned, "aborted": aborted, "playing": playing}


def problems():
    return [str(problem) for problem in verify_games()]


def test_games_played_through_the_services_have_no_problems(games, capsys):
    assert games["finished"].status == Status.FINISHED
    assert problems() == []
    call_command("verify_games")
    assert "4 games replay to what is stored" in capsys.readouterr().out


def test_a_missing_move_is_reported_and_the_command_fails(games):
    game = games["finished"]
    Move.objects.filter(game=game, ply=1).delete()
    (problem,) = problems()
    assert problem.startswith(f"game {game.pk}: plies [0, 2, 3,") and "without a gap" in problem
    with pytest.raises(CommandError, match="1 problem"):
        call_command("verify_games")


def test_a_move_count_that_disagrees_with_the_moves_is_reported(games):
    game = games["playing"]
    Game.objects.filter(pk=game.pk).update(move_count=game.move_count + 1)
    assert problems() == [f"game {game.pk}: move_count is {game.move_count + 1} but {game.move_count} moves are stored"]


def test_a_result_the_moves_do_not_give_is_reported(games):
    game = games["finished"]
    wrong = "o_won" if game.result != "o_won" else "x_won"
    Game.objects.filter(pk=game.pk).update(result=wrong)
    (problem,) = problems()
    assert problem.startswith(
        f"game {game.pk}: stored as {wrong} by {game.termination}, but the moves give {game.result}"
    )


def test_a_game_stored_as_resigned_before_both_sides_moved_is_reported(games):
    game = ai_game(games["playing"].x_player, [], side="O")  # the AI's opening only
    Game.objects.filter(pk=game.pk).update(
        status="finished", result="x_won", termination="resigned", finished_at=game.created_at
    )
    (problem,) = problems()
    assert problem == (f"game {game.pk}: finished with 1 move(s): a game that ends before both sides move is aborted")


def test_a_game_stored_as_in_progress_after_the_board_ended_is_reported(games):
    game = games["finished"]
    Game.objects.filter(pk=game.pk).update(status=Status.IN_PROGRESS, result="", termination="", finished_at=None)
    (problem,) = problems()
    assert f"game {game.pk}: stored as in_progress but the moves give {game.result}" in problem


def test_a_move_after_the_game_was_won_is_reported(games):
    game = games["finished"]
    assert game.termination == "line" and game.move_count < 9, "the AI wins this game with cells to spare"
    free = min(set(range(9)) - set(game.moves.values_list("cell", flat=True)))
    Move.objects.create(game=game, ply=game.move_count, cell=free)
    Game.objects.filter(pk=game.pk).update(move_count=game.move_count + 1)
    (problem,) = problems()
    assert problem.startswith(f"game {game.pk}: the moves do not replay")


def test_only_the_named_games_are_checked(games, capsys):
    Game.objects.filter(pk=games["finished"].pk).update(move_count=0)
    call_command("verify_games", "--game", str(games["playing"].pk))
    assert "1 games replay" in capsys.readouterr().out
    with pytest.raises(CommandError, match=r"1 problem\(s\) in 1 games"):
        call_command("verify_games", "--game", str(games["finished"].pk))


def test_games_ended_on_time_replay_to_a_win_or_a_draw_as_the_clock_rule_says(user, bob):
    won = human_game(user, bob, cells=[4, 0, 8], time_control="30s")
    drawn = human_game(user, bob, cells=[4, 0, 1, 7, 6, 2, 5, 3], time_control="30s")  # O has no line left
    for game in (won, drawn):
        time_passes(game, 31)
    assert worker.end_games_out_of_time() == 2
    assert problems() == []
    # Stored the other way round, each is reported.
    Game.objects.filter(pk=won.pk).update(result="draw")
    Game.objects.filter(pk=drawn.pk).update(result="x_won")
    assert problems() == [
        f"game {won.pk}: drawn on time, but X could still have made a line",
        f"game {drawn.pk}: ended by timeout with result 'x_won', but X was the side to move",
    ]
