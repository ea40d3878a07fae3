"""The principal variation: the line of best play from a position, checked
move by move against the referee (tests/engine/reference.py); and the
toughest reply, a defender's longest resistance."""

import random

import pytest

from bench.positions import random_position
from games import engine
from tests.engine import reference


def _follows_best_play(position: str, cells) -> str:
    """Play ``cells`` from ``position``, each of which must be one of the
    referee's best moves; the final position."""
    for cell in cells:
        values = reference.move_values(position)
        assert values[cell] == max(values.values()), (position, cell, values)
        position = reference.play(position, cell)
    return position


@pytest.mark.parametrize("position", reference.reachable(3))
def test_on_3x3_every_line_is_best_play_to_the_end(position):
    if reference.is_over(position):
        assert engine.principal_variation(engine.Board.from_string(position)) == engine.Line((), complete=True)
        return
    line = engine.principal_variation(engine.Board.from_string(position))
    assert line.complete
    end = _follows_best_play(position, line.cells)
    assert reference.is_over(end)
    # The line ends as the position's value says it must: the mover wins, loses or draws.
    mover, value = reference.to_move(position), reference.value(position)
    expected = mover if value > 0 else None if value == 0 else ("O" if mover == "X" else "X")
    assert reference.winner(end) == expected


@pytest.mark.parametrize(
    "moves",
    [[5, 0, 10, 1, 6, 2], [0, 5, 1, 6, 2, 10, 15], [5, 6, 9, 10, 0, 15, 3, 12]],
)
def test_on_4x4_the_line_is_best_play_to_the_end(moves):
    board = engine.Board.from_moves(moves, size=4)
    line = engine.principal_variation(board)
    assert line.complete
    end = _follows_best_play(str(board), line.cells)
    assert reference.is_over(end)


def test_the_line_is_the_same_every_time():
    board = engine.Board.from_moves([12], size=5)
    assert engine.principal_variation(board) == engine.principal_variation(board)


def test_a_line_not_finished_in_time_says_so_and_holds_only_proven_moves():
    board = engine.Board.from_moves([0, 1, 2], size=5)
    line = engine.principal_variation(board, budget=0)  # the tablebase's moves, then no time to search
    assert not line.complete
    assert len(line.cells) < 22


def _best_cells(board: engine.Board) -> list[int]:
    return engine.analyse(board).best_cells


def _good_answers(board: engine.Board) -> int:
    return 0 if board.is_game_over() else len(_best_cells(board))


def test_the_toughest_reply_is_a_best_cell_that_leaves_the_fewest_good_answers(positions_3x3):
    for text in positions_3x3[::7]:
        board = engine.Board.from_string(text)
        if board.is_game_over():
            continue
        best = _best_cells(board)
        reply = engine.toughest_reply(board)
        assert reply in best, text  # never worse than perfect play
        assert _good_answers(board.play(reply)) == min(_good_answers(board.play(cell)) for cell in best), text


def test_after_a_fork_the_toughest_reply_blocks_where_the_lowest_best_cell_does_not():
    board = engine.Board.from_string("OOX.X...X")  # X threatens cells 5 and 6; O loses whatever it plays
    assert _best_cells(board) == [3, 5, 6, 7]
    assert engine.toughest_reply(board) == 5
    assert engine.principal_variation(board).cells[0] == 3
    assert engine.principal_variation(board, resisting="O").cells == (5, 6)


@pytest.mark.parametrize("size, marks", [(4, 7), (5, 9)])
def test_a_resisting_line_keeps_the_positions_outcome_and_length(size, marks):
    rng = random.Random(size * marks)
    for _ in range(3):
        board = random_position(rng, marks, clustered=True, size=size)
        plain = engine.principal_variation(board)
        resisting = engine.principal_variation(board, resisting=engine.other_side(board.to_move))
        assert plain.complete and resisting.complete
        assert len(resisting.cells) == len(plain.cells), str(board)
        end = board
        for cell in resisting.cells:
            assert cell in _best_cells(end), (str(board), resisting.cells)
            end = end.play(cell)
        assert end.winner == _end(board, plain.cells).winner, str(board)


def _end(board: engine.Board, cells) -> engine.Board:
    for cell in cells:
        board = board.play(cell)
    return board
