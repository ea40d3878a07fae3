"""move_outcomes: the analysis's evaluations without its counts, the same on every board."""

import random

import pytest

from games import engine
from games.search import analysis


@pytest.mark.parametrize("size", [3, 4, 5])
def test_the_outcomes_are_the_analysis_evaluations(size):
    rng = random.Random(size)
    for marks in (0, 2, 5, 7):
        board = engine.Board.empty(size)
        while board.ply < marks and not board.is_game_over():
            board = board.play(rng.choice(board.legal_moves))
        analysis.forget()  # searched, not read from an analysis made earlier
        outcomes = engine.move_outcomes(board)

        assert outcomes == dict(engine.analyse(board)), str(board)
        assert set(outcomes) == set(board.legal_moves)


def test_a_finished_game_has_no_moves_to_weigh():
    assert engine.move_outcomes(engine.Board.from_string("XXXOO....")) == {}


def test_only_a_board_is_analysed():
    with pytest.raises(TypeError, match="takes a Board"):
        engine.move_outcomes("XXXOO....")
