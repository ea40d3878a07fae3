"""The levels are really different, and ordered. The full table is in bench.engine."""

import random

import pytest

from games.engine import LEVELS, Board, best_move


def _score(level, opponent, games, size=3):
    """Points per game for ``level`` (win 1, draw 0.5), half as X and half as O."""
    rng = random.Random(f"{level}-{opponent}")
    points = 0.0
    for i in range(games):
        side = "X" if i % 2 == 0 else "O"
        board = Board.empty(size)
        while not board.is_game_over():
            player = level if board.to_move == side else opponent
            if player == "random":
                cell = rng.choice(board.legal_moves)
            else:
                cell = best_move(board, player, seed=rng.randrange(1 << 30))
            board = board.play(cell)
        points += 1.0 if board.winner == side else 0.5 if board.winner is None else 0.0
    return points / games


def test_each_level_beats_a_random_player_more_often_than_the_one_below():
    scores = [_score(level, "random", 2000) for level in LEVELS]
    assert scores == sorted(scores) and len(set(scores)) == len(scores), scores


def test_each_level_holds_perfect_play_better_than_the_one_below():
    scores = [_score(level, "perfect", 1000) for level in LEVELS]
    assert scores == sorted(scores) and len(set(scores)) == len(scores), scores
    assert scores[-1] == 0.5  # perfect against perfect: always a draw


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_weaker_levels_can_lose(level):
    assert _score(level, "perfect", 200) < 0.5


def test_medium_and_up_take_a_win_in_one_and_block_a_loss_in_one():
    win = Board.from_string("XX.OO....")  # X wins on 2
    block = Board.from_string("XX..O....")  # O must block 2
    for level in ("medium", "hard", "perfect"):
        assert {best_move(win, level, seed=s) for s in range(20)} == {2}
        assert {best_move(block, level, seed=s) for s in range(20)} == {2}


def test_an_unknown_level_is_refused():
    with pytest.raises(ValueError, match="unknown level 'genius'"):
        best_move(Board.empty(), "genius")


def test_there_is_no_move_on_a_finished_board():
    from games.engine import IllegalMoveError

    for text in ("XXXOO....", "XXXXOOO.........", "XXXX.OOO................."):
        for level in LEVELS:
            with pytest.raises(IllegalMoveError, match="the game is over"):
                best_move(Board.from_string(text), level)
