"""Which positions make puzzles, checked against the independent referee
(tests/engine/reference.py) on every 3x3 position a game can reach."""

import pytest

from games import engine
from games.learn import finding
from tests.engine import reference


def referee_puzzle(position: str, max_win_in: int):
    """The referee's answer: (cell, win_in) when exactly one cell wins, within
    3 to ``max_win_in`` moves; else None."""
    if reference.is_over(position):
        return None
    values = reference.move_values(position)
    winning = [cell for cell, score in values.items() if score > 0]
    if len(winning) != 1:
        return None
    outcome, plies = reference.describe(values[winning[0]], position)
    return (winning[0], plies) if 3 <= plies <= max_win_in else None


@pytest.mark.parametrize("max_win_in", [3, 5, 9])
def test_every_reachable_3x3_position_is_a_puzzle_exactly_when_the_referee_says_so(max_win_in):
    """Also the cheap filter (finding.could_win_within) in front of the engine:
    were it to turn a puzzle away, the referee would have one more."""
    found = {}
    for position in reference.reachable(3):
        puzzle = finding.puzzle_in(engine.Board.from_string(position), max_win_in)
        expected = referee_puzzle(position, max_win_in)
        assert (None if puzzle is None else (puzzle.cell, puzzle.win_in)) == expected, position
        if puzzle is not None:
            found[position] = puzzle
    # 3x3 has wins in 3 and in 5 where one cell alone wins; none slower.
    assert {p.win_in for p in found.values()} == {3, 5} & set(range(3, max_win_in + 1))


def test_a_found_puzzle_carries_the_line_of_best_play_to_the_win():
    puzzle = finding.puzzle_in(engine.Board.from_string("OO..X...X"))

    assert puzzle == finding.Found("OO..X...X", "3x3", "X", 2, 3, (2, 5, 6), "fork")
    board = engine.Board.from_string(puzzle.position)
    for cell in puzzle.solution:
        board = board.play(cell)
    assert board.winner == "X"


def test_a_win_in_one_is_not_a_puzzle():
    # X completes the top row at once (cell 2): spotting it asks for no look-ahead.
    assert finding.puzzle_in(engine.Board.from_string("XX.OO....")) is None


def test_two_winning_cells_make_no_puzzle():
    # O answered X's centre on an edge: X has more than one winning cell.
    position = ".O..X...."
    assert sum(score > 0 for score in reference.move_values(position).values()) > 1
    assert finding.puzzle_in(engine.Board.from_string(position), max_win_in=25) is None


def test_the_symmetric_positions_are_the_board_turned_and_mirrored():
    images = finding.symmetric_positions("OO..X...X")

    assert len(images) == 8
    assert "OO..X...X" in images
    assert ".OO.X.X.." in images  # mirrored left to right
    assert "X...X..OO" in images  # turned half round
    assert finding.symmetric_positions("....X....") == {"....X...."}


def test_puzzles_on_bigger_boards_are_found_too():
    # 4x4, four in a row: only cell 7 wins, by threatening two lines at once.
    puzzle = finding.puzzle_in(engine.Board.from_string(".O...XX..OOXO..X"))

    assert puzzle == finding.Found(".O...XX..OOXO..X", "4x4", "X", 7, 3, (7, 3, 4), "fork")
