"""The principal variation: the line of best play from a position, checked
move by move against the referee (tests/engine/reference.py)."""

import pytest

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
