"""The engine's answers in a learner's words: "X wins in 3", "O wins in 4",
"draw", checked against the independent referee's plain minimax."""

import pytest

from games import engine
from games.learn import explain
from tests.engine import reference

#: A spread of 3x3 positions still in play: every 40th the referee can reach.
POSITIONS = [p for p in reference.reachable(3) if not reference.is_over(p)][::40]


def referee_words(position: str, cell: int) -> str:
    """What the referee says playing ``cell`` leads to, in the page's words."""
    outcome, plies = reference.describe(reference.move_values(position)[cell], position)
    mover = reference.to_move(position)
    if outcome == "draw":
        return "draw"
    winner = mover if outcome == "win" else ("O" if mover == "X" else "X")
    return f"{winner} wins in {plies}"


@pytest.mark.parametrize("position", POSITIONS)
def test_every_cell_says_who_wins_and_when_as_the_referee_does(position):
    board = engine.Board.from_string(position)
    analysis = engine.analyse(board)
    said = {cell: explain.outcome_words(evaluation, board.to_move) for cell, evaluation in analysis.items()}
    assert said == {cell: referee_words(position, cell) for cell in reference.move_values(position)}


def test_the_two_halves_fit_a_small_cell():
    win = engine.Evaluation("win", 3, 0)
    loss = engine.Evaluation("loss", 4, 0)
    assert explain.winner_and_distance(win, "X") == ("X wins", "in 3")
    assert explain.winner_and_distance(loss, "X") == ("O wins", "in 4")
    assert explain.winner_and_distance(engine.Evaluation("draw", 7, 0), "O") == ("draw", "")
    assert explain.winner_and_distance(engine.UNSOLVED, "O") == ("not solved", "in time")
    assert explain.outcome_words(engine.UNSOLVED, "O") == "not solved in time"


@pytest.mark.parametrize("position", ["X...O....", "XX.OO....", "XO.XO....", ".X..OO..OOO.X.X.OXXXXX.O."])
def test_the_line_of_best_play_ends_as_the_position_is_worth(position):
    board = engine.Board.from_string(position)
    line = engine.principal_variation(board)
    best = max(reference.move_values(position).values())
    outcome, plies = reference.describe(best, position)
    mover = board.to_move
    expected = (
        "draw" if outcome == "draw" else f"{mover if outcome == 'win' else engine.other_side(mover)} wins in {plies}"
    )
    assert explain.line_end(board, line) == expected
    assert explain.position_value(board, engine.analyse(board), line) == expected
    moves = explain.line_moves(board, line)
    assert [move.side for move in moves] == [engine.side_to_move(move.ply - 1) for move in moves]
    assert moves[0].side == mover
    assert [move.ply for move in moves] == list(range(board.ply + 1, board.ply + 1 + len(line.cells)))


def test_a_line_cut_short_is_not_solved_and_the_value_says_so_unless_every_cell_was_solved():
    board = engine.Board.from_string("XO" + "." * 23)
    cut = engine.Line((12,), complete=False)
    assert explain.line_end(board, cut) == "not solved in time"
    unsolved = engine.Analysis({2: engine.UNSOLVED}, engine.analyse(engine.Board.empty(3)).stats, exact=False)
    assert explain.position_value(board, unsolved, cut) == "not solved in time"


def test_a_finished_position_is_worth_its_result():
    won = engine.Board.from_string("XXXOO....")
    full = engine.Board.from_string("XOXXOOOXX")
    done = engine.Line((), complete=True)
    assert explain.position_value(won, engine.analyse(won), done) == "X won"
    assert explain.position_value(full, engine.analyse(full), done) == "draw"


def test_cells_are_named_as_a_person_counts():
    assert explain.cell_name(0, 3) == "row 1, column 1"
    assert explain.cell_name(7, 4) == "row 2, column 4"
    assert explain.cell_name(24, 5) == "row 5, column 5"
